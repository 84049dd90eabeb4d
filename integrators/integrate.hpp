#pragma once
// Driving an integrator from t0 to T, fixed-step or adaptive alike.

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "errors/exit_status_errors.hpp"
#include "integrators/step_count.hpp"

namespace geomint {

/// Throws NonFinite if y has a NaN or infinite entry.
template <class State>
void require_finite(const State& y, double t, std::string_view who) {
  if (!y.allFinite()) throw NonFinite(t, std::string(who) + ": the state is no longer finite");
}

/// No cap on the steps of a run (integrate's default max_steps).
inline constexpr double kNoStepCap = 1e15;

/// Integrates y from t0 to T, calling observe(t, y) at t0 and at every output point: after
/// every step of a fixed-step method, and at every output point of an adaptive one. Fixed
/// steps are all exactly h but the last, which ends at T; times are t0 + k h, so no rounding
/// accumulates in t.
/// An adaptive run stops with TooMuchWork after `max_steps` steps; a fixed-step run of more
/// steps than that is refused before it starts (its count is known: callers check it first).
template <class I, class Observer>
void integrate(I& integrator, typename I::State& y, double t0, double T, Observer&& observe,
               double max_steps = kNoStepCap) {
  // A user method's declaration is per object (integrators/runtime_explicit_rk.hpp), and it is
  // fixed-step: whether to step or to advance follows from what the integrator offers.
  const std::string_view name = integrator.declaration.name;
  require_finite(y, t0, name);
  observe(t0, static_cast<const typename I::State&>(y));
  if constexpr (requires { integrator.advance(t0, y, T, observe); }) {
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
  } else {
    const double h = integrator.step_size();
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
}

}  // namespace geomint
