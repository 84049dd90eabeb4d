#pragma once
// so(3) and SO(3): hat/vee, exponential and logarithm, Cayley map, dexp and dexpinv.
//
// An element u of so(3) is stored as a vector in R^3 with hat(u) v = u x v.
// dexp and dexpinv are right-trivialised, as in Celledoni (6)-(8):
//   d/dt exp(u(t)) = hat(dexp_u(u'(t))) exp(u(t)).
//
// The functions are templates with no parameter of their own (`template <class = void>`), here
// and in the other geometry headers: the Eigen code in the body of a plain inline function is
// compiled in every unit that includes the header, called or not, that of a template only where
// it is called (about a second per unit; docs/build-time.md).

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>

#include "geometry/ad_series.hpp"

namespace geomint::so3 {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

template <class = void>
inline Mat3 hat(const Vec3& u) {
  Mat3 m;
  m << 0.0, -u.z(), u.y(),  //
      u.z(), 0.0, -u.x(),   //
      -u.y(), u.x(), 0.0;
  return m;
}

/// Inverse of hat; of a general matrix it takes the skew-symmetric part.
template <class = void>
inline Vec3 vee(const Mat3& a) {
  return 0.5 * Vec3(a(2, 1) - a(1, 2), a(0, 2) - a(2, 0), a(1, 0) - a(0, 1));
}

template <class = void>
inline Vec3 bracket(const Vec3& u, const Vec3& v) { return u.cross(v); }

/// sin(t)/t and (1 - cos t)/t^2, accurate for every t >= 0: all that exp needs.
struct RodriguesExpCoefficients {
  double a, b;
  explicit RodriguesExpCoefficients(double t) {
    const double t2 = t * t;
    if (t < 1e-4) {  // the omitted t^4 terms are below 1e-17
      a = 1.0 - t2 / 6.0;
      b = 0.5 - t2 / 24.0;
    } else {
      const double s = std::sin(0.5 * t);
      a = std::sin(t) / t;
      b = 2.0 * s * s / t2;  // 1 - cos t = 2 sin^2(t/2), free of cancellation
    }
  }
};

/// sin(t)/t, (1 - cos t)/t^2 and (t - sin t)/t^3, accurate for every t >= 0. exp takes
/// RodriguesExpCoefficients instead: where the compiler does not inline this constructor
/// (its choice depends on the whole unit), c's series would be computed for nothing.
struct RodriguesCoefficients : RodriguesExpCoefficients {
  double c;
  explicit RodriguesCoefficients(double t) : RodriguesExpCoefficients(t) {
    const double t2 = t * t;
    if (t < 1.0) {  // t - sin t cancels: sum_k (-t^2)^k / (2k+3)!, to below 1e-19 relative
      c = 0.0;
      double term = 1.0 / 6.0;
      for (int k = 0; k < 9; ++k) {
        c += term;
        term *= -t2 / ((2.0 * k + 4.0) * (2.0 * k + 5.0));
      }
    } else {
      c = (t - std::sin(t)) / (t2 * t);
    }
  }
};

/// Rodrigues' formula exp(hat u) = I + a hat(u) + b hat(u)^2.
template <class = void>
inline Mat3 exp(const Vec3& u) {
  const RodriguesExpCoefficients k(u.norm());
  const Mat3 u_hat = hat(u);
  return Mat3::Identity() + k.a * u_hat + k.b * u_hat * u_hat;
}

/// exp(hat u) - I = a hat(u) + b hat(u)^2, formed without I: an O(|u|) increment that keeps its
/// relative accuracy, for a compensated update (integrators/compensated_sum.hpp), where exp(u) - I
/// would lose all but |u| of it to the cancellation against I.
template <class = void>
inline Mat3 expm1(const Vec3& u) {
  const RodriguesExpCoefficients k(u.norm());
  const Mat3 u_hat = hat(u);
  return k.a * u_hat + k.b * u_hat * u_hat;
}

/// The left Jacobian J(u) = I + b hat(u) + c hat(u)^2 (the translation part of exp on SE(3)).
template <class = void>
inline Mat3 left_jacobian(const Vec3& u) {
  const RodriguesCoefficients k(u.norm());
  const Mat3 u_hat = hat(u);
  return Mat3::Identity() + k.b * u_hat + k.c * u_hat * u_hat;
}

/// Principal logarithm: the u with |u| <= pi and exp(u) = R. At angle pi the sign of the
/// axis is not determined by R; the axis is returned with its largest component positive.
template <class = void>
inline Vec3 log(const Mat3& rot) {
  const Vec3 s = vee(rot);  // sin(theta) n
  const double c = 0.5 * (rot.trace() - 1.0);
  const double sin_t = s.norm();
  const double theta = std::atan2(sin_t, c);
  if (theta < 1e-4) return (1.0 + theta * theta / 6.0) * s;  // theta/sin(theta); omitted < 1e-17
  if (theta < 3.0) return (theta / sin_t) * s;
  // Near pi, sin(theta) carries no precision: read the axis off the symmetric part,
  // (R + R^T)/2 - cos(theta) I = (1 - cos(theta)) n n^T, then fix the sign from s.
  const Mat3 sym = 0.5 * (rot + rot.transpose()) - c * Mat3::Identity();
  Eigen::Index k = 0;
  sym.diagonal().maxCoeff(&k);
  Vec3 n = sym.col(k) / std::sqrt(sym(k, k) * (1.0 - c));
  n.normalize();
  if (n.dot(s) < 0.0 || (sin_t == 0.0 && n.maxCoeff() < -n.minCoeff())) n = -n;
  return theta * n;
}

/// The rotation nearest to a in the Frobenius norm: U V^T from a = U S V^T, with the sign of
/// the last singular pair flipped if that has determinant -1 (the orthogonal projection onto
/// SO(3) of a matrix near it).
Mat3 nearest_rotation(const Mat3& a);  // geometry/so3.cpp: an SVD, compiled once

/// Cayley map of LLM Section 3.3: F = (I + hat f)(I - hat f)^{-1}
///   = ((1 - f.f) I + 2 f f^T + 2 hat f) / (1 + f.f), a rotation by 2 atan|f| about f.
template <class = void>
inline Mat3 cayley(const Vec3& f) {
  const double ff = f.squaredNorm();
  return ((1.0 - ff) * Mat3::Identity() + 2.0 * f * f.transpose() + 2.0 * hat(f)) / (1.0 + ff);
}

/// dexp_u(v) = v + (1 - cos a)/a^2 u x v + (a - sin a)/a^3 u x (u x v), a = |u|  (Celledoni (7)).
template <class = void>
inline Vec3 dexp(const Vec3& u, const Vec3& v) {
  const RodriguesCoefficients k(u.norm());
  const Vec3 uv = u.cross(v);
  return v + k.b * uv + k.c * u.cross(uv);
}

/// Exact inverse (Celledoni Section 2.2):
///   dexpinv_u(v) = v - 1/2 u x v + a^{-2} (1 - a/2 cot(a/2)) u x (u x v),  a = |u| < 2 pi.
template <class = void>
inline Vec3 dexpinv(const Vec3& u, const Vec3& v) {
  const Vec3 uv = u.cross(v);
  return v - 0.5 * uv + dexpinv_g2(u.norm()) * u.cross(uv);
}

/// The series (8) truncated after ad_u^k, k = `max_power`: sum_{j<=k} B_j/j! ad_u^j v.
template <class = void>
inline Vec3 dexpinv_series(const Vec3& u, const Vec3& v, int max_power) {
  return dexpinv_series_generic(u, v, max_power, [](const Vec3& x, const Vec3& y) {
    return bracket(x, y);
  });
}

}  // namespace geomint::so3
