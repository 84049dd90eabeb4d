// Tests of reference/cvode.hpp against computations that do not involve CVODE: our classical
// RK4 at a tiny step, the energy of the spherical pendulum, counts of right-hand-side calls
// made here, and closed-form failure points of small test-local ODEs; and BDF with matrix-free
// GMRES against the dense BDF and Boost.Odeint's Fehlberg 7(8).
//
// Accuracy bounds. Global errors are measured as in the result files (docs/result-files.md):
// ‖y(T) - y_ref(T)‖₂ in the ambient space. CVODE keeps each step's local error estimate below
// 1 in its weighted RMS norm, weights 1 / (rtol |y_i| + atol), so one step's error in the
// 2-norm is of the order of the tolerance scale
//   tau = ‖rtol |y(T)| + atol‖₂.
// The global error after T = 10 is a sum of some 10^3-10^4 such local errors, each amplified
// by the flow (perturbing one component of y0 by d moves this trajectory's y(10) by up to
// 40 d, measured with RK4), so it is not bounded by tau itself; we allow three decades,
// 1000 tau. Between tolerances a factor 100 apart the error must fall by at least 10:
// controlling the error per step at order q makes the global error scale as tol^(q/(q+1)),
// an exponent of at least 1/2.

#include "reference/cvode.hpp"
#include "reference/odeint.hpp"
#include "reference/sundials_build.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <regex>
#include <string>
#include <vector>

#include "integrators/classical_methods.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/parameters.hpp"
#include "models/spherical_pendulum.hpp"

namespace {

using geomint::Cvode;
using geomint::ReferenceOptions;
using geomint::DoubleSphericalPendulum;
using geomint::FailureKind;
using geomint::IntegrationFailure;
using geomint::IntegratorOptions;
using geomint::SphericalPendulum;
using Dsp = DoubleSphericalPendulum;

constexpr double kT = 10.0;
constexpr double kDecades = 1000.0;  // global error / tolerance scale allowed (see top)

/// A model with its first preset's parameters and initial state (double pendulum: lee2009,
/// spherical pendulum: swing).
template <class M>
struct Problem {
  Problem() : model(parameters()), y0(M::presets()[0].initial_state(model)) {}
  static geomint::ParameterSet parameters() {
    auto p = M::default_parameters();
    M::presets()[0].set_parameters(p);
    return p;
  }
  M model;
  typename M::State y0;
};

IntegratorOptions adaptive(double rtol, double atol, double T) {
  IntegratorOptions opt;
  opt.tolerances.rtol = rtol;
  opt.tolerances.atol = atol;
  opt.T = T;
  return opt;
}

/// `Integrator` from (0, y0) to T with integrate(); the final state.
template <class Integrator = Cvode<Dsp>>
Dsp::State final_state(const Problem<Dsp>& p, double rtol, double atol, double T) {
  Integrator integrator(p.model, adaptive(rtol, atol, T));
  Dsp::State y = p.y0;
  geomint::integrate(integrator, y, 0.0, T, [](double, const Dsp::State&) {});
  return y;
}

/// tau = ‖rtol |y| + atol‖₂, the size of one step's allowed error (see top).
double tolerance_scale(const Dsp::State& y, double rtol, double atol) {
  return (rtol * y.cwiseAbs().array() + atol).matrix().norm();
}

// ---- accuracy --------------------------------------------------------------------------------

TEST(CvodeAccuracy, DoublePendulumGlobalErrorAgainstRk4) {
  // The reference: RK4 on the double pendulum (lee2009) to T = 10 at h = 1e-4, and at 2e-4 to
  // bound its error: that is ~|y_h - y_2h| / 15 plus round-off of the order of |y_h - y_2h|
  // itself, and must be a hundred times below the tightest bound we test CVODE against.
  const Problem<Dsp> p;
  auto rk4 = [&](double h) {
    const geomint::FixedStep step{h};
    geomint::Rk4<Dsp> method(p.model);
    Dsp::State y = p.y0;
    geomint::integrate(method, y, 0.0, kT, step, [](double, const Dsp::State&) {});
    return y;
  };
  const Dsp::State ref = rk4(1e-4);
  const double rk4_spread = (ref - rk4(2e-4)).norm();
  std::printf("  RK4 |y(h = 1e-4) - y(h = 2e-4)| = %.3e\n", rk4_spread);
  ASSERT_LE(rk4_spread, kDecades * tolerance_scale(ref, 1e-12, 1e-14) / 100.0);

  // CVODE at rtol 1e-8, 1e-10, 1e-12 with atol = rtol / 100 (1e-14 at the tightest).
  const std::vector<double> rtols = {1e-8, 1e-10, 1e-12};
  std::vector<double> errs;
  for (const double rtol : rtols) {
    const double atol = rtol / 100.0;
    const double err = (final_state(p, rtol, atol, kT) - ref).norm();
    const double tau = tolerance_scale(ref, rtol, atol);
    std::printf("  rtol %.0e, atol %.0e: global error %.3e = %.0f tau (bound %.3e)\n", rtol, atol,
                err, err / tau, kDecades * tau);
    EXPECT_LE(err, kDecades * tau) << "rtol " << rtol;
    errs.push_back(err);
  }
  for (std::size_t k = 0; k + 1 < errs.size(); ++k)
    EXPECT_GE(errs[k], 10.0 * errs[k + 1]) << "rtol " << rtols[k] << " -> " << rtols[k + 1];
}

TEST(CvodeAccuracy, SphericalPendulumEnergyDrift) {
  // Not symplectic: energy is conserved only as well as the solution is accurate, and
  // |E(y) - E0| <= |grad E| |y - y_exact|. Here E0 = 5/2 - 9.81/2 = -2.4 (m = l = 1), |y| = 2.4
  // so tau = 2.4e-12 at rtol 1e-12, and |grad E| ~ m g l + m l^2 |w|^2 = 15: the global-error
  // allowance 1000 tau gives |E - E0| / |E0| <= 15 * 1000 * 2.4e-12 / 2.4 = 1.5e-8.
  constexpr double kBound = 1.5e-8;
  const Problem<SphericalPendulum> p;
  Cvode<SphericalPendulum> cvode(p.model, adaptive(1e-12, 1e-14, kT));
  const double e0 = p.model.energy(p.y0);
  double drift = 0.0;
  auto y = p.y0;
  geomint::integrate(cvode, y, 0.0, kT, [&](double, const SphericalPendulum::State& yi) {
    drift = std::max(drift, std::abs(p.model.energy(yi) - e0) / std::abs(e0));
  });
  std::printf("  max |E - E0| / |E0| = %.3e over %lld steps\n", drift,
              static_cast<long long>(cvode.work().steps));
  EXPECT_LT(drift, kBound);
}

TEST(CvodeAccuracy, BdfGmresAgreesWithDenseBdfAndOdeint) {
  // The same BDF with the Newton systems solved by matrix-free GMRES instead of a dense LU: at
  // rtol 1e-10, atol 1e-12 each solution lies within the accuracy test's 1000 tau of the exact
  // one, so two of them lie within 2000 tau of each other. The second witness is Fehlberg 7(8)
  // at rtol 1e-13, atol 1e-15, whose own error is far below that.
  using Gmres = Cvode<Dsp, geomint::CvodeMethod::BdfGmres>;
  const Problem<Dsp> p;
  constexpr double kRtol = 1e-10, kAtol = 1e-12;
  const Dsp::State gmres = final_state<Gmres>(p, kRtol, kAtol, kT);
  const Dsp::State dense = final_state(p, kRtol, kAtol, kT);
  const Dsp::State rkf78 = final_state<geomint::OdeintRkf78<Dsp>>(p, 1e-13, 1e-15, kT);
  const double bound = 2.0 * kDecades * tolerance_scale(rkf78, kRtol, kAtol);
  std::printf("  |gmres - dense bdf| = %.3e, |gmres - rkf78| = %.3e, |dense bdf - rkf78| = %.3e "
              "(bound %.3e)\n",
              (gmres - dense).norm(), (gmres - rkf78).norm(), (dense - rkf78).norm(), bound);
  EXPECT_LE((gmres - dense).norm(), bound);
  EXPECT_LE((gmres - rkf78).norm(), bound);
  EXPECT_NE(gmres, dense);  // a different linear solver: not the same run by accident
}

// ---- interface contract ----------------------------------------------------------------------

/// Forwards to a model and counts the right-hand-side calls.
template <class M>
struct Counting {
  using State = typename M::State;
  const M& base;
  mutable std::int64_t calls = 0;
  Eigen::Index dimension() const { return base.dimension(); }
  void rhs(double t, const State& y, State& dy) const {
    ++calls;
    base.rhs(t, y, dy);
  }
  void project(State& y) const { base.project(y); }
};

TEST(CvodeContract, ObserverTimesAndWorkCounters) {
  const Problem<Dsp> p;
  const Counting<Dsp> counting{p.model};
  Cvode<Counting<Dsp>> cvode(counting, adaptive(1e-10, 1e-12, kT));
  std::vector<double> times;
  auto y = p.y0;
  geomint::integrate(cvode, y, 0.0, kT, [&](double t, const Dsp::State&) { times.push_back(t); });

  ASSERT_GE(times.size(), 2U);
  EXPECT_EQ(times.front(), 0.0);
  EXPECT_EQ(times.back(), kT);  // exactly: CVODE stops at T (CVodeSetStopTime)
  for (std::size_t i = 1; i < times.size(); ++i) ASSERT_LT(times[i - 1], times[i]) << i;

  const auto& w = cvode.work();
  std::printf("  steps %lld, rejected %lld, f_evals %lld, nonlinear iterations %lld\n",
              static_cast<long long>(w.steps), static_cast<long long>(w.rejected),
              static_cast<long long>(w.f_evals), static_cast<long long>(w.nonlinear_iterations));
  EXPECT_EQ(w.steps + 1, static_cast<std::int64_t>(times.size()));  // one output per step
  EXPECT_GE(w.rejected, 0);
  EXPECT_GE(w.nonlinear_iterations, w.steps);  // at least one Newton iteration per step
  EXPECT_GE(w.f_evals, w.steps);
  EXPECT_EQ(w.f_evals, counting.calls);  // CVODE's counts, Jacobian columns included
  EXPECT_EQ(w.exponentials, 0);
}

TEST(CvodeContract, BdfGmresCountsItsJacobianVectorProducts) {
  // Matrix-free: every J v is a difference quotient costing one f, counted in f_evals.
  const Problem<Dsp> p;
  const Counting<Dsp> counting{p.model};
  Cvode<Counting<Dsp>, geomint::CvodeMethod::BdfGmres> cvode(counting, adaptive(1e-10, 1e-12, kT));
  auto y = p.y0;
  geomint::integrate(cvode, y, 0.0, kT, [](double, const Dsp::State&) {});
  const auto& w = cvode.work();
  std::printf("  steps %lld, f_evals %lld, nonlinear iterations %lld\n",
              static_cast<long long>(w.steps), static_cast<long long>(w.f_evals),
              static_cast<long long>(w.nonlinear_iterations));
  EXPECT_GE(w.nonlinear_iterations, w.steps);
  EXPECT_GT(w.f_evals, w.nonlinear_iterations);  // Newton's f, and at least one J v
  EXPECT_EQ(w.f_evals, counting.calls);
}

TEST(CvodeContract, ModifiedStateRestartsTheSolver) {
  // Projecting the state half way changes it (by round-off): the adapter must continue from
  // the projected state, exactly as a new solver started there does.
  const Problem<Dsp> p;
  const double T = 2.0;
  Cvode<Dsp> restarted(p.model, adaptive(1e-10, 1e-12, T));
  double t = 0.0;
  auto y = p.y0;
  const auto ignore = [](double, const Dsp::State&) {};
  while (t < 1.0) restarted.advance(t, y, T, ignore);
  const std::int64_t steps_before = restarted.work().steps;
  const auto before = y;
  p.model.project(y);
  ASSERT_NE(y, before) << "projection left the state bit for bit unchanged; pick another time";

  IntegratorOptions opt = adaptive(1e-10, 1e-12, T);
  opt.t0 = t;
  Cvode<Dsp> fresh(p.model, opt);
  auto y_fresh = y;
  geomint::integrate(fresh, y_fresh, t, T, ignore);
  geomint::integrate(restarted, y, t, T, ignore);

  EXPECT_EQ(y, y_fresh);
  EXPECT_EQ(restarted.work().steps, steps_before + fresh.work().steps);
}

TEST(CvodeContract, RejectsBadOptions) {
  const Problem<Dsp> p;
  EXPECT_THROW(Cvode<Dsp>(p.model, adaptive(0.0, 1e-12, kT)), geomint::InputError);
  EXPECT_THROW(Cvode<Dsp>(p.model, adaptive(1e-10, -1.0, kT)), geomint::InputError);
  EXPECT_THROW(Cvode<Dsp>(p.model, adaptive(1e-10, 1e-12, 0.0)), geomint::InputError);
  EXPECT_THROW(Cvode<Dsp>(p.model, adaptive(1e-10, 1e-12, kT), ReferenceOptions{0}),
               geomint::InputError);
}

TEST(CvodeContract, ReportsItsSundialsVersion) {
  const std::string version = geomint::sundials_version();
  std::printf("  SUNDIALS %s\n", version.c_str());
  EXPECT_TRUE(std::regex_match(version, std::regex(R"([0-9]+\.[0-9]+\.[0-9]+.*)"))) << version;
}

// The libraries this test loaded are those it was linked against (its RUNPATH names the prefix
// of a build by scripts/build-sundials ahead of Debian's folder), so the build is one of the two
// known ones and only the -O3 one counts as optimised.
TEST(CvodeContract, ReportsTheSundialsBuildItLoaded) {
  const geomint::SundialsBuild build = geomint::sundials_build();
  std::printf("  SUNDIALS build: %s\n", build.description.c_str());
  if (build.optimised) {
    EXPECT_TRUE(build.description.starts_with("source -O3 (")) << build.description;
  } else {
    EXPECT_EQ(build.description, "debian (unoptimised)");
  }
}

// ---- typed failures --------------------------------------------------------------------------

/// Runs integrate() and returns the failure it throws (failing the test if none).
template <class M>
IntegrationFailure failure_of(Cvode<M>& cvode, typename M::State y, double T,
                              double* last_output = nullptr) {
  try {
    geomint::integrate(cvode, y, 0.0, T, [&](double t, const typename M::State&) {
      if (last_output != nullptr) *last_output = t;
    });
  } catch (const IntegrationFailure& e) {
    std::printf("  %s\n", e.what());
    return e;
  }
  ADD_FAILURE() << "no failure thrown";
  return IntegrationFailure(FailureKind::NonConvergence, std::numeric_limits<double>::quiet_NaN(),
                            "none");
}

TEST(CvodeFailure, StepLimitIsTooMuchWork) {
  const Problem<Dsp> p;
  Cvode<Dsp> cvode(p.model, adaptive(1e-10, 1e-12, kT), ReferenceOptions{10});
  double last = 0.0;
  const auto e = failure_of(cvode, p.y0, kT, &last);
  EXPECT_EQ(e.kind(), FailureKind::TooMuchWork);
  EXPECT_GT(e.time(), 0.0);
  EXPECT_EQ(e.time(), last);  // where the tenth step ended
  EXPECT_EQ(cvode.work().steps, 10);
  EXPECT_NE(e.detail().find("10 steps"), std::string::npos) << e.detail();
}

/// y' = -y, but the vector field is NaN for t > 0.5.
struct NanAfterHalf {
  using State = Eigen::Matrix<double, 1, 1>;
  Eigen::Index dimension() const { return 1; }
  void rhs(double t, const State& y, State& dy) const {
    dy(0) = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : -y(0);
  }
  void project(State&) const {}
};

TEST(CvodeFailure, NonFiniteVectorFieldIsNonFinite) {
  const NanAfterHalf model;
  Cvode<NanAfterHalf> cvode(model, adaptive(1e-8, 1e-10, 1.0));
  double last = 0.0;
  const auto e = failure_of(cvode, NanAfterHalf::State::Ones(), 1.0, &last);
  EXPECT_EQ(e.kind(), FailureKind::NonFinite);
  // BDF evaluates f at the end of every step attempt, so no step can end after 0.5 and the
  // failing evaluation lies after 0.5, one step attempt past the last output (steps of
  // y' = -y at rtol 1e-8 are a few hundredths).
  EXPECT_LE(last, 0.5);
  EXPECT_GT(e.time(), 0.5);
  EXPECT_LT(e.time(), 0.6);
  EXPECT_NE(e.detail().find("CV_RHSFUNC_FAIL"), std::string::npos) << e.detail();
}

/// y' = y^2, y(0) = 1: y = 1 / (1 - t) blows up at t = 1.
struct BlowUp {
  using State = Eigen::Matrix<double, 1, 1>;
  Eigen::Index dimension() const { return 1; }
  void rhs(double, const State& y, State& dy) const { dy(0) = y(0) * y(0); }
  void project(State&) const {}
};

TEST(CvodeFailure, FiniteTimeBlowUpStopsBeforeIt) {
  // The numerical solution blows up just before t = 1, and the steps shrink below the spacing
  // of doubles at t. CVODE itself only warns then (t + h == t) and steps on, changing y but
  // not t, until y overflows; the adapter stops at the first step that does not advance t.
  const BlowUp model;
  Cvode<BlowUp> cvode(model, adaptive(1e-8, 1e-10, 2.0));
  const auto e = failure_of(cvode, BlowUp::State::Ones(), 2.0);
  std::printf("  blow-up: %s at t = 1 - %.3e after %lld steps\n",
              std::string(to_string(e.kind())).c_str(), 1.0 - e.time(),
              static_cast<long long>(cvode.work().steps));
  EXPECT_TRUE(e.kind() == FailureKind::StepSizeUnderflow || e.kind() == FailureKind::TooMuchWork)
      << to_string(e.kind());
  EXPECT_LT(e.time(), 1.0 + 1e-6);
}

/// y' = -y, but the model throws for t > 0.5 (as a model may when the state is meaningless).
struct ThrowsAfterHalf {
  using State = Eigen::Matrix<double, 1, 1>;
  Eigen::Index dimension() const { return 1; }
  void rhs(double t, const State& y, State& dy) const {
    if (t > 0.5) throw geomint::LeftManifold(t, "test model");
    dy(0) = -y(0);
  }
  void project(State&) const {}
};

TEST(CvodeFailure, ExceptionFromTheModelPassesThroughCvode) {
  const ThrowsAfterHalf model;
  Cvode<ThrowsAfterHalf> cvode(model, adaptive(1e-8, 1e-10, 1.0));
  const auto e = failure_of(cvode, ThrowsAfterHalf::State::Ones(), 1.0);
  EXPECT_EQ(e.kind(), FailureKind::LeftManifold);
  EXPECT_GT(e.time(), 0.5);
}

}  // namespace
