#pragma once
// A run of many steps from a model's exercise (models/exercise.hpp), fixed-step and adaptive
// alike, for the suites that hold a property at every step (the manifold, the momentum maps).
//
// The run stays within ten exercise horizons, 10 T: beyond the exercise a model promises
// nothing, and some solutions end there. LLM's three bodies on the sphere (sphere_nbody,
// h = 0.005, T = 1) approach collision after t ~ 10: at 10^4 steps of h (to t = 50) every
// method fails somewhere between t = 10.5 and 27 (NonFinite, NonConvergence of the VIs'
// equations, StepSizeUnderflow of the adaptive pairs), and on the way the tangency defect
// q_i . w_i, whose rounding grows with |w_i|, reaches 6e-12. Lie-Euler's energy grows without
// bound on sphere_lj over 10^4 steps of its h = 0.01 (the state reaches 1e14).
//   - A fixed-step method takes `steps` steps of min(h, 10 T / steps).
//   - An adaptive one takes `steps` accepted steps at rtol 1e-8, atol 1e-10, in passes over
//     [0, 10 T], each from the exercise's initial state with a fresh integrator (most cover
//     10 T in a few hundred steps: their rounding accumulates over a pass, while the
//     fixed-step runs accumulate it over all `steps`).

#include <algorithm>
#include <cstdint>

#include "catalogue/integrator_on_model.hpp"
#include "integrators/integrate.hpp"
#include "integrators/step_control.hpp"
#include "support/model_setup.hpp"

namespace geomint::testing {

inline constexpr double kExerciseHorizons = 10.0;
inline constexpr double kLongRunRtol = 1e-8, kLongRunAtol = 1e-10;

/// What a run did.
struct LongRun {
  std::int64_t steps = 0;
  int passes = 0;      // over [0, 10 T] (adaptive); 1 for a fixed-step run
  double h = 0.0;      // the fixed step, 0 for an adaptive run
  double t_end = 0.0;  // where the last pass ended
};

/// `steps` steps of the method from the exercise's initial state y0 (see the file comment),
/// calling observe(t, y) at the start of every pass and after every step. Throws the
/// integrators' typed failures, and NonFinite for a state that is no longer finite.
template <class Model>
LongRun run_steps(const CompiledIntegrator<Model>& method, const Model& model,
                  const typename Model::State& y0, std::int64_t steps,
                  const typename IntegratorOnModel<Model>::Observer& observe) {
  using State = typename Model::State;
  const double horizon = kExerciseHorizons * Model::kExercise.T;
  LongRun run;
  if (method.on_model->adaptive) {
    const Tolerances tolerances{kLongRunRtol, kLongRunAtol};
    const typename IntegratorOnModel<Model>::Observer observe_finite = [&](double ti,
                                                                           const State& yi) {
      require_finite(yi, ti, method.name());
      observe(ti, yi);
    };
    while (run.steps < steps) {
      const auto integrator = method.make(model, tolerances, 0.0, horizon);
      State y = y0;
      double t = 0.0;
      observe(t, static_cast<const State&>(y));
      ++run.passes;
      while (t < horizon && run.steps + integrator->work().steps < steps)
        integrator->advance(t, y, horizon, observe_finite);
      run.steps += integrator->work().steps;
      run.t_end = t;
    }
  } else {
    const FixedStep step{std::min(Model::kExercise.h, horizon / static_cast<double>(steps))};
    const double T = step.h * static_cast<double>(steps);
    const auto integrator = method.make(model, step, 0.0, T);
    State y = y0;
    integrator->integrate(y, 0.0, T, observe, kNoStepCap);
    run.steps = integrator->work().steps;
    run.passes = 1;
    run.h = step.h;
    run.t_end = T;
  }
  return run;
}

}  // namespace geomint::testing
