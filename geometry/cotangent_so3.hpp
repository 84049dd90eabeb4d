#pragma once
// T*G for G = SO(3) and G = SO(3) x R^3, right-trivialised as the semidirect products
// G ⋉ g* of Celledoni Section 3.1, with what the symplectic Lie group integrators (15)-(17)
// need: the left action of exp on G, Ad* and dexp* on g*, and the symplectic form (13).
//
// Conventions (Celledoni (5), (7), (10); see ../shared/seeds/NOTES-celledoni-sections-3-and-6.md):
//   so(3) ~ so(3)* ~ R^3, <mu, xi> = mu . xi;  Ad_g xi = g xi, so Ad*_g mu = g^T mu;
//   ad_xi eta = xi x eta, so ad*_xi mu = -xi x mu;  dexp*_xi = (dexp_xi)^T = dexp_{-xi} on so(3),
// hence the identity dexp*_{-xi} = dexp_xi that (15) relies on. On the abelian factor R^3 of
// SO(3) x R^3 the group acts by translation and Ad*, ad* and dexp* are the identity.
//
// Each group is a class template LazyX with one instance, X = LazyX<>, so that its members are
// compiled only where they are used: geometry/so3.hpp says why.

#include <Eigen/Core>

#include "geometry/so3.hpp"

namespace geomint {

/// SO(3) ⋉ so(3)*: a point (g, mu), g in SO(3) and mu the spatial (right-trivialised) momentum.
template <class = void>
struct LazyCotangentSO3 {
  using Vec3 = Eigen::Vector3d;
  using Mat3 = Eigen::Matrix3d;
  using Group = Mat3;
  using Algebra = Vec3;  // so(3), and so(3)* alike
  static constexpr int kDim = 3;

  struct Point {
    Group g = Mat3::Identity();
    Algebra mu = Vec3::Zero();
  };

  /// Celledoni (11): (g1, mu1) . (g2, mu2) = (g1 g2, mu1 + Ad*_{g1^{-1}} mu2).
  static Point product(const Point& a, const Point& b) { return {a.g * b.g, a.mu + a.g * b.mu}; }
  static Point inverse(const Point& a) { return {a.g.transpose(), -(a.g.transpose() * a.mu)}; }

  static Algebra Ad_star(const Group& g, const Algebra& mu) { return g.transpose() * mu; }  // (10)
  static Algebra ad_star(const Algebra& xi, const Algebra& mu) { return -xi.cross(mu); }
  static Algebra bracket(const Algebra& a, const Algebra& b) { return a.cross(b); }
  /// dexp*_xi mu = (dexp_xi)^T mu = dexp_{-xi} mu.
  static Algebra dexp_star(const Algebra& xi, const Algebra& mu) { return so3::dexp(-xi, mu); }

  /// g <- exp(xi) g.
  static void exp_left(const Algebra& xi, Group& g) { g = so3::exp(xi) * g; }
  /// Ad*_{exp(xi)} mu = exp(xi)^T mu = exp(-xi) mu.
  static Algebra Ad_star_exp(const Algebra& xi, const Algebra& mu) { return so3::exp(-xi) * mu; }
  /// exp(xi) g - g and Ad*_{exp(xi)} mu - mu, to their own relative accuracy: the increments of a
  /// compensated update (integrators/compensated_sum.hpp).
  static Group exp_left_increment(const Algebra& xi, const Group& g) { return so3::expm1(xi) * g; }
  static Algebra Ad_star_exp_increment(const Algebra& xi, const Algebra& mu) { return so3::expm1(-xi) * mu; }
  /// The xi with exp(xi) a = b (|xi| < pi): how a tangent curve through a is read off.
  static Algebra log_right_ratio(const Group& a, const Group& b) {
    return so3::log(b * a.transpose());
  }
};
using CotangentSO3 = LazyCotangentSO3<>;

/// (SO(3) x R^3) ⋉ (so(3) x R^3)*: a point ((R, x), (mu, p)); the algebra element is (eta, v)
/// in R^6, the rotation's part first (Celledoni Section 3.4.3, the group S of the quadratic
/// heavy top).
template <class = void>
struct LazyCotangentSO3xR3 {
  using Vec3 = Eigen::Vector3d;
  using Vec6 = Eigen::Matrix<double, 6, 1>;
  using Mat3 = Eigen::Matrix3d;
  struct Group {
    Mat3 rotation = Mat3::Identity();
    Vec3 translation = Vec3::Zero();
  };
  using Algebra = Vec6;
  static constexpr int kDim = 6;

  struct Point {
    Group g;
    Algebra mu = Vec6::Zero();
  };

  static Vec6 join(const Vec3& a, const Vec3& b) {
    Vec6 out;
    out << a, b;
    return out;
  }

  static Point product(const Point& a, const Point& b) {
    return {{a.g.rotation * b.g.rotation, a.g.translation + b.g.translation},
            a.mu + join(a.g.rotation * b.mu.template head<3>(), b.mu.template tail<3>())};
  }
  static Point inverse(const Point& a) {
    const Mat3 rt = a.g.rotation.transpose();
    return {{rt, -a.g.translation}, -join(rt * a.mu.template head<3>(), a.mu.template tail<3>())};
  }

  static Algebra Ad_star(const Group& g, const Algebra& mu) {
    return join(g.rotation.transpose() * mu.head<3>(), mu.tail<3>());
  }
  static Algebra ad_star(const Algebra& xi, const Algebra& mu) {
    return join(-xi.head<3>().cross(mu.head<3>()), Vec3::Zero());
  }
  static Algebra bracket(const Algebra& a, const Algebra& b) {
    return join(a.head<3>().cross(b.head<3>()), Vec3::Zero());
  }
  static Algebra dexp_star(const Algebra& xi, const Algebra& mu) {
    return join(so3::dexp(-xi.head<3>(), mu.head<3>()), mu.tail<3>());
  }

  static void exp_left(const Algebra& xi, Group& g) {
    g.rotation = so3::exp(xi.head<3>()) * g.rotation;
    g.translation += xi.tail<3>();
  }
  static Algebra Ad_star_exp(const Algebra& xi, const Algebra& mu) {
    return join(so3::exp(-xi.head<3>()) * mu.head<3>(), mu.tail<3>());
  }
  static Algebra log_right_ratio(const Group& a, const Group& b) {
    return join(so3::log(b.rotation * a.rotation.transpose()), b.translation - a.translation);
  }
};
using CotangentSO3xR3 = LazyCotangentSO3xR3<>;

/// The right-trivialised symplectic form (13) at (g, mu), on tangent vectors written
/// (R_g* xi, delta nu):
///   omega((xi1, dnu1), (xi2, dnu2)) = <dnu2, xi1> - <dnu1, xi2> - <mu, [xi1, xi2]>.
/// (The extraction of (13) prints "+ -" across a line break; the sign is "-": see the notes.)
template <class C>
double cotangent_symplectic_form(const typename C::Algebra& mu, const typename C::Algebra& xi1,
                                 const typename C::Algebra& dnu1, const typename C::Algebra& xi2,
                                 const typename C::Algebra& dnu2) {
  return dnu2.dot(xi1) - dnu1.dot(xi2) - mu.dot(C::bracket(xi1, xi2));
}

}  // namespace geomint
