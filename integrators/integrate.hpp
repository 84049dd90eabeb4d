#pragma once
// Driving an integrator from t0 to T: a fixed-step one at a FixedStep, an adaptive one by its
// own error control.

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "errors/exit_status_errors.hpp"
#include "integrators/integrator_concepts.hpp"
#include "integrators/step_control.hpp"
#include "integrators/step_count.hpp"

namespace geomint {

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_non_finite(double t, std::string_view who) {
  throw NonFinite(t, std::string(who) + ": the state is no longer finite");
}

/// Throws NonFinite if y has a NaN or infinite entry. It runs after every step, so it is one
/// pass without a branch per entry (Eigen's allFinite() compares each entry of y - y), inlined
/// into the step loop with the throw kept out of it: 0 * x is exactly (+-)0 for every finite x
/// and NaN for an infinite or NaN one, and a sum holding a NaN is NaN.
template <class State>
void require_finite(const State& y, double t, std::string_view who) {
  if (!((y.array() * 0.0).sum() == 0.0)) [[unlikely]]
    throw_non_finite(t, who);
}

/// No cap on the steps of a run (integrate's default max_steps).
inline constexpr double kNoStepCap = 1e15;

/// Integrates y from t0 to T at fixed steps, calling observe(t, y) at t0 and after every step.
/// Steps are all exactly h but the last, which ends at T; times are t0 + k h, so no rounding
/// accumulates in t. A run of more than `max_steps` steps is refused before it starts (its
/// count is known: callers check it first, studies/run_limits.hpp).
template <FixedStepIntegrator I, class Observer>
void integrate(I& integrator, typename I::State& y, double t0, double T, FixedStep step,
               Observer&& observe, double max_steps = kNoStepCap) {
  // A user method's declaration is per object (integrators/explicit_rk.hpp), hence not I::.
  const std::string_view name = integrator.declaration.name;
  require_finite(y, t0, name);
  observe(t0, static_cast<const typename I::State&>(y));
  const double h = step.h;
  const double count = fixed_step_count(T - t0, h);
  if (!(count <= max_steps))
    throw TooMuchWork(t0, std::string(name) + ": h = " + std::to_string(h) + " over [t0, T] is more than " +
                              std::to_string(static_cast<long long>(max_steps)) + " steps (max_steps)");
  const auto steps = static_cast<std::int64_t>(count);
  for (std::int64_t k = 1; k <= steps; ++k) {
    const double t_prev = t0 + static_cast<double>(k - 1) * h;
    const double t_next = k == steps ? T : t0 + static_cast<double>(k) * h;
    integrator.step(t_prev, y, k == steps ? T - t_prev : h);
    require_finite(y, t_next, name);
    observe(t_next, static_cast<const typename I::State&>(y));
  }
}

/// Integrates y from t0 to T with an adaptive integrator (constructed with its Tolerances),
/// calling observe(t, y) at t0 and at every output point; stops with TooMuchWork after
/// `max_steps` steps.
template <AdaptiveIntegrator I, class Observer>
void integrate(I& integrator, typename I::State& y, double t0, double T, Observer&& observe,
               double max_steps = kNoStepCap) {
  const std::string_view name = integrator.declaration.name;
  require_finite(y, t0, name);
  observe(t0, static_cast<const typename I::State&>(y));
  double t = t0;
  for (double steps = 0.0; t < T; ++steps) {
    if (steps >= max_steps)
      throw TooMuchWork(t, std::string(name) + ": reached the cap of " + std::to_string(static_cast<long long>(max_steps)) +
                               " steps (max_steps) before T");
    integrator.advance(t, y, T, [&](double ti, const typename I::State& yi) {
      require_finite(yi, ti, name);
      observe(ti, yi);
    });
  }
}

}  // namespace geomint
