// The asymptotic window of an order measurement (studies/order_window.hpp), on error sequences
// whose order is known by construction: a power law, a pre-asymptotic term, a reference floor,
// errors that do not converge, and lost order.
#include "studies/order_window.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace geomint {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// e(h) = c h^p (1 + a h) at h = h0, h0/2, ...
std::vector<std::pair<double, double>> errors(double p, double a, double h0, int n, double c = 1.0) {
  std::vector<std::pair<double, double>> points;
  for (int i = 0; i < n; ++i) {
    const double h = h0 / std::ldexp(1.0, i);
    points.emplace_back(h, c * std::pow(h, p) * (1.0 + a * h));
  }
  return points;
}

TEST(OrderWindow, APowerLawIsOneWindowOfItsExponent) {
  const OrderWindow w = find_order_window(errors(4, 0.0, 0.1, 5), 0.0, kInf, 4);
  ASSERT_TRUE(w.found());
  EXPECT_EQ(w.size(), 5);
  EXPECT_NEAR(w.order, 4.0, 1e-12);
  EXPECT_NEAR(w.correlation, 1.0, 1e-12);
  EXPECT_NEAR(w.relative_deviation(), 0.0, 1e-12);
  EXPECT_FALSE(w.below_nominal());
  EXPECT_FALSE(w.above_nominal());
  for (double s : w.local_slopes) EXPECT_NEAR(s, 4.0, 1e-12);
}

TEST(OrderWindow, PointsAtTheFloorAndWithoutAccuracyAreLeftOut) {
  auto points = errors(2, 0.0, 0.1, 5);  // 1e-2 .. 3.9e-5
  points.emplace_back(0.1 / 32.0, 1e-12);  // at the floor
  points.emplace_back(0.4, 5.0);           // no accuracy
  const OrderWindow w = find_order_window(points, 1e-10, 1.0, 2);
  EXPECT_EQ(w.total, 7);
  EXPECT_EQ(w.at_floor, 1);
  EXPECT_EQ(w.above_ceiling, 1);
  ASSERT_TRUE(w.found());
  EXPECT_EQ(w.size(), 5);
  EXPECT_NEAR(w.order, 2.0, 1e-12);
  EXPECT_TRUE(w.smallest_at_floor);
}

TEST(OrderWindow, ErrorsThatDoNotConvergeHaveNoWindow) {
  // The rod under Lie-Euler in the matrix: 8.2, 10.3, 5.0 at h = 5e-5, 2.5e-5, 1.25e-5.
  const OrderWindow w = find_order_window({{5e-5, 8.2}, {2.5e-5, 10.3}, {1.25e-5, 5.0}}, 4e-10, 100.0, 1);
  EXPECT_FALSE(w.found());
  EXPECT_TRUE(std::isnan(w.order));
  EXPECT_NE(w.why_none().find("local slopes agree"), std::string::npos) << w.why_none();
}

TEST(OrderWindow, AboveNominalInAWindowConvergesFromAbove) {
  // A strong second-order term: the slopes fall towards 1 from about 2, the way the paper's
  // heavy top shows under the first-order SLGI.
  const OrderWindow w = find_order_window(errors(1, 300.0, 0.01, 5), 0.0, kInf, 1);
  ASSERT_TRUE(w.found());
  EXPECT_TRUE(w.above_nominal()) << w.order;
  EXPECT_FALSE(w.below_nominal());
  EXPECT_EQ(w.last, 4) << "the window reaches the smallest step";
}

TEST(OrderWindow, LostOrderIsBelowNominal) {
  // A fifth-order method that shows fourth order.
  const OrderWindow w = find_order_window(errors(4, 0.0, 0.01, 4), 0.0, kInf, 5);
  ASSERT_TRUE(w.found());
  EXPECT_TRUE(w.below_nominal());
  EXPECT_NEAR(w.order, 4.0, 1e-12);
}

TEST(OrderWindow, SlopesThatDisagreeOverFourPointsLeaveTheFinestRunThatAgrees) {
  // Pre-asymptotic at the two largest steps, then second order.
  std::vector<std::pair<double, double>> points = {{0.8, 3.0}, {0.4, 2.0}, {0.2, 0.04}, {0.1, 0.01}, {0.05, 0.0025}};
  const OrderWindow w = find_order_window(points, 0.0, kInf, 2);
  ASSERT_TRUE(w.found());
  EXPECT_EQ(w.first, 2);
  EXPECT_EQ(w.last, 4);
  EXPECT_NEAR(w.order, 2.0, 1e-12);
}

TEST(NextWindowStep, HalvesWhileTheSmallestStepIsAboveTheFloor) {
  const std::vector<std::pair<double, double>> points = {{5e-5, 8.2}, {2.5e-5, 10.3}, {1.25e-5, 5.0}};
  const OrderWindow w = find_order_window(points, 4e-10, 100.0, 1);
  EXPECT_DOUBLE_EQ(next_window_step(w, {5e-5, 2.5e-5, 1.25e-5}, 1.25e-5 / 8, 5e-5 * 8), 6.25e-6);
  // Not beyond the finest allowed.
  EXPECT_TRUE(std::isnan(next_window_step(w, {5e-5, 2.5e-5, 1.25e-5}, 1e-5, 5e-5 * 8)));
}

TEST(NextWindowStep, DoublesWhenTheErrorsSinkToTheFloor) {
  // rk4 where only two steps are above the reference's floor.
  const std::vector<std::pair<double, double>> points = {{0.001, 1e-11}, {0.0005, 6e-13}, {0.00025, 1e-14}};
  const OrderWindow w = find_order_window(points, 1e-13, kInf, 4);
  EXPECT_FALSE(w.found());
  EXPECT_DOUBLE_EQ(next_window_step(w, {0.001, 0.0005, 0.00025}, 0.00025 / 8, 0.008), 0.002);
}

TEST(NextWindowStep, NothingMoreOnceAWindowKeepsItsOrder) {
  const OrderWindow w = find_order_window(errors(2, 0.0, 0.1, 3), 0.0, kInf, 2);
  EXPECT_TRUE(std::isnan(next_window_step(w, {0.1, 0.05, 0.025}, 1e-6, 1.0)));
}

TEST(NextWindowStep, LostOrderIsLookedAtBelowItsSmallestStep) {
  const OrderWindow w = find_order_window(errors(4, 0.0, 0.01, 3), 0.0, kInf, 5);
  EXPECT_DOUBLE_EQ(next_window_step(w, {0.01, 0.005, 0.0025}, 1e-6, 1.0), 0.00125);
}

}  // namespace
}  // namespace geomint
