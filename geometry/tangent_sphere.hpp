#pragma once
// TS^2 and (TS^2)^n, and the action of SE(3)^n on them (Celledoni Section 5.1).
//
// A point of (TS^2)^n is stored as one vector of R^{6n}, positions first:
//   y = [q_1, ..., q_n, w_1, ..., w_n],  |q_i| = 1,  q_i . w_i = 0,
// which is also the layout of the ambient ODE state and of the `run` CSV columns.
// An element of se(3)^n is stored as xi = [u_1, v_1, ..., u_n, v_n], Celledoni's order.
//
// Templates with no parameter of their own, compiled only where used: geometry/so3.hpp says why.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>

#include "geometry/se3.hpp"
#include "geometry/so3.hpp"

namespace geomint {

namespace ts2 {
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;

/// psi((A, a), (q, w)) = (A q, A w + hat(a) A q).
template <class = void>
inline void act(const se3::Element& g, Vec3& q, Vec3& w) {
  const Vec3 aq = g.rotation * q;
  w = g.rotation * w + g.translation.cross(aq);
  q = aq;
}

/// The infinitesimal generator psi_*((u, v))|_(q, w) = (hat(u) q, hat(u) w + hat(v) q).
template <class = void>
inline void generator(const Vec6& xi, const Vec3& q, const Vec3& w, Vec3& dq, Vec3& dw) {
  const Vec3 u = xi.head<3>(), v = xi.tail<3>();
  dq = u.cross(q);
  dw = u.cross(w) + v.cross(q);
}
}  // namespace ts2

/// (TS^2)^N with N spheres known at compile time, or Eigen::Dynamic.
template <int N>
struct TangentSphereProduct {
  static constexpr int kDim = N == Eigen::Dynamic ? Eigen::Dynamic : 6 * N;
  using Point = Eigen::Matrix<double, kDim, 1>;
  using Algebra = Eigen::Matrix<double, kDim, 1>;  // se(3)^N
  using Vec3 = Eigen::Vector3d;
  using Vec6 = Eigen::Matrix<double, 6, 1>;

  static Eigen::Index count(const Point& y) { return y.size() / 6; }

  template <class V>
  static auto q(V& y, Eigen::Index i) {
    return y.template segment<3>(3 * i);
  }
  template <class V>
  static auto w(V& y, Eigen::Index i) {
    return y.template segment<3>(3 * (y.size() / 6 + i));
  }

  /// y <- exp(xi) . y, component-wise.
  static void exp_act(const Algebra& xi, Point& y) {
    const Eigen::Index n = count(y);
    for (Eigen::Index i = 0; i < n; ++i) {
      Vec3 qi = q(y, i), wi = w(y, i);
      ts2::act(se3::exp(xi.template segment<6>(6 * i)), qi, wi);
      q(y, i) = qi;
      w(y, i) = wi;
    }
  }

  /// dy = exp(xi) . y - y, to its own relative accuracy (a compensated update's increment): with
  /// exp(u_i, v_i) = (R, r), R = I + E, psi gives dq = E q and dw = E w + r x (q + dq).
  static void exp_act_increment(const Algebra& xi, const Point& y, Point& dy) {
    dy.resize(y.size());
    for (Eigen::Index i = 0; i < count(y); ++i) {
      const Vec3 u = xi.template segment<3>(6 * i), v = xi.template segment<3>(6 * i + 3);
      const Eigen::Matrix3d e = so3::expm1(u);
      const Vec3 qi = q(y, i), dq = e * qi;
      // r = J(u) v = v + b u x v + c u x (u x v), not so3::left_jacobian(u) * v: a second caller
      // of left_jacobian and GCC no longer inlined it into exp_act above, which cost every Lie
      // group method on these models 4 to 20 % more instructions a step (perf gate, 2026-11-28).
      const so3::RodriguesCoefficients k(u.norm());
      const Vec3 uv = u.cross(v), r = v + k.b * uv + k.c * u.cross(uv);
      q(dy, i) = dq;
      w(dy, i) = e * w(y, i) + r.cross(qi + dq);
    }
  }
  /// dy = psi_*(xi)|_y.
  static void generator(const Algebra& xi, const Point& y, Point& dy) {
    // Size the output first: for N = Eigen::Dynamic an empty (or stale) dy was written out of
    // bounds (segfault in Release), and w(dy, i) took its layout from dy's own size.
    dy.resize(y.size());
    const Eigen::Index n = count(y);
    for (Eigen::Index i = 0; i < n; ++i) {
      Vec3 dq, dw;
      ts2::generator(xi.template segment<6>(6 * i), q(y, i), w(y, i), dq, dw);
      q(dy, i) = dq;
      w(dy, i) = dw;
    }
  }

  static void bracket(const Algebra& a, const Algebra& b, Algebra& out) {
    out.resize(a.size());  // for N = Eigen::Dynamic an unsized out was written out of bounds
    for (Eigen::Index i = 0; i < a.size() / 6; ++i)
      out.template segment<6>(6 * i) =
          se3::bracket(a.template segment<6>(6 * i), b.template segment<6>(6 * i));
  }

  /// Exact dexpinv, component-wise (Celledoni Section 2.3).
  static void dexpinv(const Algebra& a, const Algebra& b, Algebra& out) {
    out.resize(a.size());  // for N = Eigen::Dynamic an unsized out was written out of bounds
    for (Eigen::Index i = 0; i < a.size() / 6; ++i)
      out.template segment<6>(6 * i) =
          se3::dexpinv(a.template segment<6>(6 * i), b.template segment<6>(6 * i));
  }

  /// Truncated dexpinv series (8), component-wise.
  static void dexpinv_series(const Algebra& a, const Algebra& b, int max_power, Algebra& out) {
    out.resize(a.size());  // for N = Eigen::Dynamic an unsized out was written out of bounds
    for (Eigen::Index i = 0; i < a.size() / 6; ++i)
      out.template segment<6>(6 * i) = se3::dexpinv_series(a.template segment<6>(6 * i),
                                                           b.template segment<6>(6 * i), max_power);
  }

  /// Largest |‖q_i‖ - 1| and |q_i . w_i|: how far y is from (TS^2)^N; NaN for a state that is
  /// not finite (a max over NaN would silently skip it).
  static double unit_length_defect(const Point& y) {
    if (!y.allFinite()) return std::numeric_limits<double>::quiet_NaN();
    double d = 0.0;
    for (Eigen::Index i = 0; i < count(y); ++i) d = std::max(d, std::abs(q(y, i).norm() - 1.0));
    return d;
  }
  static double tangency_defect(const Point& y) {
    if (!y.allFinite()) return std::numeric_limits<double>::quiet_NaN();
    double d = 0.0;
    for (Eigen::Index i = 0; i < count(y); ++i) d = std::max(d, std::abs(q(y, i).dot(w(y, i))));
    return d;
  }

  /// A distance on (TS^2)^N for error control (Celledoni Section 4.2): d = sqrt(sum_i d_i^2),
  ///   d_i = sqrt(theta_i^2 + |w_i - R_i w~_i|^2),
  /// theta_i the angle between q_i and q~_i (their great-circle distance on S^2) and R_i the
  /// rotation about q~_i x q_i taking q~_i to q_i, which is the parallel transport from
  /// T_{q~_i}S^2 to T_{q_i}S^2 along that great circle. d_i is the length, in the Sasaki metric
  /// of TS^2, of the curve that follows the great circle while the transported velocity moves
  /// linearly from R_i w~_i to w_i: an upper bound of the Sasaki distance, equal to it to leading
  /// order for nearby points. It is symmetric, zero only for equal points, and invariant under
  /// rotations of all the q_i, w_i at once. For antipodal q_i, q~_i (no unique great circle)
  /// d_i = sqrt(pi^2 + (|w_i| + |w~_i|)^2), the largest value any transport could give.
  static double distance(const Point& a, const Point& b) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < count(a); ++i) {
      const Vec3 qa = q(a, i), qb = q(b, i), wa = w(a, i), wb = w(b, i);
      const Vec3 s = qb.cross(qa);  // sin(theta) times the axis
      const double c = qb.dot(qa);  // cos(theta)
      const double theta = std::atan2(s.norm(), c);
      if (1.0 + c <= 1e-12) {
        const double v = wa.norm() + wb.norm();
        sum += theta * theta + v * v;
        continue;
      }
      // R v = c v + s x v + (s . v) s / (1 + c): the rotation taking qb to qa.
      const Vec3 moved = c * wb + s.cross(wb) + (s.dot(wb) / (1.0 + c)) * s;
      sum += theta * theta + (wa - moved).squaredNorm();
    }
    return std::sqrt(sum);
  }

  /// Nearest point of (TS^2)^N in the sense used by reprojection: q_i normalised,
  /// w_i projected onto the tangent plane of the normalised q_i.
  static void project(Point& y) {
    for (Eigen::Index i = 0; i < count(y); ++i) {
      const Vec3 qi = q(y, i).normalized();
      q(y, i) = qi;
      w(y, i) -= qi.dot(w(y, i)) * qi;
    }
  }
};

}  // namespace geomint
