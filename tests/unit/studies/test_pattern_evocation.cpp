// Label `unit`: pattern evocation (studies/pattern_evocation.hpp; DuToit §4, §5.5) against
// closed forms:
//   - the conical pendulum (models/conical_pendulum.hpp), exact at rate W: the frame xi = W
//     turns it into a fixed point (round-off), the critical frequency is W (round-off), and a
//     frame xi = W + d, which sees a circle traced at rate d, scores sqrt(2) |sin(d tau_min/2)|
//     when no whole turn of that circle fits in the lag range;
//   - the same relative equilibrium integrated by the explicit VI (order 2) at h and h/2: the
//     score of the frame xi = W falls by 4, the critical frequency's error too;
//   - q_i(t) = R_z(W t) c_i(t) with c_i periodic of period P: the frames W + 2 pi n / P close
//     after P and are the best frame, one pattern with the others as its aliases (a turn per
//     lag apart), also when the scan's rates miss them (refined); with lags up to 2.5 P the
//     frames W + 2 pi (n + 1/2) / P, closing after 2 P, close too (NOTES-dutoit 4), and with
//     lags up to 1.5 P they do not;
//   - a trajectory whose gap grows with the lag (a slow drift along e3) has its best lag on the
//     lag range's lower bound, which is flagged, and a drift large enough makes every score
//     exceed kClosingScore: no frame closes, and the evocation says so;
//   - the score against its definition evaluated by brute force: every sample turned into the
//     frame, every sampled lag;
//   - what cannot be scanned is an InputError.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "integrators/integrate.hpp"
#include "integrators/variational_explicit.hpp"
#include "models/conical_pendulum.hpp"
#include "models/spherical_pendulum.hpp"
#include "studies/pattern_evocation.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using std::numbers::pi;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Sampled {
  std::vector<double> times;
  std::vector<Eigen::Matrix3Xd> positions;
};

/// Samples body curves q_i(t) at t = k dt, k = 0 .. count - 1.
template <class... Curves>
Sampled sample(double dt, int count, const Curves&... curves) {
  Sampled s;
  for (int k = 0; k < count; ++k) s.times.push_back(k * dt);
  for (const auto& curve : {std::function<Eigen::Vector3d(double)>(curves)...}) {
    Eigen::Matrix3Xd q(3, count);
    for (int k = 0; k < count; ++k) q.col(k) = curve(s.times[static_cast<std::size_t>(k)]);
    s.positions.push_back(q);
  }
  return s;
}

Eigen::Vector3d turned(double angle, const Eigen::Vector3d& v) {
  return Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()) * v;
}

EvocationScan frames(double xi_min, double xi_max, int count) {
  EvocationScan scan;
  scan.xi_min = xi_min;
  scan.xi_max = xi_max;
  scan.count = count;
  return scan;
}

// ---- The conical pendulum: a relative equilibrium of rate W --------------------------------

const ConicalPendulum kCone(ConicalPendulum::kPresetAngle, 1.0, 9.81);
const double kW = kCone.rate();

TEST(PatternEvocation, TheFrameTurningWithARelativeEquilibriumSeesAFixedPoint) {
  const Sampled s = sample(0.01, 2001, [](double t) { return Eigen::Vector3d(kCone.at(t).head<3>()); });
  const auto seen = frame_positions(s.times, s.positions, kW);
  const double drift = (seen[0].colwise() - seen[0].col(0)).colwise().norm().maxCoeff();
  EXPECT_LT(drift, 1e-13);

  // Default lags [T/10, T/2] = [2, 10] s; the circle seen at W +- 0.5 closes after 4 pi > 10 s.
  const Evocation e = evoke_patterns(s.times, s.positions, frames(kW - 0.5, kW + 0.5, 3));
  EXPECT_DOUBLE_EQ(e.lag_min, 2.0);
  EXPECT_DOUBLE_EQ(e.lag_max, 10.0);
  EXPECT_LT(e.frames[1].score, 1e-13);
  for (int j : {0, 2}) {
    EXPECT_NEAR(e.frames[static_cast<std::size_t>(j)].score, std::sqrt(2.0) * std::sin(0.5), 1e-12);
    EXPECT_DOUBLE_EQ(e.frames[static_cast<std::size_t>(j)].lag, 2.0);
  }
  ASSERT_EQ(e.best.size(), 1u);
  EXPECT_NEAR(e.best[0].xi, kW, 1e-12);
  EXPECT_NEAR(e.critical_frequency, kW, 1e-14 * kW);
  std::printf("exact RE: score at W %.3e, at W +- 0.5 %.6f; critical frequency - W = %.2e\n",
              e.frames[1].score, e.frames[0].score, e.critical_frequency - kW);
}

Sampled integrated_cone(double h, double T) {
  const auto setup = testing::make_setup<SphericalPendulum>("conical");
  const FixedStep step{h};
  ExplicitVariational<SphericalPendulum> vi(setup.model);
  SphericalPendulum::State y = setup.initial;
  Sampled s;
  std::vector<Eigen::Vector3d> q;
  integrate(vi, y, 0.0, T, step, [&](double t, const SphericalPendulum::State& yt) {
    s.times.push_back(t);
    q.push_back(yt.head<3>());
  });
  s.positions.emplace_back(3, static_cast<Eigen::Index>(q.size()));
  for (std::size_t k = 0; k < q.size(); ++k) s.positions[0].col(static_cast<Eigen::Index>(k)) = q[k];
  return s;
}

TEST(PatternEvocation, AnIntegratedRelativeEquilibriumScoresItsSecondOrderError) {
  std::vector<double> score, rate_error;
  for (double h : {0.01, 0.005}) {
    const Sampled s = integrated_cone(h, 20.0);
    const Evocation e = evoke_patterns(s.times, s.positions, frames(kW - 0.5, kW + 0.5, 3));
    score.push_back(e.frames[1].score);
    rate_error.push_back(std::abs(e.critical_frequency - kW));
    EXPECT_GT(e.frames[0].score, 0.5);
    EXPECT_GT(e.frames[2].score, 0.5);
    std::printf("vi_explicit h = %g: score at W %.4e, |critical frequency - W| %.4e\n", h, score.back(),
                rate_error.back());
  }
  EXPECT_LT(score[0], 1e-2);
  EXPECT_NEAR(score[0] / score[1], 4.0, 0.3);
  EXPECT_NEAR(rate_error[0] / rate_error[1], 4.0, 0.3);
}

// ---- A two-frequency trajectory whose closing frames are known -----------------------------

constexpr double kRate = 1.3;    // W: the group's rotation
constexpr double kPeriod = 1.6;  // P: the period of the shape, 160 samples of 0.01

/// Two bodies R_z(W t) c_i(t) with c_i of period P; neither c_i encircles the axis.
Sampled two_frequency(double period, double dt, int count) {
  const double nu = 2 * pi / period;
  return sample(
      dt, count,
      [=](double t) {
        return turned(kRate * t, Eigen::Vector3d(1 + 0.3 * std::cos(nu * t), 0.2 * std::sin(2 * nu * t), 0.5 * std::cos(nu * t)));
      },
      [=](double t) {
        return turned(kRate * t, Eigen::Vector3d(-0.4 + 0.2 * std::sin(nu * t), 0.7, 0.3 * std::sin(2 * nu * t)));
      });
}

/// The frames W + nu (n0 + j / per_turn) for j = 0 .. 5 per_turn: n from n0 to n0 + 5.
EvocationScan closing_grid(double period, int per_turn) {
  const double nu = 2 * pi / period;
  return frames(kRate - 2.5 * nu, kRate + 2.5 * nu, 5 * per_turn + 1);
}

/// A best frame's rate and its aliases', ascending.
std::vector<double> rates_of(const BestFrame& b) {
  std::vector<double> rates = b.aliases;
  rates.push_back(b.xi);
  std::sort(rates.begin(), rates.end());
  return rates;
}

TEST(PatternEvocation, TheBestFramesOfATwoFrequencyTrajectoryAreItsClosingFrames) {
  const Sampled s = two_frequency(kPeriod, 0.01, 1601);
  EvocationScan scan = closing_grid(kPeriod, 40);
  scan.lag_min = 0.5 * kPeriod;
  scan.lag_max = 1.5 * kPeriod;
  scan.best = 7;
  const Evocation e = evoke_patterns(s.times, s.positions, scan);
  ASSERT_GE(e.best.size(), 2u);
  EXPECT_LT(e.best[0].score, 1e-13);
  EXPECT_NEAR(e.best[0].lag, kPeriod, 1e-5);  // the parabola through three gaps, not quite symmetric
  EXPECT_TRUE(e.closes());
  EXPECT_FALSE(e.best[0].lag_on_bound);
  // The five closing frames are one pattern: the one nearest the critical frequency (W)
  // stands for the others, its aliases.
  const std::vector<double> found = rates_of(e.best[0]);
  ASSERT_EQ(found.size(), 5u);
  for (int n = -2; n <= 2; ++n) EXPECT_NEAR(found[static_cast<std::size_t>(n + 2)], kRate + 2 * pi * n / kPeriod, 1e-12);
  EXPECT_NEAR(e.best[0].xi, kRate, 1e-12);
  EXPECT_GT(e.best[1].score, 0.05);
  std::printf("closing frames: score %.1e, %zu aliases; the next local minimum %.3f at xi = %.4f\n", e.best[0].score,
              e.best[0].aliases.size(), e.best[1].score, e.best[1].xi);
  // The group turns at W: the shape does not encircle the axis.
  EXPECT_NEAR(e.critical_frequency, kRate, 0.02);
}

TEST(PatternEvocation, PatternsClosingAfterTwoPeriodsCountWhenTheLagRangeHoldsThem) {
  const Sampled s = two_frequency(kPeriod, 0.01, 1601);
  EvocationScan scan = closing_grid(kPeriod, 2);  // W + nu n / 2
  scan.lag_min = 0.5 * kPeriod;
  for (double lag_max : {1.5 * kPeriod, 2.5 * kPeriod}) {
    scan.lag_max = lag_max;
    const Evocation e = evoke_patterns(s.times, s.positions, scan);
    for (std::size_t j = 0; j < e.frames.size(); j += 2) {  // W + nu (n + 1/2)
      if (lag_max > 2 * kPeriod) {
        EXPECT_LT(e.frames[j].score, 1e-13) << "xi = " << e.frames[j].xi;
        EXPECT_NEAR(e.frames[j].lag, 2 * kPeriod, 1e-5);
      } else {
        EXPECT_GT(e.frames[j].score, 0.05) << "xi = " << e.frames[j].xi;
      }
    }
  }
}

TEST(PatternEvocation, APeriodBetweenSamplesIsFoundBetweenThem) {
  const double period = 1.6037;  // 160.37 samples
  const Sampled s = two_frequency(period, 0.01, 1601);
  EvocationScan scan = closing_grid(period, 40);
  scan.lag_min = 0.5 * period;
  scan.lag_max = 1.5 * period;
  const Evocation e = evoke_patterns(s.times, s.positions, scan);
  ASSERT_FALSE(e.best.empty());
  EXPECT_EQ(rates_of(e.best[0]).size(), 5u);
  for (const double xi : rates_of(e.best[0])) {
    const double n = (xi - kRate) / (2 * pi / period);
    EXPECT_NEAR(n, std::round(n), 1e-3) << "xi = " << xi;
  }
  EXPECT_LT(e.best[0].score, 1e-3);
  EXPECT_NEAR(e.best[0].lag, period, 1e-3);
  std::printf("period between samples: best score %.2e, lag %.6f for %.6f\n", e.best[0].score, e.best[0].lag, period);
}

TEST(PatternEvocation, AClosingFrameBetweenTheScansRatesIsRefined) {
  const Sampled s = two_frequency(kPeriod, 0.01, 1601);
  const double nu = 2 * pi / kPeriod, step = nu / 10;
  EvocationScan scan = frames(kRate - 2.37 * nu, kRate - 2.37 * nu + 50 * step, 51);  // 0.3 step off W + n nu
  scan.lag_min = 0.5 * kPeriod;
  scan.lag_max = 1.5 * kPeriod;
  const Evocation e = evoke_patterns(s.times, s.positions, scan);
  ASSERT_FALSE(e.best.empty());
  double grid_best = 1.0;
  for (const auto& f : e.frames) grid_best = std::min(grid_best, f.score);
  EXPECT_EQ(rates_of(e.best[0]).size(), 5u);
  for (const double xi : rates_of(e.best[0])) {
    const double n = (xi - kRate) / nu;
    EXPECT_NEAR(n, std::round(n), 2e-3) << "xi = " << xi;
  }
  EXPECT_LT(e.best[0].score, 0.05 * grid_best);
  std::printf("refined off-grid closing frames: best %.2e, the best rate on the grid %.2e\n", e.best[0].score,
              grid_best);
}

/// A body turning at W on a circle of radius 1 while it drifts along e3 at `drift` per second:
/// in every frame the gap grows with the lag (by drift * lag along e3).
Sampled drifting(double drift) {
  return sample(0.01, 1601, [=](double t) { return turned(kRate * t, Eigen::Vector3d(1.0, 0.0, drift * t)); });
}

TEST(PatternEvocation, ABestLagOnTheRangesBoundIsFlagged) {
  const Sampled s = drifting(0.001);
  EvocationScan scan = frames(kRate - 2.0, kRate + 2.0, 81);
  scan.lag_min = 1.0;
  scan.lag_max = 5.0;
  const Evocation e = evoke_patterns(s.times, s.positions, scan);
  ASSERT_FALSE(e.best.empty());
  EXPECT_NEAR(e.best[0].xi, kRate, 1e-6);
  EXPECT_NEAR(e.best[0].lag, 1.0, 1e-12);  // the shortest lag: the least drift
  EXPECT_TRUE(e.best[0].lag_on_bound);
  EXPECT_TRUE(e.closes());  // 0.001 / sqrt(2) at lag 1: it closes, but may do better below 1
}

TEST(PatternEvocation, WhenEveryScoreExceedsTheClosingScoreNoFrameCloses) {
  const Sampled s = drifting(0.2);  // a gap of 0.2 per second of lag along e3
  EvocationScan scan = frames(kRate - 2.0, kRate + 2.0, 81);
  scan.lag_min = 1.0;
  scan.lag_max = 5.0;
  const Evocation e = evoke_patterns(s.times, s.positions, scan);
  ASSERT_FALSE(e.best.empty());
  EXPECT_GT(e.best[0].score, kClosingScore);
  EXPECT_FALSE(e.closes());
}

// ---- The score against its definition --------------------------------------------------------

/// min over sampled lags of sqrt(<sum_i |q~_i(t+tau) - q~_i(t)|^2> / (2 R^2)), every sample
/// turned by R_z(-xi t) first.
double brute_force_score(const Sampled& s, double xi, int first_lag, int last_lag) {
  const int n = static_cast<int>(s.times.size());
  std::vector<Eigen::Matrix3Xd> seen = s.positions;
  double r2 = 0.0;
  for (auto& q : seen)
    for (int k = 0; k < n; ++k) {
      r2 += q.col(k).head<2>().squaredNorm() / n;
      q.col(k) = turned(-xi * s.times[static_cast<std::size_t>(k)], Eigen::Vector3d(q.col(k)));
    }
  double lowest = std::numeric_limits<double>::infinity();
  for (int m = first_lag; m <= last_lag; ++m) {
    double sum = 0.0;
    for (const auto& q : seen)
      for (int k = 0; k + m < n; ++k) sum += (q.col(k + m) - q.col(k)).squaredNorm();
    lowest = std::min(lowest, std::sqrt(sum / (n - m) / (2 * r2)));
  }
  return lowest;
}

TEST(PatternEvocation, TheScoreIsItsDefinition) {
  // Two incommensurate frequencies and a body moving off the group's rate: nothing closes.
  const Sampled s = sample(
      0.02, 400, [](double t) { return turned(0.7 * t, Eigen::Vector3d(1 + 0.2 * std::cos(std::sqrt(7.0) * t), 0.1, 0.3)); },
      [](double t) { return turned(-0.3 * t, Eigen::Vector3d(0.5, 0.2 * std::sin(std::sqrt(3.0) * t), -1.0)); });
  const Evocation e = evoke_patterns(s.times, s.positions, frames(-2.0, 2.0, 21));
  for (const auto& f : e.frames) {
    const double brute = brute_force_score(s, f.xi, 40, 199);  // lags [0.798, 3.99] s: 40 .. 199 samples
    EXPECT_LE(f.score, brute + 1e-14) << "xi = " << f.xi;
    EXPECT_GT(f.score, 0.999 * brute) << "xi = " << f.xi;
  }
}

// ---- What cannot be scanned ----------------------------------------------------------------

TEST(PatternEvocation, WhatCannotBeScannedIsAnInputError) {
  const Sampled s = two_frequency(kPeriod, 0.01, 201);
  const EvocationScan ok = frames(0.0, 1.0, 11);
  EXPECT_NO_THROW(evoke_patterns(s.times, s.positions, ok));
  const auto refused = [&](Sampled input, EvocationScan scan) {
    EXPECT_THROW(evoke_patterns(input.times, input.positions, scan), InputError);
  };
  refused(s, frames(1.0, 1.0, 11));
  refused(s, frames(0.0, kNaN, 11));
  refused(s, frames(0.0, 1.0, 1));
  EvocationScan lags = ok;
  lags.lag_max = 2.0;  // the span
  refused(s, lags);
  lags.lag_min = 0.101;
  lags.lag_max = 0.109;  // no whole spacing of 0.01 in it
  refused(s, lags);
  Sampled uneven = s;
  uneven.times[100] += 1e-4;
  refused(uneven, ok);
  Sampled nan = s;
  nan.positions[1](2, 7) = kNaN;
  refused(nan, ok);
  Sampled short_body = s;
  short_body.positions[0].conservativeResize(3, 200);
  refused(short_body, ok);
  refused(sample(0.1, 50, [](double t) { return Eigen::Vector3d(0, 0, t); }), ok);  // on the axis
  refused(sample(0.1, 2, [](double t) { return Eigen::Vector3d(1, t, 0); }), ok);
  refused(Sampled{s.times, {}}, ok);
}

TEST(PatternEvocation, AShorterLastStepIsLeftOut) {
  Sampled s = two_frequency(kPeriod, 0.01, 202);
  s.times.back() = s.times[200] + 0.004;  // a run that ends on T between steps
  const Evocation e = evoke_patterns(s.times, s.positions, frames(0.0, 1.0, 11));
  EXPECT_EQ(e.samples, 201u);
}

}  // namespace
}  // namespace geomint
