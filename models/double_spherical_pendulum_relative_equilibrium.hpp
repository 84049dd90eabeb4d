#pragma once
// Relative equilibria of the double spherical pendulum (NOTES-dutoit 3.4; DuToit cites
// Jalnapurkar-Marsden and Marsden-Scheurle): both links in one vertical half-plane, turning
// rigidly at a rate omega about the vertical. In the model's convention e3 points down (gravity
// along +e3), and theta_i is the signed angle of link i from e3 in that half-plane:
//   q_i = (sin th_i, 0, cos th_i) at t = 0,  r1 = l1 sin th1,  r2 = l1 sin th1 + l2 sin th2
// (r_i the signed distance of bob i from the axis). Derivation: rigid links with tensions T1,
// T2 (link i pulls its outer bob i by -T_i q_i, and link 2 pulls bob 1 by +T2 q2); each bob
// moves on a horizontal circle, its acceleration omega^2 r_i towards the axis.
//   bob 2, vertical:    0 = m2 g - T2 cos th2
//   bob 2, horizontal:  -m2 omega^2 r2 = -T2 sin th2         => omega^2 r2 = g tan th2
//   bob 1, vertical:    0 = m1 g - T1 cos th1 + T2 cos th2   => T1 cos th1 = (m1 + m2) g
//   bob 1, horizontal:  -m1 omega^2 r1 = -T1 sin th1 + T2 sin th2
//                                          => m1 omega^2 l1 sin th1 = (m1 + m2) g tan th1
//                                                                    - m2 g tan th2
// Eliminating omega^2 gives the notes' equation for th2,
//   ((m1 + m2) tan th1 - m2 tan th2)(l1 sin th1 + l2 sin th2) = m1 l1 sin th1 tan th2,
// solved here multiplied by cos th2, which makes it smooth on [-pi/2, pi/2]:
//   G(th2) = (m1 + m2)(tan th1 cos th2 r2 - l1 sin th1 sin th2) - m2 l2 sin^2 th2 = 0.
// Branches (theta1 in (0, pi/2)):
//   straight out: th2 in (th1, pi/2). G(th1) = m1 l2 sin^2 th1 > 0 and
//     G(pi/2) = -((m1 + m2) l1 sin th1 + m2 l2) < 0: a root always exists.
//   cowboy: th2 < 0 with r2 < 0, i.e. th2 in [-pi/2, thc), thc = -asin(l1 sin th1 / l2).
//     G(thc) = -m1 l1 sin th1 sin thc > 0; the root taken is the first zero of G met going down
//     from thc (the one continuing the antisymmetric normal mode at th1 -> 0). For m = l = 1
//     it meets a second root (coming in from th2 = -pi/2, omega = infinity, at
//     sin th1 = m2 l2 / ((m1 + m2) l1)) in a fold at th1 = 0.59900, beyond which there is none:
//     cowboy_branch_end(). That second root is a faster cowboy family, not offered here; it is
//     unstable over part of its range (a quartet with growth rate 3.8 1/s at th1 = 0.539).
// Both branches give omega^2 = g tan th2 / r2 > 0 when g > 0. The state turns at omega about
// e3: q_i' = omega e3 x q_i = w_i x q_i with w_i = omega (e3 - cos th_i q_i), q_i . w_i = 0.

#include <Eigen/Core>
#include <cmath>
#include <numbers>
#include <optional>

#include "models/double_spherical_pendulum.hpp"
#include "models/parameters.hpp"

namespace geomint {

enum class DspBranch { StraightOut, Cowboy };

namespace dsp_detail {

/// A zero of f in [a, b] with f(a) > 0 >= f(b), by bisection until the bracket stops shrinking.
template <class F>
double bisect(const F& f, double a, double b) {
  for (;;) {
    const double m = 0.5 * (a + b);
    if (m == a || m == b) return std::abs(f(a)) < std::abs(f(b)) ? a : b;
    (f(m) > 0.0 ? a : b) = m;
  }
}

/// The minimiser of f on [a, b] (f unimodal there), by golden-section search.
template <class F>
double golden_minimum(const F& f, double a, double b) {
  const double r = 0.5 * (std::sqrt(5.0) - 1.0);
  double x1 = b - r * (b - a), x2 = a + r * (b - a), f1 = f(x1), f2 = f(x2);
  for (int k = 0; k < 100 && std::abs(b - a) > 1e-15; ++k) {
    if (f1 < f2) {
      b = x2, x2 = x1, f2 = f1, x1 = b - r * (b - a), f1 = f(x1);
    } else {
      a = x1, x1 = x2, f1 = f2, x2 = a + r * (b - a), f2 = f(x2);
    }
  }
  return f1 < f2 ? x1 : x2;
}

/// The first zero of f met going from `from` (where f > 0) to `to`: f sampled at 1024 points;
/// a sign change is bisected, and a sampled local minimum is refined by golden section so that
/// two zeros closer than the sampling (near a fold) are not stepped over.
template <class F>
std::optional<double> first_zero(const F& f, double from, double to) {
  constexpr int kSamples = 1024;
  const auto x = [&](int k) { return from + (to - from) * k / kSamples; };
  double before = f(x(0)), here = f(x(1));
  if (here <= 0.0) return bisect(f, x(0), x(1));
  for (int k = 1; k < kSamples; ++k) {
    const double next = f(x(k + 1));
    if (next <= 0.0) return bisect(f, x(k), x(k + 1));
    if (here < before && here <= next) {
      const double low =
          golden_minimum(f, std::min(x(k - 1), x(k + 1)), std::max(x(k - 1), x(k + 1)));
      if (f(low) <= 0.0) return bisect(f, x(k - 1), low);
    }
    before = here, here = next;
  }
  return std::nullopt;
}

}  // namespace dsp_detail

class DspRelativeEquilibrium {
 public:
  using Parameters = DoubleSphericalPendulum::Parameters;
  using State = DoubleSphericalPendulum::State;

  /// The relative equilibrium of `branch` with the first link at theta1 from the downward
  /// vertical; an InputError when theta1 is outside (0, pi/2), g <= 0, or the branch has none.
  DspRelativeEquilibrium(const Parameters& p, DspBranch branch, double theta1)
      : p_(p), theta1_(theta1) {
    if (!(theta1 > 0.0 && theta1 < std::numbers::pi / 2))
      throw InputError("double spherical pendulum relative equilibrium: theta1 = " +
                       number_text(theta1) + " is outside (0, pi/2)");
    if (!(p.g > 0.0))
      throw InputError("double spherical pendulum relative equilibrium: needs g > 0");
    const auto balance_at = [this](double th2) { return balance(p_, theta1_, th2); };
    const std::optional<double> th2 =
        branch == DspBranch::StraightOut
            ? dsp_detail::first_zero(balance_at, theta1, std::numbers::pi / 2)
            : cowboy_root(p, theta1);
    if (!th2)
      throw InputError("double spherical pendulum: no cowboy relative equilibrium at theta1 = " +
                       number_text(theta1) +
                       " (the branch ends at theta1 = " + number_text(cowboy_branch_end(p)) + ")");
    theta2_ = *th2;
    rate_ = std::sqrt(p.g * std::tan(theta2_) / radius2());  // NOTES-dutoit 3.4, first line
  }

  double theta1() const { return theta1_; }
  double theta2() const { return theta2_; }
  double rate() const { return rate_; }  // omega [rad/s], about e3
  /// r2 = l1 sin th1 + l2 sin th2, the signed distance of the second bob from the axis.
  double radius2() const { return p_.l1 * std::sin(theta1_) + p_.l2 * std::sin(theta2_); }

  /// The state at time t, the links in the half-plane through e1 at t = 0.
  State at(double t) const {
    const Eigen::Vector3d along(std::cos(rate_ * t), std::sin(rate_ * t), 0.0);
    State y(12);
    int i = 0;
    for (const double th : {theta1_, theta2_}) {
      const Eigen::Vector3d q = std::sin(th) * along + std::cos(th) * Eigen::Vector3d::UnitZ();
      y.segment<3>(3 * i) = q;
      y.segment<3>(6 + 3 * i) = rate_ * (Eigen::Vector3d::UnitZ() - std::cos(th) * q);
      ++i;
    }
    return y;
  }

  /// G(th1, th2): cos th2 times (left minus right side of) the equation of NOTES-dutoit 3.4.
  static double balance(const Parameters& p, double theta1, double theta2) {
    const double s1 = std::sin(theta1), s2 = std::sin(theta2), c2 = std::cos(theta2);
    const double r2 = p.l1 * s1 + p.l2 * s2;
    return (p.m1 + p.m2) * (std::tan(theta1) * c2 * r2 - p.l1 * s1 * s2) - p.m2 * p.l2 * s2 * s2;
  }

  /// The largest theta1 with a cowboy relative equilibrium: the fold where the cowboy root of G
  /// meets a second one. Found by bisection on whether the root exists, which assumes the
  /// branch exists on (0, end) and not beyond (near th1 = 0 it always does: the normal mode;
  /// the unit test scans the rest for m = l = 1); pi/2, or the theta1 where r2 < 0 becomes
  /// impossible, when there is no fold before.
  static double cowboy_branch_end(const Parameters& p) {
    double lo = 1e-6;
    double hi = p.l1 > p.l2 ? std::asin(p.l2 / p.l1) : std::numbers::pi / 2;
    if (cowboy_root(p, hi)) return hi;
    for (;;) {
      const double m = 0.5 * (lo + hi);
      if (m == lo || m == hi) return lo;
      (cowboy_root(p, m) ? lo : hi) = m;
    }
  }

 private:
  static std::optional<double> cowboy_root(const Parameters& p, double theta1) {
    const double x = p.l1 * std::sin(theta1) / p.l2;
    if (x >= 1.0) return std::nullopt;  // r2 < 0 is out of reach
    const auto balance_at = [&](double th2) { return balance(p, theta1, th2); };
    return dsp_detail::first_zero(balance_at, -std::asin(x), -std::numbers::pi / 2);
  }

  Parameters p_;
  double theta1_, theta2_ = 0.0, rate_ = 0.0;
};

}  // namespace geomint
