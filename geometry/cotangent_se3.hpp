#pragma once
// T*SE(3), right-trivialised as the semidirect product SE(3) ⋉ se(3)* of Celledoni Section 3.1,
// with the interface of CotangentSO3 (cotangent_so3.hpp, which also holds the form (13)).
//
// se(3) and se(3)* are both R^6, xi = (A, a) and mu = (m, n) with the rotational part first,
// paired by the dot product. Ad*_g is the dual of Ad_g as in (10), so Ad*_g = (Ad_g)^T and
// ad*_xi = (ad_xi)^T, as in Section 3.4.2: ad*_(A,a)(m, n) = (-A x m - a x n, -A x n).
//
// Each group is a class template LazyX with one instance, X = LazyX<>, so that its members are
// compiled only where they are used: geometry/so3.hpp says why.

#include <Eigen/Core>

#include "geometry/cotangent_so3.hpp"
#include "geometry/se3.hpp"

namespace geomint {

/// SE(3) ⋉ se(3)*: a point (g, mu), g in SE(3) and mu the spatial (right-trivialised) momentum.
template <class = void>
struct LazyCotangentSE3 {
  using Vec3 = Eigen::Vector3d;
  using Vec6 = se3::Vec6;
  using Group = se3::Element;
  using Algebra = Vec6;  // se(3), and se(3)* alike
  static constexpr int kDim = 6;

  struct Point {
    Group g;
    Algebra mu = Vec6::Zero();
  };

  /// Celledoni (11): (g1, mu1) . (g2, mu2) = (g1 g2, mu1 + Ad*_{g1^{-1}} mu2), where
  /// Ad*_{g1^{-1}} = (Ad_{g1^{-1}})^T is se3::Ad_star(g1, .) (see Ad_star).
  static Point product(const Point& a, const Point& b) {
    return {a.g * b.g, a.mu + se3::Ad_star(a.g, b.mu)};
  }
  static Point inverse(const Point& a) { return {a.g.inverse(), -Ad_star(a.g, a.mu)}; }

  /// (10): Ad*_g = (Ad_g)^T. se3::Ad_star is the left coadjoint action (Ad_{g^{-1}})^T, hence
  /// the inverse.
  static Algebra Ad_star(const Group& g, const Algebra& mu) {
    return se3::Ad_star(g.inverse(), mu);
  }
  static Algebra ad_star(const Algebra& xi, const Algebra& mu) {
    const Vec3 A = xi.head<3>(), a = xi.tail<3>();
    const Vec3 m = mu.head<3>(), n = mu.tail<3>();
    return se3::make(-(A.cross(m) + a.cross(n)), -A.cross(n));
  }
  static Algebra bracket(const Algebra& a, const Algebra& b) { return se3::bracket(a, b); }
  /// dexp*_xi mu = (dexp_xi)^T mu. The swap P(m, n) = (n, m) turns ad_xi = [[A^, 0], [a^, A^]]
  /// into its transpose: (ad_xi)^T = P ad_{-xi} P, hence (dexp_xi)^T = P dexp_{-xi} P.
  static Algebra dexp_star(const Algebra& xi, const Algebra& mu) {
    return swap_halves(se3::dexp(-xi, swap_halves(mu)));
  }

  /// g <- exp(xi) g.
  static void exp_left(const Algebra& xi, Group& g) { g = se3::exp(xi) * g; }
  /// Ad*_{exp(xi)} mu = (Ad_{exp(xi)})^T mu = se3::Ad_star(exp(-xi), mu).
  static Algebra Ad_star_exp(const Algebra& xi, const Algebra& mu) {
    return se3::Ad_star(se3::exp(-xi), mu);
  }
  /// The xi with exp(xi) a = b (rotational part of norm < pi).
  static Algebra log_right_ratio(const Group& a, const Group& b) {
    return se3::log(b * a.inverse());
  }

 private:
  static Vec6 swap_halves(const Vec6& x) { return se3::make(x.tail<3>(), x.head<3>()); }
};
using CotangentSE3 = LazyCotangentSE3<>;

}  // namespace geomint
