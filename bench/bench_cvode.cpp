// The cost of a reference solution: SUNDIALS CVODE (BDF, rtol 1e-10, atol 1e-12) on the double
// spherical pendulum (preset lee2009) from 0 to T = 1, solver set-up included. Counters: the
// accepted steps and right-hand-side evaluations (Jacobian difference quotients included).

#include <benchmark/benchmark.h>

#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "reference/cvode.hpp"

namespace {

void BM_CvodeBdf_DoublePendulum_T1(benchmark::State& state) {
  using geomint::DoubleSphericalPendulum;
  auto parameters = DoubleSphericalPendulum::default_parameters();
  const auto& preset = DoubleSphericalPendulum::presets()[0];
  preset.set_parameters(parameters);
  const DoubleSphericalPendulum model(parameters);
  const DoubleSphericalPendulum::State y0 = preset.initial_state(model);
  geomint::IntegratorOptions opt;
  opt.tolerances.rtol = 1e-10;
  opt.tolerances.atol = 1e-12;
  opt.T = 1.0;

  geomint::Work work;
  for (auto _ : state) {
    geomint::Cvode<DoubleSphericalPendulum> cvode(model, opt);
    DoubleSphericalPendulum::State y = y0;
    geomint::integrate(cvode, y, opt.t0, opt.T,
                       [](double, const DoubleSphericalPendulum::State&) {});
    benchmark::DoNotOptimize(y.data());
    work = cvode.work();
  }
  state.counters["steps"] = static_cast<double>(work.steps);
  state.counters["f_evals"] = static_cast<double>(work.f_evals);
}
BENCHMARK(BM_CvodeBdf_DoublePendulum_T1)->Unit(benchmark::kMicrosecond);

}  // namespace
