#pragma once
// Scalar functions of ad shared by so(3) and se(3), and the truncated dexpinv series.
//
// With phi(z) = z / (e^z - 1), Celledoni Section 2.3 needs
//   g2(a) = (1 - (a/2) cot(a/2)) / a^2    and    g2~(a) = g2'(a) / a.
// Near a = 0 both cancel badly; there we sum their power series in x = a/2, whose
// coefficients follow from  1 - x cot x = sum_{k>=1} 2 zeta(2k) (x/pi)^{2k}:
//   g2  = sum_{k>=1} zeta(2k) / (2 pi^{2k}) x^{2k-2},
//   g2~ = sum_{k>=2} (k-1) zeta(2k) / (4 pi^{2k}) x^{2k-4}.

#include <array>
#include <cmath>
#include <numbers>

namespace geomint {

namespace detail {
/// zeta(2k) / pi^{2k} for k = 0..kTerms-1 (the k = 0 entry is unused).
inline constexpr int kZetaTerms = 24;
inline const std::array<double, kZetaTerms>& zeta_over_pi_powers() {
  static const std::array<double, kZetaTerms> table = [] {
    std::array<double, kZetaTerms> t{};
    constexpr double pi2 = std::numbers::pi * std::numbers::pi;
    for (int k = 1; k < kZetaTerms; ++k) {
      double zeta = 0.0;  // for 2k >= 8 the tail beyond n = 200 is below 1e-17
      for (int n = 200; n >= 1; --n) zeta += std::pow(static_cast<double>(n), -2.0 * k);
      if (k == 1) zeta = pi2 / 6.0;  // the slowly converging ones, in closed form
      if (k == 2) zeta = pi2 * pi2 / 90.0;
      if (k == 3) zeta = pi2 * pi2 * pi2 / 945.0;
      t[static_cast<std::size_t>(k)] = zeta / std::pow(std::numbers::pi, 2.0 * k);
    }
    return t;
  }();
  return table;
}
}  // namespace detail

/// g2(a) = (1 - (a/2) cot(a/2)) / a^2, the coefficient of ad_u^2 in the exact dexpinv.
inline double dexpinv_g2(double a) {
  const double x = 0.5 * a;
  if (x < 1.0) {  // series; the omitted term is below (1/pi)^46
    const auto& c = detail::zeta_over_pi_powers();
    const double x2 = x * x;
    double sum = 0.0;
    for (int k = detail::kZetaTerms - 1; k >= 1; --k) sum = sum * x2 + c[static_cast<std::size_t>(k)];
    return 0.5 * sum;
  }
  return (1.0 - x / std::tan(x)) / (a * a);
}

/// g2~(a) = g2'(a) / a = (x cot x + x^2 / sin^2 x - 2) / (16 x^4), x = a/2.
inline double dexpinv_g2_tilde(double a) {
  const double x = 0.5 * a;
  if (x < 1.0) {
    const auto& c = detail::zeta_over_pi_powers();
    const double x2 = x * x;
    double sum = 0.0;
    for (int k = detail::kZetaTerms - 1; k >= 2; --k)
      sum = sum * x2 + (k - 1) * c[static_cast<std::size_t>(k)];
    return 0.25 * sum;
  }
  const double s = std::sin(x);
  return (x / std::tan(x) + x * x / (s * s) - 2.0) / (16.0 * x * x * x * x);
}

namespace detail {
/// -sum_{j>=0} (-a^2)^j (2j+2) / (2j+m+2)!, the value of s_m'(a) / a for
/// s_m(a) = sum_{k>=0} (-a^2)^k / (2k+m)!. Sixteen terms: for a < 3 the omitted ones are below
/// 9^16 * 34 / 36! ~ 2e-25, far below the sums (> 1e-2 in magnitude there).
inline double rodrigues_tilde_series(double a, int m) {
  double term = 1.0;  // (-a^2)^j / (2j+m+2)!
  for (int k = 2; k <= m + 2; ++k) term /= k;
  const double a2 = a * a;
  double sum = 0.0;
  for (int j = 0; j < 16; ++j) {
    sum += (2.0 * j + 2.0) * term;
    term *= -a2 / ((2.0 * j + m + 3.0) * (2.0 * j + m + 4.0));
  }
  return -sum;
}
}  // namespace detail

// With phi(z) = (e^z - 1) / z (dexp, Celledoni (7)), Section 2.3 needs g1 = (1 - cos a)/a^2 and
// g2 = (a - sin a)/a^3 (so3::RodriguesCoefficients b and c) and g1~ = g1'/a, g2~ = g2'/a below.
// Their closed forms cancel near a = 0 (at a = 1e-4 the one of g2~ keeps no digit); below a = 3
// the power series is used, whose sum loses at most a factor ~3 to alternation there; above,
// the closed forms lose at most a factor ~6 (measured against long-double references).

/// g1~(a) = g1'(a) / a = (a sin a - 2 (1 - cos a)) / a^4.
inline double dexp_g1_tilde(double a) {
  if (a < 3.0) return detail::rodrigues_tilde_series(a, 2);
  const double s = std::sin(0.5 * a);
  return (a * std::sin(a) - 4.0 * s * s) / (a * a * a * a);
}

/// g2~(a) = g2'(a) / a = (a (1 - cos a) - 3 (a - sin a)) / a^5.
inline double dexp_g2_tilde(double a) {
  if (a < 3.0) return detail::rodrigues_tilde_series(a, 3);
  const double s = std::sin(0.5 * a);
  return (2.0 * a * s * s - 3.0 * (a - std::sin(a))) / (a * a * a * a * a);
}

/// Truncated series (8): dexpinv_u(v) ~ sum_{j=0}^{max_power} B_j / j! ad_u^j(v), with the
/// Bernoulli numbers B_0 = 1, B_1 = -1/2, B_2 = 1/6, B_4 = -1/30, ... (odd ones beyond 1 vanish).
template <class Vec, class Bracket>
Vec dexpinv_series_generic(const Vec& u, const Vec& v, int max_power, Bracket bracket) {
  // B_j / j! for j = 0..12.
  static constexpr std::array<double, 13> kCoef = {
      1.0,  -0.5, 1.0 / 12.0, 0.0, -1.0 / 720.0, 0.0, 1.0 / 30240.0, 0.0, -1.0 / 1209600.0,
      0.0,  1.0 / 47900160.0, 0.0, -691.0 / 1307674368000.0};
  Vec sum = v;
  Vec ad_power = v;
  for (int j = 1; j <= max_power && j < static_cast<int>(kCoef.size()); ++j) {
    ad_power = bracket(u, ad_power);
    sum += kCoef[static_cast<std::size_t>(j)] * ad_power;
  }
  return sum;
}

}  // namespace geomint
