#pragma once
// SO(3) x R^3 acting on SO(3) x R^3 by (B, b) . (Q, p) = (B Q, p + b): the rotation from the
// left on the attitude, a translation on the vector. The state is stored as one vector of R^12,
// Q column-major then p (models/state_blocks.hpp); the algebra element is (eta, v) in R^6, the
// rotation's part first. exp is Rodrigues' on eta and the identity map on v; dexpinv, the
// bracket and the dexpinv series act on eta alone (R^3 is abelian). Celledoni's heavy top
// (21)-(22) is a Lie group ODE under it, with the spatial momentum as p.
//
// Each group is a class template LazyX with one instance, X = LazyX<>, so that its members are
// compiled only where they are used: geometry/so3.hpp says why.

#include <Eigen/Core>

#include "geometry/so3.hpp"

namespace geomint {

template <class = void>
struct LazyRotationTranslationAction {
  using Point = Eigen::Matrix<double, 12, 1>;
  using Algebra = Eigen::Matrix<double, 6, 1>;
  using Vec3 = Eigen::Vector3d;
  using Mat3 = Eigen::Matrix3d;

  static Eigen::Map<Mat3> rotation(Point& y) { return Eigen::Map<Mat3>(y.data()); }
  static Eigen::Map<const Mat3> rotation(const Point& y) { return Eigen::Map<const Mat3>(y.data()); }

  static void exp_act(const Algebra& xi, Point& y) {
    rotation(y) = so3::exp(xi.head<3>()) * rotation(y);
    y.tail<3>() += xi.tail<3>();
  }
  /// dy = exp((eta, v)) . y - y = ((exp(hat eta) - I) Q, v), to its own relative accuracy.
  static void exp_act_increment(const Algebra& xi, const Point& y, Point& dy) {
    Eigen::Map<Mat3>(dy.data()) = so3::expm1(xi.head<3>()) * rotation(y);
    dy.tail<3>() = xi.tail<3>();
  }
  /// psi_*((eta, v))|_(Q, p) = (hat(eta) Q, v).
  static void generator(const Algebra& xi, const Point& y, Point& dy) {
    Eigen::Map<Mat3>(dy.data()) = so3::hat(xi.head<3>()) * rotation(y);
    dy.tail<3>() = xi.tail<3>();
  }
  static void bracket(const Algebra& a, const Algebra& b, Algebra& out) {
    out << so3::bracket(a.head<3>(), b.head<3>()), Vec3::Zero();
  }
  static void dexpinv(const Algebra& a, const Algebra& b, Algebra& out) {
    out << so3::dexpinv(a.head<3>(), b.head<3>()), b.tail<3>();
  }
  static void dexpinv_series(const Algebra& a, const Algebra& b, int max_power, Algebra& out) {
    out << so3::dexpinv_series(a.head<3>(), b.head<3>(), max_power), b.tail<3>();
  }
  /// Euclidean in R^12: equivalent to the product of the geodesic distances for nearby points,
  /// which is all error control needs.
  static double distance(const Point& a, const Point& b) { return (a - b).norm(); }
};
using RotationTranslationAction = LazyRotationTranslationAction<>;

}  // namespace geomint
