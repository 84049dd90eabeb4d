// Our Dormand-Prince (dopri45, MATLAB ode45's step control) against Boost.Odeint's controlled
// runge_kutta_dopri5 at equal accuracy: the double spherical pendulum (preset lee2009) from 0 to
// T = 10, each at the tolerances where both reach the same global error.
//
// Equal tolerances do not mean equal accuracy (ode45 measures the error estimate in a mixed
// max norm of its own, odeint relative to |x| + dt |dxdt|), so the tolerances are matched once,
// before the first of the two entries runs: dopri45 at rtol = atol = 1e-8, and odeint's
// rtol = atol bisected in log10 between 1e-12 and 1e-4 until its global error is within 10 % of
// dopri45's (at most 40 halvings; the closest one is kept if the error, which moves in small
// jumps with the step count, never gets there). Global errors are ‖y(T) - y_ref(T)‖₂ against
// Boost.Odeint's Fehlberg 7(8) at rtol 1e-13, atol 1e-15, whose own error (`reference_err`, its
// distance to a run at 1e-12, 1e-14) must be far below them.
//
// Each iteration is one integration, set-up included. Counters: rtol, atol, global_err,
// err_ratio (global_err / dopri45's), reference_err, steps, f_evals.

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "integrators/dormand_prince.hpp"
#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/preset.hpp"
#include "reference/odeint.hpp"

namespace geomint::bench {
namespace {

using Dsp = DoubleSphericalPendulum;
constexpr double kT = 10.0;
constexpr double kDopriTol = 1e-8;
constexpr double kMatch = 0.1;  // |err_odeint / err_dopri45 - 1| sought

struct Problem {
  Dsp model;
  Dsp::State y0;
  Problem()
      : model(preset_parameters(find_preset<Dsp>("lee2009"), {})),
        y0(find_preset<Dsp>("lee2009").initial_state(model)) {}
};

/// The final state of `Integrator` from (0, y0) to kT, and its work.
template <class Integrator>
Dsp::State run(const Problem& p, double rtol, double atol, Work* work = nullptr) {
  IntegratorOptions opt;
  opt.tolerances.rtol = rtol;
  opt.tolerances.atol = atol;
  opt.T = kT;
  Integrator integrator(p.model, opt);
  Dsp::State y = p.y0;
  integrate(integrator, y, 0.0, kT, [](double, const Dsp::State&) {});
  if (work != nullptr) *work = integrator.work();
  return y;
}

/// The matched tolerances and the errors they reach.
struct Match {
  double reference_err;
  double dopri_err;
  double odeint_tol;
  double odeint_err;
};

const Match& matched() {
  static const Match match = [] {
    const Problem p;
    const Dsp::State ref = run<OdeintRkf78<Dsp>>(p, 1e-13, 1e-15);
    Match m{};
    m.reference_err = (ref - run<OdeintRkf78<Dsp>>(p, 1e-12, 1e-14)).norm();
    m.dopri_err = (run<Dopri45<Dsp>>(p, kDopriTol, kDopriTol) - ref).norm();
    double lo = -12.0, hi = -4.0, best = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 40; ++k) {
      const double mid = 0.5 * (lo + hi), tol = std::pow(10.0, mid);
      const double err = (run<OdeintDopri5<Dsp>>(p, tol, tol) - ref).norm();
      const double off = std::abs(err / m.dopri_err - 1.0);
      if (off < best) {
        best = off;
        m.odeint_tol = tol;
        m.odeint_err = err;
      }
      if (off <= kMatch) break;
      (err < m.dopri_err ? lo : hi) = mid;
    }
    return m;
  }();
  return match;
}

template <class Integrator>
void time_at_matched_error(benchmark::State& st, bool ours) {
  const Problem p;
  const Match& m = matched();
  const double tol = ours ? kDopriTol : m.odeint_tol;
  Work work;
  Dsp::State y = p.y0;
  for (auto _ : st) {
    y = run<Integrator>(p, tol, tol, &work);
    benchmark::DoNotOptimize(y.data());
  }
  const double err = ours ? m.dopri_err : m.odeint_err;
  st.counters["rtol"] = tol;
  st.counters["atol"] = tol;
  st.counters["global_err"] = err;
  st.counters["err_ratio"] = err / m.dopri_err;
  st.counters["reference_err"] = m.reference_err;
  st.counters["steps"] = static_cast<double>(work.steps);
  st.counters["f_evals"] = static_cast<double>(work.f_evals);
  char label[96];
  std::snprintf(label, sizeof label, "rtol=atol=%.3g global_err=%.3g", tol, err);
  st.SetLabel(label);
}

void register_dopri_vs_odeint() {
  benchmark::RegisterBenchmark("dopri_vs_odeint/dopri45", [](benchmark::State& st) {
    time_at_matched_error<Dopri45<Dsp>>(st, true);
  })->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("dopri_vs_odeint/odeint_dopri5", [](benchmark::State& st) {
    time_at_matched_error<OdeintDopri5<Dsp>>(st, false);
  })->Unit(benchmark::kMicrosecond);
}

[[maybe_unused]] const bool kDopriVsOdeintRegistered = (register_dopri_vs_odeint(), true);

}  // namespace

}  // namespace geomint::bench
