// Label `unit`: the metric definitions against series with known answers.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "studies/metrics.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

Sample sample(double t, double energy, double unit = 0.0, double tangency = 0.0, double lz = 0.0) {
  return {t, energy, Eigen::Vector3d(lz, 0, 0), 1, unit, tangency, 2.0 * unit};
}

TEST(MetricAccumulator, EnergyMaxMeanAndSlopeOfALinearDrift) {
  MetricAccumulator acc;
  // E(t) = 5 + 0.3 t on t = 0, 0.5, ..., 10: |e| = 0.3 t, mean 1.5, max 3, slope 0.3.
  for (int k = 0; k <= 20; ++k) acc.add(sample(0.5 * k, 5.0 + 0.15 * k));
  const Metrics m = acc.result();
  EXPECT_EQ(m.output_points, 21);
  EXPECT_NEAR(m.energy_err_max, 3.0, 1e-14);
  EXPECT_NEAR(m.energy_err_mean, 1.5, 1e-14);
  EXPECT_NEAR(m.energy_drift_per_time, 0.3, 1e-13);
  EXPECT_NEAR(m.energy_rel_err_max, 3.0 / 5.0, 1e-14);
}

TEST(MetricAccumulator, ManifoldMomentumAndLlmUnitLength) {
  MetricAccumulator acc;
  acc.add(sample(0.0, 1.0, 1e-15, 2e-16, 7.0));
  acc.add(sample(1.0, 1.0, 3e-15, -4e-16, 7.5));
  acc.add(sample(2.0, 1.0, 2e-15, 1e-16, 6.0));
  const Metrics m = acc.result();
  EXPECT_DOUBLE_EQ(m.manifold_err_max, 3e-15);
  EXPECT_DOUBLE_EQ(m.tangency_err_max, 2e-16);  // the accumulator takes defects as magnitudes
  EXPECT_DOUBLE_EQ(m.momentum_err_max, 1.0);
  EXPECT_DOUBLE_EQ(m.unit_length_err_mean, 2.0 * (1e-15 + 3e-15 + 2e-15) / 3.0);
  EXPECT_DOUBLE_EQ(m.energy_drift_per_time, 0.0);
}

TEST(FitOrder, RecoversTheExponentOfAPowerLaw) {
  std::vector<std::pair<double, double>> points;
  for (double h : {0.04, 0.02, 0.01, 0.005}) points.emplace_back(h, 3.0 * std::pow(h, 4));
  const OrderFit fit = fit_order(points, 0.0);
  EXPECT_NEAR(fit.order, 4.0, 1e-12);
  EXPECT_NEAR(fit.residual, 0.0, 1e-12);
  EXPECT_EQ(fit.used, 4);
}

TEST(FitOrder, DropsPointsAtTheFloorAndPointsNoLongerDecreasing) {
  // Second order down to h = 0.005, then a round-off plateau.
  std::vector<std::pair<double, double>> points = {
      {0.04, 1.6e-3}, {0.02, 4e-4}, {0.01, 1e-4}, {0.005, 2.5e-5}, {0.0025, 3e-5}, {0.00125, 2e-14}};
  const OrderFit fit = fit_order(points, 1e-13);
  EXPECT_NEAR(fit.order, 2.0, 1e-12);
  EXPECT_EQ(fit.used, 4);
  EXPECT_EQ(fit.total, 6);
  EXPECT_FALSE(fit.note.empty());
}

TEST(FitOrder, NeedsThreePoints) {
  const OrderFit fit = fit_order({{0.1, 1e-2}, {0.05, 2.5e-3}, {0.025, 1e-20}}, 1e-15);
  EXPECT_TRUE(std::isnan(fit.order));
  EXPECT_EQ(fit.used, 2);
}

TEST(BatchMeansDrift, FindsATrendUnderNoise) {
  GEOMINT_SEEDED_RNG(rng, 0);
  std::vector<double> t, e;
  for (int k = 0; k < 20000; ++k) {
    t.push_back(0.01 * k);
    e.push_back(1e-3 * t.back() + 0.05 * rng.normal());
  }
  const DriftEstimate d = batch_means_drift(t, e);
  EXPECT_NEAR(d.slope, 1e-3, 5.0 * d.standard_error);
  EXPECT_GT(d.t_statistic, 3.0);
}

TEST(BatchMeansDrift, FindsNoTrendInABoundedOscillation) {
  std::vector<double> t, e;
  for (int k = 0; k < 20000; ++k) {
    t.push_back(0.01 * k);
    e.push_back(std::sin(3.1 * t.back()) + 0.5 * std::sin(0.77 * t.back()));
  }
  const DriftEstimate d = batch_means_drift(t, e);
  EXPECT_LT(std::abs(d.t_statistic), 3.0) << d.slope << " +- " << d.standard_error;
}

TEST(SeriesDecimator, KeepsTheLargestMagnitudePerBinWithItsSign) {
  SeriesDecimator dec(0.0, 10.0, 5);  // bins of width 2
  for (int k = 0; k < 100; ++k) {
    const double t = 0.1 * k;
    const double e = (k == 33) ? -7.0 : 0.01 * k;  // a negative spike in bin 1 (t = 3.3)
    dec.add({t, e, std::abs(e), 1e-16, 0.0, 0.0, 0.1});
  }
  const auto rows = dec.rows();
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_DOUBLE_EQ(rows[1].energy_err, -7.0);
  EXPECT_DOUBLE_EQ(rows[4].energy_err, 0.99);
  EXPECT_NEAR(rows[4].t, 9.9, 1e-12);
}

}  // namespace
}  // namespace geomint
