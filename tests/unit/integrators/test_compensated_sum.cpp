// Label `unit`: compensated summation (integrators/compensated_sum.hpp) against sums computed in
// long double: 10^6 additions of a double to 1 come within half an ulp with it and are off by
// hundreds of ulps without it (the plain sum, the negative control), for doubles and for Eigen
// blocks, and across 0. The integrators' use of it is tested over long runs
// (tests/conservation/test_long_time_runs.cpp).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "integrators/compensated_sum.hpp"

namespace geomint {
namespace {

constexpr int kSteps = 1000000;
constexpr long double kUlp = static_cast<long double>(std::numeric_limits<double>::epsilon());  // of y in [1, 2)

long double wide(double x) { return static_cast<long double>(x); }

TEST(CompensatedSum, TenToTheSixAdditionsStayWithinAnUlpOfTheExactSum) {
  const double d = 1e-8 / 3.0;  // an increment whose every sum with y near 1 is rounded
  const long double exact = 1.0L + static_cast<long double>(kSteps) * wide(d);
  double plain = 1.0, compensated = 1.0, c = 0.0;
  for (int k = 0; k < kSteps; ++k) {
    plain += d;
    compensated_add(compensated, d, c);
  }
  EXPECT_LE(std::abs(wide(compensated) + wide(c) - exact), 1e-3L * kUlp);
  EXPECT_LE(std::abs(wide(compensated) - exact), 0.5L * kUlp);
  // The plain sum rounds each addition the same way: a bias of hundreds of ulps.
  EXPECT_GT(std::abs(wide(plain) - exact), 100.0L * kUlp);
}

TEST(CompensatedSum, AnEigenBlockIsSummedCoefficientByCoefficient) {
  Eigen::Matrix<double, 6, 1> y = Eigen::Matrix<double, 6, 1>::Constant(1.0);
  Eigen::Matrix<double, 3, 2> carry = Eigen::Matrix<double, 3, 2>::Zero();
  const Eigen::Vector3d d(1e-8 / 3.0, -1e-8 / 7.0, 0.0);
  for (int k = 0; k < kSteps; ++k) compensated_add(y.segment<3>(3), d, carry.col(1));
  for (int i = 0; i < 3; ++i) {
    const long double exact = 1.0L + static_cast<long double>(kSteps) * wide(d(i));
    EXPECT_LE(std::abs(wide(y(3 + i)) - exact), 0.5L * kUlp) << i;
    EXPECT_EQ(y(i), 1.0);  // the other block untouched
  }
  EXPECT_TRUE(carry.col(0).isZero(0.0));
}

TEST(CompensatedSum, ASumAcrossZeroIsExactToo) {
  // TwoSum needs no ordering of |y| and |d|: y crossing 0 with increments larger than it.
  double y = 1e-20, c = 0.0;
  const double d = -0.1;
  long double exact = 1e-20L;
  for (int k = 0; k < 1000; ++k) {
    compensated_add(y, d, c);
    exact += wide(d);
  }
  EXPECT_LE(std::abs(wide(y) - exact), 0.5L * kUlp * std::abs(exact));
}

}  // namespace
}  // namespace geomint
