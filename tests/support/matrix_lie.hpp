#pragma once
// Independent matrix-level references for so(3) and se(3), written without geomint's geometry
// headers: hat/vee by their definitions, exponentials by Eigen's Pade-based MatrixFunctions,
// and the right-trivialised dexp of a matrix group by finite differences:
//   dexp_X(Y) = d/de exp(X + e Y) exp(-X) |_{e=0}     (so d/dt exp(X(t)) = dexp_X(X') exp(X)).

#include <Eigen/Core>
#include <Eigen/LU>

#include "support/finite_difference.hpp"

namespace geomint::testing {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Mat7 = Eigen::Matrix<double, 7, 7>;

/// The cross-product matrix: skew(u) v = u x v, entry by entry.
inline Mat3 skew(const Vec3& u) {
  Mat3 m;
  m(0, 0) = 0.0;
  m(0, 1) = -u(2);
  m(0, 2) = u(1);
  m(1, 0) = u(2);
  m(1, 1) = 0.0;
  m(1, 2) = -u(0);
  m(2, 0) = -u(1);
  m(2, 1) = u(0);
  m(2, 2) = 0.0;
  return m;
}
/// Reads u off a skew-symmetric matrix (averaging the two copies of each entry).
inline Vec3 unskew(const Mat3& m) {
  return Vec3(0.5 * (m(2, 1) - m(1, 2)), 0.5 * (m(0, 2) - m(2, 0)), 0.5 * (m(1, 0) - m(0, 1)));
}

/// [[skew(u), v], [0, 0]] for xi = (u, v).
inline Mat4 hat4(const Vec6& xi) {
  Mat4 m = Mat4::Zero();
  m.topLeftCorner<3, 3>() = skew(xi.head<3>());
  m.topRightCorner<3, 1>() = xi.tail<3>();
  return m;
}
/// Inverse of hat4 on matrices of the form [[skew, v], [0, 0]].
inline Vec6 vee4(const Mat4& m) {
  Vec6 xi;
  xi << unskew(m.topLeftCorner<3, 3>()), m.topRightCorner<3, 1>();
  return xi;
}
/// The homogeneous matrix [[R, r], [0, 1]].
inline Mat4 homogeneous(const Mat3& rot, const Vec3& r) {
  Mat4 m = Mat4::Identity();
  m.topLeftCorner<3, 3>() = rot;
  m.topRightCorner<3, 1>() = r;
  return m;
}

/// Eigen's matrix exponential and logarithm, compiled once for the sizes the tests use
/// (tests/support/matrix_lie.cpp): each size costs a unit seconds to compile.
Mat3 expm(const Mat3& a);
Mat4 expm(const Mat4& a);
Mat6 expm(const Mat6& a);
Mat7 expm(const Mat7& a);
Mat3 logm(const Mat3& a);

/// dexp on so(3) by Richardson-extrapolated central differences of Eigen's matrix exponential.
inline Vec3 dexp_so3_fd(const Vec3& u, const Vec3& v) {
  const Mat3 inv = expm(skew(-u));
  const Mat3 d = richardson_derivative([&](double e) { return Mat3(expm(skew(u + e * v))); });
  return unskew(d * inv);
}
/// dexp on se(3) likewise, with 4x4 exponentials.
inline Vec6 dexp_se3_fd(const Vec6& x, const Vec6& y) {
  const Mat4 inv = expm(Mat4(-hat4(x)));
  const Mat4 d = richardson_derivative([&](double e) { return Mat4(expm(hat4(x + e * y))); });
  return vee4(d * inv);
}
/// The 6x6 matrix of dexp_x by finite differences (columns dexp_x(e_i)).
inline Mat6 dexp_se3_fd_matrix(const Vec6& x) {
  Mat6 m;
  for (int i = 0; i < 6; ++i) m.col(i) = dexp_se3_fd(x, Vec6::Unit(i));
  return m;
}

}  // namespace geomint::testing
