// Label `unit`: the streamed long-time statistics (studies/long_time_statistics.hpp) against
// series whose answers are known in closed form: a bounded oscillation (alpha 0, no drift, t
// uncorrelated with |err|), exact powers t^(1/2) and t (alpha 1/2 and 1 to round-off), a random
// walk (alpha near 1/2), a NaN, an error that is exactly 0; and the bins' layout.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "studies/long_time_statistics.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

enum class Points { Every, Sampled };

/// One conserved invariant "E" whose error is err(t), followed from t = 0 at step h to T: every
/// point added, or only the samples (the others given to track_max, as the case runner does).
template <class F>
LongTimeSummary follow(double h, double T, F&& err, double E0 = 5.0, Points points = Points::Every,
                       std::int64_t* added = nullptr) {
  const std::vector<Invariant> declared = {{"E", InvariantKind::Energy, true}};
  LongTimeStatistics stats;
  stats.start(long_time_quantities(declared), 0.0, T);
  const auto steps = static_cast<long>(std::llround(T / h));
  std::vector<double> v(1);
  for (long k = 0; k <= steps; ++k) {
    const double t = static_cast<double>(k) * h;
    v[0] = E0 + (k == 0 ? 0.0 : err(t));
    if (points == Points::Every || stats.wants(t)) stats.add(t, v);
    else stats.track(t, v);
  }
  if (added) *added = stats.samples();
  return stats.summaries().front();
}

TEST(LongTimeStatistics, ABoundedOscillationHasAlphaZeroNoDriftAndNoCorrelation) {
  // err = 1e-6 sin(t): 1e6 steps of 1e-3 over T = 1000, 159 periods.
  const LongTimeSummary s = follow(1e-3, 1000.0, [](double t) { return 1e-6 * std::sin(t); });
  EXPECT_NEAR(s.alpha, 0.0, 0.02) << "+- " << s.alpha_se;
  EXPECT_NEAR(s.abs_max, 1e-6, 1e-12);
  EXPECT_LT(std::abs(s.drift), 3.0 * s.drift_se + 1e-12);
  EXPECT_LT(std::abs(s.correlation), 2e-3);  // Principia's bound for a symplectic method
  EXPECT_EQ(s.fit_bins, 21);  // the last two decades, 10 bins each, and the bin of t = T
}

TEST(LongTimeStatistics, PowersOfTGiveTheirExponent) {
  // Errors large beside E0's rounding (5 +- 4e-16): the fit then sees their exponent to 1e-9.
  const LongTimeSummary root = follow(1e-3, 1000.0, [](double t) { return 1e-3 * std::sqrt(t); });
  EXPECT_NEAR(root.alpha, 0.5, 1e-9);
  EXPECT_LT(root.alpha_se, 1e-9);
  const LongTimeSummary line = follow(1e-3, 1000.0, [](double t) { return -2e-3 * t; });
  EXPECT_NEAR(line.alpha, 1.0, 1e-9);
  EXPECT_NEAR(line.drift, -2e-3, 1e-12);  // the batch means of a line lie on it
  EXPECT_NEAR(line.correlation, 1.0, 1e-9);
  EXPECT_NEAR(line.abs_max, 2.0, 1e-12);
}

TEST(LongTimeStatistics, ARandomWalkGrowsLikeTheSquareRootOfTime) {
  // Round-off modelled as walks of +-1e-16 steps (Brouwer's law): the mean alpha of 16 walks of
  // 10^5 steps is near 1/2, not 0 or 1 (one walk's alpha scatters by about 0.1).
  testing::Rng rng(testing::test_seed());
  SCOPED_TRACE(rng.describe());
  double mean_alpha = 0.0;
  for (int walk = 0; walk < 16; ++walk) {
    double w = 0.0;
    mean_alpha += follow(1e-2, 1000.0, [&](double) { return w += rng.uniform() < 0.5 ? 1e-16 : -1e-16; }).alpha / 16.0;
  }
  EXPECT_GT(mean_alpha, 0.35);
  EXPECT_LT(mean_alpha, 0.65);
}

TEST(LongTimeStatistics, TheBinsAreTenPerDecadeAndHoldEveryPointAfterTheFirst) {
  const LongTimeSummary s = follow(0.01, 100.0, [](double t) { return t; });
  // t1 = 0.01 to 100: 40 bins and the bin of t = 100, of which 3 below t = 0.07 are narrower
  // than the step and hold no point (only bins that hold points are kept).
  ASSERT_EQ(s.bins.size(), 38u);
  std::int64_t points = 0;
  for (const LongTimeBin& b : s.bins) {
    EXPECT_NEAR(b.t_hi / b.t_lo, std::pow(10.0, 0.1), 1e-12);
    const double k = 10.0 * std::log10(b.t_lo / 0.01);  // edges at 0.01 * 10^(k/10)
    EXPECT_NEAR(k, std::round(k), 1e-9);
    EXPECT_LE(b.t_lo, b.min + 1e-12);  // err = t: every point lies in its bin
    EXPECT_LT(b.max, b.t_hi + 1e-12);
    points += b.count;
  }
  EXPECT_EQ(points, 10000);
}

TEST(LongTimeStatistics, SampledPointsGiveTheExponentsDriftAndCorrelationOfEveryPoint) {
  // 10^6 steps, 256 samples a bin on average from the bin where steps are sparser: a few
  // thousand samples, and the answers of every point within the samples' scatter.
  std::int64_t added = 0;
  const auto sine = [](double t) { return 1e-6 * std::sin(t); };
  const LongTimeSummary bounded = follow(1e-3, 1000.0, sine, 5.0, Points::Sampled, &added);
  EXPECT_LT(added, 20000);
  EXPECT_NEAR(bounded.alpha, 0.0, 0.02) << "+- " << bounded.alpha_se;
  EXPECT_NEAR(bounded.abs_max, 1e-6, 1e-12);  // every point's max (track_max), not the samples'
  EXPECT_LT(std::abs(bounded.drift), 3.0 * bounded.drift_se + 1e-12);
  EXPECT_LT(std::abs(bounded.correlation), 2e-3);
  const LongTimeSummary root = follow(1e-3, 1000.0, [](double t) { return 1e-3 * std::sqrt(t); }, 5.0, Points::Sampled);
  EXPECT_NEAR(root.alpha, 0.5, 1e-3);
  const LongTimeSummary line = follow(1e-3, 1000.0, [](double t) { return -2e-3 * t; }, 5.0, Points::Sampled);
  EXPECT_NEAR(line.alpha, 1.0, 1e-3);
  EXPECT_NEAR(line.drift, -2e-3, 1e-9);  // the batch means, weighted by time, lie on the line
  EXPECT_NEAR(line.correlation, 1.0, 1e-6);
  // A NaN between two samples is seen: the max follows every point.
  const LongTimeSummary nan = follow(1e-3, 1000.0, [](double t) { return std::abs(t - 700.0) < 5e-4 ? std::nan("") : 1e-9; },
                                     5.0, Points::Sampled);
  EXPECT_TRUE(std::isnan(nan.abs_max));
  EXPECT_EQ(nan.alpha_note, "a non-finite error");
}

TEST(LongTimeStatistics, ANaNMakesTheSummaryNaN) {
  const LongTimeSummary s = follow(1e-3, 10.0, [](double t) { return t > 5.0 && t < 5.0015 ? std::nan("") : 1e-9; });
  EXPECT_TRUE(std::isnan(s.alpha));
  EXPECT_TRUE(std::isnan(s.abs_max));
  EXPECT_EQ(s.alpha_note, "a non-finite error");
}

TEST(LongTimeStatistics, AnErrorThatIsExactlyZeroHasNoExponent) {
  const LongTimeSummary s = follow(1e-3, 10.0, [](double) { return 0.0; });
  EXPECT_TRUE(std::isnan(s.alpha));
  EXPECT_EQ(s.abs_max, 0.0);
  EXPECT_NE(s.alpha_note.find("exactly 0"), std::string::npos) << s.alpha_note;
}

TEST(LongTimeStatistics, ADenormalFirstStepGivesABoundedNumberOfBins) {
  const std::vector<Invariant> declared = {{"E", InvariantKind::Energy, true}};
  LongTimeStatistics stats;
  stats.start(long_time_quantities(declared), 0.0, 1.0);
  std::vector<double> v = {1.0};
  for (double t : {0.0, 5e-324, 1e-300, 0.5, 1.0}) stats.add(t, v);
  const LongTimeSummary s = stats.summaries().front();
  // t = 0 is in no bin; 5e-324 and 1e-300 in their own; 0.5 and 1, more than kMaxDecades from
  // the first, in the last bin.
  EXPECT_EQ(s.bins.size(), 3u);
  EXPECT_EQ(s.abs_max, 0.0);
}

TEST(LongTimeStatistics, FollowsConservedInvariantsAndEveryDefect) {
  const std::vector<Invariant> declared = {{"energy", InvariantKind::Energy, false},
                                           {"Lz", InvariantKind::Momentum, true},
                                           {"unit_1", InvariantKind::ManifoldDefect, false},
                                           {"g", InvariantKind::ConstraintResidual, false}};
  const auto q = long_time_quantities(declared);
  ASSERT_EQ(q.size(), 3u);  // not the energy the exact flow does not conserve
  EXPECT_EQ(q[0].name, "Lz");
  EXPECT_TRUE(q[0].change);
  EXPECT_FALSE(q[1].change);  // a defect's value is its error
  EXPECT_EQ(q[2].index, 3u);
}

}  // namespace
}  // namespace geomint
