// Label `reproduction`: LLM Example 1 (double spherical pendulum, preset lee2009, T = 100) with
// ode45's default tolerances (RelTol 1e-3, AbsTol 1e-6), integrated by our Dormand-Prince
// (dopri45, ode45's step control) and by Boost.Odeint's runge_kutta_dopri5 under
// make_controlled (odeint_dopri5): the same Dormand-Prince 5(4) pair, two step-size controls.
// They take accepted-step counts within 10% of each other, and we say why they differ at all.
//
// The two controls, for the error vector e = h sum_j E_j k_j of one attempt from y to ynew:
//   ode45:  accept iff max_i |e_i| / max(|y_i|, |ynew_i|, atol/rtol) <= rtol; after a clean
//           step h <- h / max(0.2, 1.25 (err/rtol)^(1/5)) (it aims at err ~ 0.8^5 rtol = 0.33
//           rtol); after a first rejection h <- h max(0.1, 0.8 (rtol/err)^(1/5)), after more
//           h <- h / 2, and no growth on the step that follows a rejection;
//   odeint: accept iff err = max_i |e_i| / (atol + rtol (|y_i| + h |y'_i|)) <= 1
//           (default_error_checker with a_x = a_dxdt = 1); after a success h grows by
//           0.9 err^(-1/5) only if err < 0.5 (at most 4.5 times) and is kept otherwise (it aims
//           at err in [0.5, 1]); after a rejection h <- h max(0.9 err^(-1/3), 0.2)
//           (default_step_adjuster, exponent 1/(error order - 1)).
// odeint's scale is the larger one: rtol (|y| + h|y'|) + atol >= rtol max(|y|, |ynew|) up to the
// step's curvature, and atol is added where ode45 takes a maximum. A larger scale allows longer
// steps: fewer accepted steps. odeint's controller aims closer to the rejection threshold and
// does not hold back after a rejection: more rejected attempts, about the same accepted ones.
// The second test separates the two with a replica of the Dormand-Prince step in which the
// error norm and the controller can be exchanged, checked first against both implementations.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "integrators/butcher_tableau.hpp"
#include "integrators/dormand_prince.hpp"
#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "reference/odeint.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using Dsp = DoubleSphericalPendulum;

constexpr double kRtol = 1e-3;  // ode45's defaults
constexpr double kAtol = 1e-6;
constexpr double kT = 100.0;

const testing::Setup<Dsp>& example1() {
  static const testing::Setup<Dsp> s = testing::make_setup<Dsp>("lee2009");
  return s;
}

IntegratorOptions ode45_defaults() {
  IntegratorOptions opt;
  opt.tolerances.rtol = kRtol;
  opt.tolerances.atol = kAtol;
  opt.T = kT;
  return opt;
}

struct Counts {
  std::int64_t steps = 0;
  std::int64_t rejected = 0;
};

template <class Integrator>
Counts counts_of() {
  Integrator integrator(example1().model, ode45_defaults());
  Dsp::State y = example1().initial;
  integrate(integrator, y, 0.0, kT, [](double, const Dsp::State&) {});
  return {integrator.work().steps, integrator.work().rejected};
}

TEST(DopriStepCounts, Ode45AndOdeintWithinTenPercentOnExample1) {
  const Counts ode45 = counts_of<Dopri45<Dsp>>();
  const Counts odeint = counts_of<OdeintDopri5<Dsp>>();
  const double difference =
      static_cast<double>(odeint.steps - ode45.steps) / static_cast<double>(ode45.steps);
  std::printf("  dopri45 (ode45):       %lld steps, %lld rejected\n",
              static_cast<long long>(ode45.steps), static_cast<long long>(ode45.rejected));
  std::printf("  odeint_dopri5:         %lld steps, %lld rejected (accepted steps %+.1f%%)\n",
              static_cast<long long>(odeint.steps), static_cast<long long>(odeint.rejected),
              100.0 * difference);
  EXPECT_LE(std::abs(difference), 0.10);
}

// ---- where the difference comes from ---------------------------------------------------------

enum class Norm { Ode45, Odeint };
enum class Control { Ode45, Odeint };

/// One attempt's error measure: accept iff err <= tol.
struct ErrorEstimate {
  double err, tol;
};

/// The error of an attempt of size h from y (slopes k, result ynew) under either norm, each
/// computed with its implementation's own arithmetic, operation for operation, so that the
/// replica reproduces the implementations exactly rather than up to rounding: a last-bit
/// difference can tip one accept/reject decision, and on a chaotic orbit every step after it.
///   ode45:  h max_i |sum_j E_j k_ji| / max(|y_i|, |ynew_i|, atol/rtol)  against rtol
///           (dopri45's weighted_error_norm);
///   odeint: max_i |sum_j (h dc_j) k_ji| / (atol + rtol (|y_i| + h |k_0i|))  against 1
///           (runge_kutta_dopri5's x_err with its dc_j = c_j - b*_j, default_error_checker).
ErrorEstimate error_estimate(Norm norm, double h, const Dsp::State& y, const Dsp::State& ynew,
                             const std::array<Dsp::State, 7>& k) {
  double err = 0.0;
  if (norm == Norm::Ode45) {
    for (Eigen::Index i = 0; i < y.size(); ++i) {
      double e = 0.0;
      for (std::size_t j = 0; j < 7; ++j) e += kDormandPrinceErrorWeights[j] * k[j](i);
      err = std::max(err, std::abs(e) / std::max({std::abs(y(i)), std::abs(ynew(i)), kAtol / kRtol}));
    }
    return {h * err, kRtol};
  }
  constexpr std::array<std::size_t, 6> kSlopes = {0, 2, 3, 4, 5, 6};  // b*_2 = b_2 = 0
  const std::array<double, 6> dc = {35.0 / 384 - 5179.0 / 57600,   500.0 / 1113 - 7571.0 / 16695,
                                    125.0 / 192 - 393.0 / 640,     -2187.0 / 6784 + 92097.0 / 339200,
                                    11.0 / 84 - 187.0 / 2100,      -1.0 / 40};
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    double e = 0.0;
    for (std::size_t j = 0; j < 6; ++j) e += (h * dc[j]) * k[kSlopes[j]](i);
    err = std::max(err, std::abs(e) / (kAtol + kRtol * (std::abs(y(i)) + h * std::abs(k[0](i)))));
  }
  return {err, 1.0};
}

/// Dormand-Prince 5(4) from (0, y0) to T, starting with step h0, with either error norm and
/// either controller (see top; ode45's control also stretches a step to T when 1.1 h reaches
/// it and caps h at T/10, odeint's shortens the step that would pass T). Each controller is
/// written with its implementation's arithmetic, like the norms.
Counts replica(Norm norm, Control control, double h0) {
  constexpr auto& tab = kDormandPrinceTableau;
  const Dsp& model = example1().model;
  Dsp::State y = example1().initial, stage, ynew;
  std::array<Dsp::State, 7> k;
  model.rhs(0.0, y, k[0]);
  Counts counts;
  const double hmax = 0.1 * kT;
  double t = 0.0, h = h0;
  while (t < kT) {
    bool last = control == Control::Ode45 ? 1.1 * h >= kT - t : h >= kT - t;
    if (last) h = kT - t;
    bool clean = true;  // no rejection on this step yet
    for (;;) {
      for (std::size_t i = 1; i < 7; ++i) {
        stage = y;
        for (std::size_t j = 0; j < i; ++j) stage += (h * tab.a[i][j]) * k[j];
        if (i == 6) ynew = stage;
        model.rhs(t + tab.c[i] * h, stage, k[i]);
      }
      const auto [err, tol] = error_estimate(norm, h, y, ynew, k);
      if (err <= tol) {
        ++counts.steps;
        t = last ? kT : t + h;
        y = ynew;
        k[0] = k[6];
        if (control == Control::Ode45) {
          if (clean) {
            const double temp = 1.25 * std::pow(err / tol, 0.2);
            h = std::min(hmax, temp > 0.2 ? h / temp : 5.0 * h);
          }
        } else if (err / tol < 0.5) {
          h *= 9.0 / 10.0 * std::pow(std::max(std::pow(5.0, -5.0), err / tol), -1.0 / 5);
        }
        break;
      }
      ++counts.rejected;
      last = false;
      if (control == Control::Ode45) {
        h = clean ? h * std::max(0.1, 0.8 * std::pow(tol / err, 0.2)) : 0.5 * h;
      } else {
        h *= std::max(9.0 / 10.0 * std::pow(err / tol, -1.0 / 3), 1.0 / 5);
      }
      clean = false;
    }
  }
  return counts;
}

/// odeint's own controlled runge_kutta_dopri5 (make_controlled) from (0, y0) with step h0,
/// shortening the step that would pass T, as odeint's integrate_adaptive does.
Counts odeint_controlled(double h0) {
  namespace bno = boost::numeric::odeint;
  auto stepper = bno::make_controlled(kAtol, kRtol, detail::OdeintDopri5Stepper<Dsp::State>());
  const auto system = [](const Dsp::State& x, Dsp::State& dxdt, double t) {
    example1().model.rhs(t, x, dxdt);
  };
  Dsp::State y = example1().initial;
  double t = 0.0, dt = h0;
  Counts counts;
  while (t < kT) {
    const bool last = dt >= kT - t;
    if (last) dt = kT - t;
    if (stepper.try_step(system, y, t, dt) == bno::success) {
      ++counts.steps;
      if (last) t = kT;
    } else {
      ++counts.rejected;
    }
  }
  return counts;
}

TEST(DopriStepCounts, TheErrorNormMakesTheDifferenceTheControllerTheRejections) {
  // ode45's first step on Example 1, h0 = 4 x the first of its Refine = 4 outputs (its first
  // attempt is accepted here, as the replica's identical counts confirm).
  double first_output = 0.0;
  {
    Dopri45<Dsp> dopri(example1().model, ode45_defaults());
    Dsp::State y = example1().initial;
    integrate(dopri, y, 0.0, kT, [&](double t, const Dsp::State&) {
      if (first_output == 0.0) first_output = t;
    });
  }
  const double h0 = 4.0 * first_output;
  const Counts ode45 = counts_of<Dopri45<Dsp>>();
  const Counts odeint = odeint_controlled(h0);
  const Counts both_ode45 = replica(Norm::Ode45, Control::Ode45, h0);
  const Counts both_odeint = replica(Norm::Odeint, Control::Odeint, h0);
  const Counts odeint_norm = replica(Norm::Odeint, Control::Ode45, h0);
  const Counts odeint_control = replica(Norm::Ode45, Control::Odeint, h0);
  const auto print = [](const char* what, const Counts& c) {
    std::printf("  %-44s %4lld steps, %4lld rejected\n", what, static_cast<long long>(c.steps),
                static_cast<long long>(c.rejected));
  };
  std::printf("  from h0 = %.6g:\n", h0);
  print("dopri45", ode45);
  print("replica: ode45's norm and control", both_ode45);
  print("odeint's controlled runge_kutta_dopri5", odeint);
  print("replica: odeint's norm and control", both_odeint);
  print("replica: odeint's norm, ode45's control", odeint_norm);
  print("replica: ode45's norm, odeint's control", odeint_control);

  // The replica is each implementation, step for step.
  EXPECT_EQ(both_ode45.steps, ode45.steps);
  EXPECT_EQ(both_ode45.rejected, ode45.rejected);
  EXPECT_EQ(both_odeint.steps, odeint.steps);
  EXPECT_EQ(both_odeint.rejected, odeint.rejected);
  // Exchanging the norm moves the accepted steps (within 3% of the other implementation's
  // count); exchanging the controller leaves them within 3% and changes the rejections by at
  // least half.
  const auto close = [](const Counts& a, const Counts& b) {
    return std::abs(static_cast<double>(a.steps - b.steps)) <= 0.03 * static_cast<double>(b.steps);
  };
  EXPECT_TRUE(close(odeint_norm, odeint));
  EXPECT_TRUE(close(odeint_control, ode45));
  EXPECT_FALSE(close(ode45, odeint));
  EXPECT_GE(odeint_control.rejected, 3 * ode45.rejected / 2);
  EXPECT_GE(odeint.rejected, 3 * odeint_norm.rejected / 2);
}

}  // namespace
}  // namespace geomint
