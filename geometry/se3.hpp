#pragma once
// se(3) and SE(3).
//
// A group element is a pair (R, r) acting on R^3 by x -> R x + r, so that
// (R1, r1)(R2, r2) = (R1 R2, r1 + R1 r2). A Lie algebra element is xi = (u, v) in R^6:
// u is the angular part (hat u in so(3)), v the translational part, as in Celledoni
// Section 2.3 where (A, a) plays the role of (u, v).
//
// Templates with no parameter of their own, compiled only where used: geometry/so3.hpp says why.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include "geometry/ad_series.hpp"
#include "geometry/so3.hpp"

namespace geomint::se3 {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat4 = Eigen::Matrix4d;

template <class = void>
inline Vec6 make(const Vec3& u, const Vec3& v) {
  Vec6 xi;
  xi << u, v;
  return xi;
}

struct Element {
  Mat3 rotation = Mat3::Identity();
  Vec3 translation = Vec3::Zero();

  static Element identity() { return {}; }
  template <class = void>
  Element operator*(const Element& b) const {
    return {rotation * b.rotation, translation + rotation * b.translation};
  }
  template <class = void>
  Element inverse() const {
    const Mat3 rt = rotation.transpose();
    return {rt, -(rt * translation)};
  }
  /// The 4x4 homogeneous matrix [[R, r], [0, 1]].
  template <class = void>
  Mat4 matrix() const {
    Mat4 m = Mat4::Identity();
    m.topLeftCorner<3, 3>() = rotation;
    m.topRightCorner<3, 1>() = translation;
    return m;
  }
};

/// The 4x4 matrix [[hat u, v], [0, 0]] of xi = (u, v).
template <class = void>
inline Mat4 hat(const Vec6& xi) {
  Mat4 m = Mat4::Zero();
  m.topLeftCorner<3, 3>() = so3::hat(xi.head<3>());
  m.topRightCorner<3, 1>() = xi.tail<3>();
  return m;
}

/// exp(u, v) = (exp(hat u), J(u) v) with J the left Jacobian of SO(3).
template <class = void>
inline Element exp(const Vec6& xi) {
  const Vec3 u = xi.head<3>();
  return {so3::exp(u), so3::left_jacobian(u) * xi.tail<3>()};
}

/// Principal logarithm: the xi = (u, v) with exp(xi) = g and |u| <= pi (at |u| = pi the sign
/// of u is so3::log's convention). The translation r = J(u) v, and the left Jacobian J(u) is the
/// matrix of dexp_u on so(3), so v = dexpinv_u(r).
template <class = void>
inline Vec6 log(const Element& g) {
  const Vec3 u = so3::log(g.rotation);
  return make(u, so3::dexpinv(u, g.translation));
}

/// The Lie bracket [(A, a), (B, b)] = (A x B, A x b + a x B).
template <class = void>
inline Vec6 bracket(const Vec6& x, const Vec6& y) {
  const Vec3 a_rot = x.head<3>(), a_tr = x.tail<3>();
  const Vec3 b_rot = y.head<3>(), b_tr = y.tail<3>();
  return make(a_rot.cross(b_rot), a_rot.cross(b_tr) + a_tr.cross(b_rot));
}

/// ad_x(y) = [x, y].
template <class = void>
inline Vec6 ad(const Vec6& x, const Vec6& y) { return bracket(x, y); }

/// Ad_{(R, r)}(u, v) = (R u, R v + hat(r) R u)  (Celledoni Section 5.1).
template <class = void>
inline Vec6 Ad(const Element& g, const Vec6& xi) {
  const Vec3 ru = g.rotation * xi.head<3>();
  return make(ru, g.rotation * xi.tail<3>() + g.translation.cross(ru));
}

/// Coadjoint action on se(3)* = R^6 paired with se(3) by the dot product:
/// <Ad*_g mu, xi> = <mu, Ad_{g^{-1}} xi>, i.e. Ad*_g mu = Ad_{g^{-1}}^T mu.
template <class = void>
inline Vec6 Ad_star(const Element& g, const Vec6& mu) {
  const Element gi = g.inverse();
  const Vec3 m_rot = mu.head<3>(), m_tr = mu.tail<3>();
  // Ad_{gi} = [[Ri, 0], [hat(ri) Ri, Ri]], so its transpose maps (m_rot, m_tr) to
  // (Ri^T m_rot + Ri^T hat(ri)^T m_tr, Ri^T m_tr).
  const Mat3 rit = gi.rotation.transpose();
  return make(rit * (m_rot - gi.translation.cross(m_tr)), rit * m_tr);
}

/// phi(ad_(A,a))(B,b) for an analytic phi, in the closed form of Celledoni Section 2.3:
///   C = phi(0) B + g1 A x B + g2 A x (A x B)
///   c = phi(0) b + g1 (a x B + A x b) + rho g1~ A x B + rho g2~ A x (A x B)
///       + g2 (a x (A x B) + A x (a x B) + A x (A x b)),   rho = A.a, alpha = |A|,
/// with the scalars evaluated at alpha.
struct AdFunctionCoefficients {
  double phi0, g1, g1_tilde, g2, g2_tilde;
};

template <class = void>
inline Vec6 apply_ad_function(const AdFunctionCoefficients& k, const Vec6& x, const Vec6& y) {
  const Vec3 A = x.head<3>(), a = x.tail<3>();
  const Vec3 B = y.head<3>(), b = y.tail<3>();
  const double rho = A.dot(a);
  const Vec3 AxB = A.cross(B);
  const Vec3 AxAxB = A.cross(AxB);
  const Vec3 C = k.phi0 * B + k.g1 * AxB + k.g2 * AxAxB;
  const Vec3 c = k.phi0 * b + k.g1 * (a.cross(B) + A.cross(b)) + rho * k.g1_tilde * AxB +
                 rho * k.g2_tilde * AxAxB +
                 k.g2 * (a.cross(AxB) + A.cross(a.cross(B)) + A.cross(A.cross(b)));
  return make(C, c);
}

/// Right-trivialised dexp on se(3), d/dt exp(x(t)) = hat(dexp_x(x')) exp(x)  (Celledoni (7)),
/// in the closed form of Section 2.3 with phi(z) = (e^z - 1) / z: phi(0) = 1,
/// g1 = (1 - cos a)/a^2 and g2 = (a - sin a)/a^3 (the Rodrigues coefficients b and c), and
/// g1~, g2~ from ad_series.hpp.
template <class = void>
inline Vec6 dexp(const Vec6& x, const Vec6& y) {
  const double alpha = x.head<3>().norm();
  const so3::RodriguesCoefficients k(alpha);
  return apply_ad_function({1.0, k.b, dexp_g1_tilde(alpha), k.c, dexp_g2_tilde(alpha)}, x, y);
}

/// Exact dexpinv on se(3) (Celledoni Section 2.3) with phi(z) = z / (e^z - 1):
/// g1 = -1/2, g1~ = 0, g2 = (1 - (z/2) cot(z/2)) / z^2, g2~ = g2'(z) / z, phi(0) = 1.
template <class = void>
inline Vec6 dexpinv(const Vec6& x, const Vec6& y) {
  const double alpha = x.head<3>().norm();
  return apply_ad_function({1.0, -0.5, 0.0, dexpinv_g2(alpha), dexpinv_g2_tilde(alpha)}, x, y);
}

/// The series (8) truncated after ad^max_power.
template <class = void>
inline Vec6 dexpinv_series(const Vec6& x, const Vec6& y, int max_power) {
  return dexpinv_series_generic(x, y, max_power,
                                [](const Vec6& p, const Vec6& q) { return bracket(p, q); });
}

}  // namespace geomint::se3
