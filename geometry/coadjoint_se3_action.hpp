#pragma once
// SE(3) acting on se(3)* by the coadjoint action, as a Lie group action for the integrators of
// Celledoni et al. (Section 3.3: Lie group methods that preserve coadjoint orbits; Section
// 3.4.2: the heavy top on se(3)*).
//
// A point of se(3)* is mu = (Pi, Gamma) in R^6 (Celledoni 3.4.2), paired with xi = (u, v) in
// se(3) (geometry/se3.hpp's order: angular part first) by <mu, xi> = Pi . u + Gamma . v. A group
// element g = (R, r) acts by
//   g . (Pi, Gamma) = Ad*_{g^{-1}} (Pi, Gamma) = (R Pi + r x R Gamma, R Gamma),
// with Celledoni's Ad*_{(g,u)} (Pi, Gamma) = (g^{-1} (Pi - u x Gamma), g^{-1} Gamma); it is a
// left action for se3.hpp's product (R1, r1)(R2, r2) = (R1 R2, r1 + R1 r2), and the same as
// se3::Ad_star (<g . mu, Ad_g xi> = <mu, xi>). Its infinitesimal generator is
//   psi_*(u, v)|_(Pi, Gamma) = (u x Pi + v x Gamma, u x Gamma) = -ad*_(u, v) (Pi, Gamma),
// Celledoni's ad*_{(xi,u)} (Pi, Gamma) = (-xi x Pi - u x Gamma, -xi x Gamma) with the sign
// reversed. Its orbits are the coadjoint orbits: |Gamma|^2 and Pi . Gamma are constant on them
// (the Casimirs of se(3)*), so a Lie group method built on it keeps both up to round-off.
//
// Each group is a class template LazyX with one instance, X = LazyX<>, so that its members are
// compiled only where they are used: geometry/so3.hpp says why.

#include <Eigen/Core>

#include "geometry/se3.hpp"

namespace geomint {

template <class = void>
struct LazyCoadjointSE3Action {
  using Vec3 = Eigen::Vector3d;
  using Point = Eigen::Matrix<double, 6, 1>;    // (Pi, Gamma) in se(3)*
  using Algebra = Eigen::Matrix<double, 6, 1>;  // (u, v) in se(3), geometry/se3.hpp's order

  /// y <- g . y = (R Pi + r x R Gamma, R Gamma).
  static void act(const se3::Element& g, Point& y) {
    const Vec3 r_gamma = g.rotation * y.tail<3>();
    y.head<3>() = g.rotation * y.head<3>() + g.translation.cross(r_gamma);
    y.tail<3>() = r_gamma;
  }
  /// y <- exp(xi) . y, with se3::exp.
  static void exp_act(const Algebra& xi, Point& y) { act(se3::exp(xi), y); }
  /// dy = psi_*(xi)|_y = (u x Pi + v x Gamma, u x Gamma).
  static void generator(const Algebra& xi, const Point& y, Point& dy) {
    const Vec3 u = xi.head<3>(), v = xi.tail<3>();
    const Vec3 pi = y.head<3>(), gamma = y.tail<3>();
    dy.head<3>() = u.cross(pi) + v.cross(gamma);
    dy.tail<3>() = u.cross(gamma);
  }
  static void bracket(const Algebra& a, const Algebra& b, Algebra& out) {
    out = se3::bracket(a, b);
  }
  static void dexpinv(const Algebra& a, const Algebra& b, Algebra& out) {
    out = se3::dexpinv(a, b);
  }
  static void dexpinv_series(const Algebra& a, const Algebra& b, int max_power, Algebra& out) {
    out = se3::dexpinv_series(a, b, max_power);
  }
  /// The Euclidean distance in R^6 (for error control; the orbits are embedded in it).
  static double distance(const Point& a, const Point& b) { return (a - b).norm(); }
};
using CoadjointSE3Action = LazyCoadjointSE3Action<>;

}  // namespace geomint
