// Label `unit`: Dormand-Prince 5(4) with ode45's control, against closed forms.
//
// Test problem: the harmonic oscillator y'' = -y as a first-order system, exact solution
// (cos t, -sin t). Its ODE is linear, which is fine for these checks (consistency of the
// continuous extension, error-estimate order, tolerance proportionality); orders of accuracy
// are measured on nonlinear problems in the `order` tests.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "integrators/butcher_tableau.hpp"
#include "integrators/dormand_prince.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/integrate.hpp"

namespace geomint {
namespace {

struct Oscillator {
  using State = Eigen::Vector2d;
  Eigen::Index dimension() const { return 2; }
  void rhs(double, const State& y, State& dy) const { dy << y(1), -y(0); }
  void project(State&) const {}
};

/// Blows up with NaN once t > 0.5.
struct Poisoned {
  using State = Eigen::Matrix<double, 1, 1>;
  Eigen::Index dimension() const { return 1; }
  void rhs(double t, const State& y, State& dy) const {
    dy(0) = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : -y(0);
  }
  void project(State&) const {}
};

TEST(DormandPrinceTableau, TheContinuousExtensionEndsAtTheStep) {
  // At s = 1 the ntrp45 weights must equal b (the propagated solution).
  for (std::size_t j = 0; j < 7; ++j) {
    const auto& bi = kDormandPrinceDense[j];
    EXPECT_NEAR(bi[0] + bi[1] + bi[2] + bi[3], kDormandPrinceTableau.b[j], 1e-15) << "row " << j;
  }
  // Row sums of A are the nodes c, and b sums to one.
  double sum_b = 0.0;
  for (std::size_t i = 0; i < 7; ++i) {
    double row = 0.0;
    for (double a : kDormandPrinceTableau.a[i]) row += a;
    EXPECT_NEAR(row, kDormandPrinceTableau.c[i], 1e-15) << "row " << i;
    sum_b += kDormandPrinceTableau.b[i];
  }
  EXPECT_NEAR(sum_b, 1.0, 1e-15);
  double sum_e = 0.0;
  for (double e : kDormandPrinceErrorWeights) sum_e += e;
  EXPECT_NEAR(sum_e, 0.0, 1e-16);  // b and b^ are both consistent
}

TEST(DormandPrince, FollowsTheToleranceOnTheOscillator) {
  double last = 1.0;
  for (double rtol : {1e-4, 1e-6, 1e-8, 1e-10}) {
    IntegratorOptions opt;
    opt.tolerances.rtol = rtol;
    opt.tolerances.atol = rtol * 1e-3;
    opt.T = 10.0;
    const Oscillator model;
    Dopri45<Oscillator> dp(model, opt);
    Eigen::Vector2d y(1.0, 0.0);
    std::vector<double> times;
    double worst_dense = 0.0;
    integrate(dp, y, 0.0, 10.0, [&](double t, const Eigen::Vector2d& x) {
      times.push_back(t);
      worst_dense = std::max(worst_dense, (x - Eigen::Vector2d(std::cos(t), -std::sin(t))).norm());
    });
    const double err = (y - Eigen::Vector2d(std::cos(10.0), -std::sin(10.0))).norm();
    EXPECT_LT(err, 100.0 * rtol) << "rtol " << rtol;
    EXPECT_LT(err, last) << "rtol " << rtol;
    last = err;
    // Output: Refine 4 (three interpolated points per step, then its end), increasing, ending at T.
    EXPECT_EQ(times.size(), static_cast<std::size_t>(4 * dp.work().steps + 1));
    EXPECT_TRUE(std::is_sorted(times.begin(), times.end()));
    EXPECT_EQ(times.back(), 10.0);
    // The interpolant is as accurate as the steps it interpolates, to a modest factor.
    EXPECT_LT(worst_dense, 1000.0 * rtol) << "rtol " << rtol;
  }
}

TEST(DormandPrince, FirstStepIsOde45s) {
  // For y' = (y2, -y1), y0 = (1, 0): f0 = (0, -1), threshold = atol/rtol = 1e-3, so
  // rh = max(|0|/1, |-1|/1e-3) / (0.8 rtol^(1/5)) = 1e3 / (0.8 * 0.251189) and h0 = 1/rh.
  IntegratorOptions opt;  // ode45 defaults, T = 1
  const Oscillator model;
    Dopri45<Oscillator> dp(model, opt);
  Eigen::Vector2d y(1.0, 0.0);
  double t = 0.0;
  std::vector<double> out;
  dp.advance(t, y, 1.0, [&](double ti, const Eigen::Vector2d&) { out.push_back(ti); });
  const double h0 = 0.8 * std::pow(1e-3, 0.2) / 1e3;
  // The first attempt is accepted here (a smooth problem, tiny step), so t = h0.
  EXPECT_EQ(dp.work().rejected, 0);
  EXPECT_NEAR(t, h0, 1e-18);
  EXPECT_EQ(dp.work().f_evals, 7);  // f0 plus six stages
}

TEST(DormandPrince, ANonFiniteVectorFieldIsATypedFailure) {
  IntegratorOptions opt;
  opt.T = 2.0;
  const Poisoned model;
  Dopri45<Poisoned> dp(model, opt);
  Eigen::Matrix<double, 1, 1> y;
  y << 1.0;
  try {
    integrate(dp, y, 0.0, 2.0, [](double, const auto&) {});
    FAIL() << "expected NonFinite";
  } catch (const NonFinite& e) {
    EXPECT_NEAR(e.time(), 0.5, 0.01) << e.what();
    EXPECT_GT(dp.work().rejected, 10);  // the NaN estimate was rejected, not accepted
  }
}

// Tolerances are checked once, where they enter (integrators/step_control.hpp), not by the
// integrator they are given to.
TEST(DormandPrince, RejectsBadTolerances) {
  EXPECT_THROW(checked(Tolerances{-1.0, 1e-6}), InputError);
  EXPECT_THROW(checked(Tolerances{1e-3, 0.0}), InputError);
  EXPECT_NO_THROW(checked(Tolerances{1e-3, 1e-6}));
}

}  // namespace
}  // namespace geomint
