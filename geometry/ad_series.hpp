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
