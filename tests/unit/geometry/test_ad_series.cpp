// Unit tests of geometry/ad_series.hpp: the scalar functions g2, g2~ of the exact dexpinv and
// g1~, g2~ of dexp against long-double closed forms and series written here, g~ = g'/a by finite
// differences, and the truncated series (8) against Bernoulli numbers from the literature and
// against finite differences of Eigen's matrix exponential on gl(3).

#include "geometry/ad_series.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "geometry/so3.hpp"
#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/matrix_lie.hpp"
#include "support/random.hpp"

namespace {

using geomint::testing::show;
using Mat3 = Eigen::Matrix3d;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kPi = std::numbers::pi;

/// |B_2k| / (2k)! for k = 1..15, from the Bernoulli numbers B_2 = 1/6, B_4 = -1/30, ...,
/// B_30 = 8615841276005/14322 (Abramowitz & Stegun Table 23.2; rechecked with the recurrence
/// sum_{j<=m} C(m+1, j) B_j = 0 in exact rational arithmetic).
long double abs_bernoulli_even_over_factorial(int k) {
  static const long double num[] = {0,
                                    1,
                                    1,
                                    1,
                                    1,
                                    5,
                                    691,
                                    7,
                                    3617,
                                    43867,
                                    174611,
                                    854513,
                                    236364091,
                                    8553103,
                                    23749461029.0L,
                                    8615841276005.0L};
  static const long double den[] = {1,   6,   30,  42,  30,   66, 2730, 6,
                                    510, 798, 330, 138, 2730, 6,  870,  14322};
  long double fact = 1;
  for (int i = 2; i <= 2 * k; ++i) fact *= i;
  return num[k] / den[k] / fact;
}

// Since x cot x = sum_k (-1)^k B_2k (2x)^2k / (2k)!, with a = 2x:
//   g2(a)  = (1 - x cot x) / a^2 = sum_{k>=1} |B_2k| / (2k)! a^(2k-2),
//   g2~(a) = g2'(a) / a          = sum_{k>=2} (2k-2) |B_2k| / (2k)! a^(2k-4).
// The ratio of successive terms tends to (a / 2 pi)^2; for a < 1 the terms after k = 15 are
// below (1 / 2 pi)^28 ~ 5e-23 relative.

/// g2 in long double: the series for a < 1, the closed form above (where 1 - x cot x ~ x^2/3
/// loses at most a factor 12 of the 1e-19 long-double precision).
long double g2_reference(double a_in) {
  const long double a = a_in, x = a / 2;
  if (a_in < 1.0) {
    long double sum = 0, pw = 1;
    for (int k = 1; k <= 15; ++k, pw *= a * a) sum += abs_bernoulli_even_over_factorial(k) * pw;
    return sum;
  }
  return (1 - x * std::cos(x) / std::sin(x)) / (a * a);
}

/// g2~ in long double: the series for a < 1, the closed form (x cot x + x^2/sin^2 x - 2)/(16 x^4)
/// above (whose numerator ~ 2 x^4 / 45 loses at most a factor 720 of long-double precision).
long double g2_tilde_reference(double a_in) {
  const long double a = a_in, x = a / 2;
  if (a_in < 1.0) {
    long double sum = 0, pw = 1;
    for (int k = 2; k <= 15; ++k, pw *= a * a)
      sum += (2 * k - 2) * abs_bernoulli_even_over_factorial(k) * pw;
    return sum;
  }
  const long double s = std::sin(x);
  return (x * std::cos(x) / s + x * x / (s * s) - 2) / (16 * x * x * x * x);
}

/// Arguments across [0, 6.2]: zero, tiny, both sides of the series/closed-form switch at a = 2,
/// near 2 pi (where both functions have a pole), and random points.
std::vector<double> arguments(geomint::testing::Rng& rng) {
  std::vector<double> as = {0.0,   1e-300,
                            1e-12, 1e-8,
                            1e-4,  1e-3,
                            0.01,  0.1,
                            0.5,   0.999,
                            1.0,   1.5,
                            1.9,   std::nextafter(2.0, 0.0),
                            2.0,   std::nextafter(2.0, 3.0),
                            2.001, 2.1,
                            2.5,   3.0,
                            kPi,   4.0,
                            5.0,   6.0,
                            6.2};
  for (int i = 0; i < 200; ++i) as.push_back(rng.uniform(0.0, 6.2));
  for (int i = 0; i < 50; ++i) as.push_back(std::pow(10.0, rng.uniform(-8.0, 0.0)));
  return as;
}

TEST(DexpinvG2, MatchesLongDoubleClosedFormAndSeries) {
  static_assert(std::numeric_limits<long double>::digits >= 64, "needs extended long double");
  GEOMINT_SEEDED_RNG(rng, 101);
  for (double a : arguments(rng)) {
    SCOPED_TRACE("a = " + show(a));
    // Below a = 2: Horner over positive terms with precomputed coefficients, a few roundings.
    // From a = 2: 1 - x / tan x with x / tan x <= 0.65, whose error at most doubles in the
    // subtraction; near 2 pi the terms no longer cancel. 4 kEps covers both.
    EXPECT_REL_NEAR(geomint::dexpinv_g2(a), static_cast<double>(g2_reference(a)), 4 * kEps);
  }
}

TEST(DexpinvG2, ValuesAtZero) {
  EXPECT_REL_NEAR(geomint::dexpinv_g2(0.0), 1.0 / 12.0, 2 * kEps);
  EXPECT_REL_NEAR(geomint::dexpinv_g2_tilde(0.0), 1.0 / 360.0, 2 * kEps);
}

TEST(DexpinvG2Tilde, MatchesLongDoubleClosedFormAndSeries) {
  GEOMINT_SEEDED_RNG(rng, 102);
  for (double a : arguments(rng)) {
    SCOPED_TRACE("a = " + show(a));
    double tol = 4 * kEps;  // series branch (a < 2): Horner over positive terms
    if (a >= 2.0) {
      // Closed form in double: x cot x + x^2/sin^2 x - 2 cancels; the rounding errors of its
      // terms (a few eps each) are magnified by sum|terms| / |sum| (74 at a = 2, falling fast).
      const double x = 0.5 * a, s = std::sin(x);
      const double c1 = x / std::tan(x), c2 = x * x / (s * s);
      tol = 4 * kEps * (std::abs(c1) + c2 + 2.0) / std::abs(c1 + c2 - 2.0);
    }
    EXPECT_REL_NEAR(geomint::dexpinv_g2_tilde(a), static_cast<double>(g2_tilde_reference(a)), tol);
  }
}

TEST(DexpinvG2Tilde, IsDerivativeOfG2DividedByA) {
  // g2~(a) = g2'(a) / a with g2' by Richardson-extrapolated central differences (h = 1e-3):
  // truncation h^4/480 |g2^(5)| and roundoff ~3 eps g2 / h ~ 1e-13; g2 has a pole at 2 pi, so
  // stop at 5.5 where |g2^(5)| ~ 5! / (2 pi - 5.5)^6 ~ 1e3 keeps truncation below 3e-13.
  // The differences straddle the switch at a = 2 too, which also checks continuity there.
  GEOMINT_SEEDED_RNG(rng, 103);
  std::vector<double> as = {0.05, 0.1, 0.5, 1.0, 1.9995, 2.0, 2.0005, 3.0, kPi, 4.0, 5.0, 5.5};
  for (int i = 0; i < 50; ++i) as.push_back(rng.uniform(0.05, 5.5));
  for (double a : as) {
    SCOPED_TRACE("a = " + show(a));
    const double deriv = geomint::testing::richardson_derivative_scalar(
        [](double s) { return geomint::dexpinv_g2(s); }, a, 1e-3);
    const double expected = deriv / a;
    EXPECT_NEAR(geomint::dexpinv_g2_tilde(a), expected, 1e-11 / a + 1e-9 * std::abs(expected));
  }
}

// ---------------------------------------------------------------------------------------------
// dexp_g1_tilde, dexp_g2_tilde

/// s_m'(a) / a for s_m(a) = sum_k (-a^2)^k / (2k+m)!, in long double, as the differentiated
/// series -sum_j (-a^2)^j (2j+2) / (2j+m+2)! (60 terms: for a <= 6.2 the tail is below
/// 38.5^60 / 120! ~ 1e-104). `abs_sum` gets sum_j |term_j|, the size the terms cancel from.
long double rodrigues_tilde_reference(double a_in, int m, long double& abs_sum) {
  const long double a = static_cast<long double>(a_in), a2 = a * a;
  long double term = 1, sum = 0;
  for (int k = 2; k <= m + 2; ++k) term /= k;
  abs_sum = 0;
  for (int j = 0; j < 60; ++j) {
    sum += (2 * j + 2) * term;
    abs_sum += (2 * j + 2) * std::abs(term);
    term *= -a2 / ((2 * j + m + 3) * (2 * j + m + 4));
  }
  return -sum;
}

TEST(DexpTildeCoefficients, MatchLongDoubleSeries) {
  // g1~ = s_2'/a and g2~ = s_3'/a (g1 = s_2 = (1 - cos a)/a^2, g2 = s_3 = (a - sin a)/a^3). The
  // long-double sum is exact to ~1e-19 times its cancellation (< 300 up to 6.2).
  // Below a = 3 the double series cancels like the reference: 4 eps times sum|terms| / |sum|
  // (<= 3.4). Above, the closed forms' terms (a sin a, 2(1 - cos a); a(1 - cos a), 3(a - sin a))
  // each carry a few eps and cancel by at most a factor ~6: 4 eps times that factor.
  GEOMINT_SEEDED_RNG(rng, 105);
  for (double a : arguments(rng)) {
    SCOPED_TRACE("a = " + show(a));
    long double abs1 = 0, abs2 = 0;
    const long double ref1 = rodrigues_tilde_reference(a, 2, abs1);
    const long double ref2 = rodrigues_tilde_reference(a, 3, abs2);
    double gain1 = static_cast<double>(abs1 / std::abs(ref1));
    double gain2 = static_cast<double>(abs2 / std::abs(ref2));
    if (a >= 3.0) {
      const double s = std::sin(a), c1 = 1.0 - std::cos(a), a5 = std::pow(a, 5);
      gain1 = (std::abs(a * s) + 2 * c1) / (a * a * a * a) / std::abs(static_cast<double>(ref1));
      gain2 = (a * c1 + 3 * (a - s)) / a5 / std::abs(static_cast<double>(ref2));
    }
    EXPECT_REL_NEAR(geomint::dexp_g1_tilde(a), static_cast<double>(ref1), 4 * kEps * gain1);
    EXPECT_REL_NEAR(geomint::dexp_g2_tilde(a), static_cast<double>(ref2), 4 * kEps * gain2);
  }
}

TEST(DexpTildeCoefficients, AreDerivativesOfRodriguesCoefficientsOverA) {
  // g1~ = g1'/a and g2~ = g2'/a with g1, g2 the Rodrigues coefficients b, c that se3::dexp uses,
  // differentiated by Richardson differences (h = 1e-3: truncation ~h^4/480 |g^(5)| < 1e-14,
  // roundoff ~3 eps g / h ~ 1e-13). Straddles the switches at 1 (c) and 3 (g~).
  GEOMINT_SEEDED_RNG(rng, 106);
  std::vector<double> as = {0.05, 0.5, 0.9995, 1.0, 1.0005, 2.0, 2.9995, 3.0, 3.0005, kPi, 5.0};
  for (int i = 0; i < 30; ++i) as.push_back(rng.uniform(0.05, 6.0));
  for (double a : as) {
    SCOPED_TRACE("a = " + show(a));
    using geomint::so3::RodriguesCoefficients;
    const auto d = [&](auto coefficient) {
      return geomint::testing::richardson_derivative_scalar(coefficient, a, 1e-3) / a;
    };
    const double d1 = d([](double t) { return RodriguesCoefficients(t).b; });
    const double d2 = d([](double t) { return RodriguesCoefficients(t).c; });
    EXPECT_NEAR(geomint::dexp_g1_tilde(a), d1, 1e-12 / a);
    EXPECT_NEAR(geomint::dexp_g2_tilde(a), d2, 1e-12 / a);
  }
}

// ---------------------------------------------------------------------------------------------
// dexpinv_series_generic

/// B_j / j! for j = 0..14 from the Bernoulli numbers (B_1 = -1/2).
double bernoulli_over_factorial(int j) {
  static const double num[] = {1, -1, 1, 0, -1, 0, 1, 0, -1, 0, 5, 0, -691, 0, 7};
  static const double den[] = {1, 2, 6, 1, 30, 1, 42, 1, 30, 1, 66, 1, 2730, 1, 6};
  double fact = 1.0;
  for (int i = 2; i <= j; ++i) fact *= i;
  return num[j] / den[j] / fact;
}

/// On a one-dimensional "algebra" with ad_z = multiplication by z, the series (8) is the Taylor
/// polynomial of z / (e^z - 1).
double scalar_series(double z, int max_power) {
  return geomint::dexpinv_series_generic(z, 1.0, max_power,
                                         [](double p, double q) { return p * q; });
}

TEST(DexpinvSeriesGeneric, CoefficientsAreBernoulliOverFactorial) {
  for (double z : {0.5, -0.75, 1.25}) {
    SCOPED_TRACE("z = " + show(z));
    EXPECT_EQ(scalar_series(z, 0), 1.0);
    EXPECT_EQ(scalar_series(z, -3), 1.0);
    for (int j = 1; j <= 12; ++j) {
      SCOPED_TRACE("j = " + std::to_string(j));
      const double increment = scalar_series(z, j) - scalar_series(z, j - 1);
      // Difference of two sums of size ~1: absolute roundoff ~2 eps.
      EXPECT_NEAR(increment, bernoulli_over_factorial(j) * std::pow(z, j), 4 * kEps);
    }
  }
}

TEST(DexpinvSeriesGeneric, ConvergesToZOverExpm1) {
  for (double z : {1e-8, 1e-3, 0.1, 0.5, -0.5, 1.0, -2.0}) {
    SCOPED_TRACE("z = " + show(z));
    const double exact = z / std::expm1(z);
    // The omitted tail after z^12 is c_14 z^14 (1 + O((z / 2 pi)^2)), |c_14| = 1.3e-11.
    const double tail = std::abs(bernoulli_over_factorial(14)) * std::pow(z, 14);
    EXPECT_NEAR(scalar_series(z, 12), exact, 1.2 * tail + 4 * kEps);
  }
}

TEST(DexpinvSeriesGeneric, PowersBeyondTwelveAddNothing) {
  // The table stops at B_12 / 12!: a larger max_power is the same truncation (documented).
  const double z = 1.5;
  double taylor = 0.0;
  for (int j = 0; j <= 12; ++j) taylor += bernoulli_over_factorial(j) * std::pow(z, j);
  EXPECT_NEAR(scalar_series(z, 20), taylor, 8 * kEps);
}

TEST(DexpinvSeriesGeneric, InvertsRightTrivialisedDexpOnGl3) {
  // A non-so(3) algebra: gl(3) with the matrix commutator. dexp_X(Y) = d/de exp(X + eY) exp(-X)
  // by Richardson differences of Eigen's exponential (error ~1e-12 for |Y| ~ 1). With the
  // right trivialisation the series (8) with B_1 = -1/2 must return Y; the left-trivialised
  // convention would leave an error ~ [X, Y]. |X| ~ 0.3 so the omitted terms, below
  // 1.3e-11 |ad_X|^14 <= 1.3e-11 (2 |X|)^14, are ~1e-14.
  GEOMINT_SEEDED_RNG(rng, 104);
  for (int i = 0; i < 20; ++i) {
    Mat3 x, y;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        x(r, c) = rng.uniform(-0.1, 0.1);
        y(r, c) = rng.uniform(-1.0, 1.0);
      }
    SCOPED_TRACE("X =\n" + show(x) + "\nY =\n" + show(y));
    const Mat3 inv = geomint::testing::expm(Mat3(-x));
    const Mat3 d = geomint::testing::richardson_derivative(
                       [&](double e) { return geomint::testing::expm(Mat3(x + e * y)); }) *
                   inv;
    const auto commutator = [](const Mat3& p, const Mat3& q) -> Mat3 { return p * q - q * p; };
    const Mat3 got = geomint::dexpinv_series_generic(x, d, 12, commutator);
    EXPECT_EIGEN_NEAR(got, y, geomint::testing::kRichardsonTol);
  }
}

}  // namespace
