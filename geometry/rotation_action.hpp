#pragma once
// SO(3) acting on R^3 by rotation, y -> R y, as a Lie group action for the integrators of
// Celledoni et al.: the algebra so(3) ~ R^3 (hat map), exp by Rodrigues, the exact dexpinv of
// Section 2.2 and its series. Its orbits are the spheres |y| = const, the coadjoint orbits on
// which the body angular momentum of a free rigid body moves.
//
// Each group is a class template LazyX with one instance, X = LazyX<>, so that its members are
// compiled only where they are used: geometry/so3.hpp says why.

#include <Eigen/Core>

#include "geometry/so3.hpp"

namespace geomint {

template <class = void>
struct LazyRotationAction {
  using Point = Eigen::Vector3d;
  using Algebra = Eigen::Vector3d;  // so(3)

  /// y <- exp(hat(xi)) y.
  static void exp_act(const Algebra& xi, Point& y) { y = so3::exp(xi) * y; }
  /// dy = exp(hat(xi)) y - y, to its own relative accuracy (a compensated update's increment).
  static void exp_act_increment(const Algebra& xi, const Point& y, Point& dy) { dy = so3::expm1(xi) * y; }
  /// dy = psi_*(xi)|_y = xi x y.
  static void generator(const Algebra& xi, const Point& y, Point& dy) { dy = xi.cross(y); }
  static void bracket(const Algebra& a, const Algebra& b, Algebra& out) { out = so3::bracket(a, b); }
  static void dexpinv(const Algebra& a, const Algebra& b, Algebra& out) { out = so3::dexpinv(a, b); }
  static void dexpinv_series(const Algebra& a, const Algebra& b, int max_power, Algebra& out) {
    out = so3::dexpinv_series(a, b, max_power);
  }
  /// The chord |a - b|: a distance on the orbit for error control, equivalent to the
  /// great-circle one for nearby points.
  static double distance(const Point& a, const Point& b) { return (a - b).norm(); }
};
using RotationAction = LazyRotationAction<>;

}  // namespace geomint
