// Label `unit`: the metric definitions against series with known answers.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "studies/metrics.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

/// A model's declarations as the metrics see them: energy, a momentum Lz, a Casimir C, and one
/// body q1 on S^2 with its velocity w1 (whose defects unit_1, tangency_1 follow the declared
/// invariants).
struct Declared {
  std::vector<Invariant> invariants = {{"energy", InvariantKind::Energy, true},
                                       {"Lz", InvariantKind::Momentum, true},
                                       {"C", InvariantKind::Casimir, true}};
  StateLayout layout;
  Declared() {
    layout.add("q1", Manifold::S2, 3, "1");
    layout.add("w1", Manifold::TangentS2, 3, "1", 0);
  }
  MetricPlan plan() const { return make_metric_plan(invariants, layout); }
};

/// One output point: the invariants' values and a state whose |1 - q.q| is `llm_unit`.
void add(MetricAccumulator& acc, double t, double energy, double unit = 0.0,
         double tangency = 0.0, double lz = 0.0, double casimir = 0.0, double llm_unit = 0.0) {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(6);
  y(0) = std::sqrt(1.0 + llm_unit);
  acc.add(t, {energy, lz, casimir, unit, tangency}, y);
}

TEST(MetricAccumulator, EnergyMaxMeanAndSlopeOfALinearDrift) {
  MetricAccumulator acc(Declared().plan());
  // E(t) = 5 + 0.3 t on t = 0, 0.5, ..., 10: |e| = 0.3 t, mean 1.5, max 3, slope 0.3.
  for (int k = 0; k <= 20; ++k) add(acc, 0.5 * k, 5.0 + 0.15 * k);
  const Metrics m = acc.result();
  EXPECT_EQ(m.output_points, 21);
  EXPECT_NEAR(m.energy_err_max, 3.0, 1e-14);
  EXPECT_NEAR(m.energy_err_mean, 1.5, 1e-14);
  EXPECT_NEAR(m.energy_drift_per_time, 0.3, 1e-13);
  EXPECT_NEAR(m.energy_rel_err_max, 3.0 / 5.0, 1e-14);
}

TEST(MetricAccumulator, ManifoldMomentumCasimirAndLlmUnitLength) {
  MetricAccumulator acc(Declared().plan());
  add(acc, 0.0, 1.0, 1e-15, 2e-16, 7.0, 3.0, 2e-5);
  add(acc, 1.0, 1.0, 3e-15, -4e-16, 7.5, 3.25, 6e-5);
  add(acc, 2.0, 1.0, 2e-15, 1e-16, 6.0, 2.5, 4e-5);
  const Metrics m = acc.result();
  EXPECT_DOUBLE_EQ(m.manifold_err_max, 3e-15);
  EXPECT_DOUBLE_EQ(m.tangency_err_max, 4e-16);  // defects are taken as magnitudes
  EXPECT_DOUBLE_EQ(m.manifold_defect_max, 3e-15);
  EXPECT_DOUBLE_EQ(m.momentum_err_max, 1.0);
  EXPECT_DOUBLE_EQ(m.momentum_rel_err_max, 1.0 / 7.0);
  EXPECT_DOUBLE_EQ(m.casimir_err_max, 0.5);
  EXPECT_NEAR(m.unit_length_err_mean, (2e-5 + 6e-5 + 4e-5) / 3.0, 1e-15);  // from the state
  EXPECT_DOUBLE_EQ(m.energy_drift_per_time, 0.0);
  EXPECT_TRUE(std::isnan(m.constraint_err_max));  // none declared
}

TEST(MetricAccumulator, ANanAnywhereMakesTheMaximaItEntersNan) {
  MetricAccumulator acc(Declared().plan());
  add(acc, 0.0, 1.0);
  add(acc, 1.0, std::nan(""), std::nan(""));
  add(acc, 2.0, 1.5, 1e-3);  // larger values later must not hide the NaN
  const Metrics m = acc.result();
  EXPECT_TRUE(std::isnan(m.energy_err_max));
  EXPECT_TRUE(std::isnan(m.manifold_err_max));
  EXPECT_TRUE(std::isnan(m.manifold_defect_max));
  EXPECT_DOUBLE_EQ(m.momentum_err_max, 0.0);
}

TEST(MetricAccumulator, MetricsWithoutADeclarationAreNanAndRotationDefectsCount) {
  // A rigid body's declarations: a rotation Q on SO(3) and a momentum on so(3)*, no energy.
  StateLayout layout;
  layout.add("Q", Manifold::SO3, 9, "Q");
  layout.add("Pi", Manifold::so3_dual, 3, "Pi");
  ASSERT_EQ(layout.defect_names(), (std::vector<std::string>{"orthogonality_Q", "det_Q"}));
  const MetricPlan plan = make_metric_plan({}, layout);
  EXPECT_FALSE(plan.has_sphere_blocks());
  MetricAccumulator acc(plan);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(12);
  acc.add(0.0, {1e-14, -3e-14}, y);
  const Metrics m = acc.result();
  EXPECT_DOUBLE_EQ(m.manifold_defect_max, 3e-14);
  for (double absent : {m.energy_err_max, m.momentum_err_max, m.casimir_err_max,
                        m.manifold_err_max, m.tangency_err_max, m.unit_length_err_mean})
    EXPECT_TRUE(std::isnan(absent));
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
    dec.add({t, e, std::abs(e), 1e-16, 0.0, 0.0, 0.1, 0.0, 0.0});
  }
  const auto rows = dec.rows();
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_DOUBLE_EQ(rows[1].energy_err, -7.0);
  EXPECT_DOUBLE_EQ(rows[4].energy_err, 0.99);
  EXPECT_NEAR(rows[4].t, 9.9, 1e-12);
}

}  // namespace
}  // namespace geomint
