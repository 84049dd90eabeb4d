#pragma once
// What integrate() (integrators/integrate.hpp) and the catalogue's adapter
// (catalogue/integrator_adapter.hpp) require of an integrator, as named concepts, so that a
// class that misses a member is reported here and not deep in a generated unit.

#include <concepts>
#include <string_view>

#include "integrators/work.hpp"

namespace geomint {

/// Any integrator: a state type, a declaration (a compile-time constant of a built-in method, a
/// per-object one of a method defined at run time) and the work it has done.
template <class I>
concept DeclaredIntegrator = requires(const I& i) {
  typename I::State;
  { i.declaration.name } -> std::convertible_to<std::string_view>;
  { i.work() } -> std::convertible_to<Work>;
};

/// A fixed-step integrator: one step of size h (negative: backwards) from (t, y), given h on
/// every call; it stores no step size (odeint's do_step(system, x, t, dt)).
template <class I>
concept FixedStepIntegrator = DeclaredIntegrator<I> && requires(I& i, typename I::State& y) {
  i.step(0.0, y, 0.0);
};

/// An adaptive integrator, constructed with its Tolerances (integrators/step_control.hpp): one
/// accepted step from (t, y) towards T, calling observe(t, y) at its output points.
template <class I>
concept AdaptiveIntegrator =
    DeclaredIntegrator<I> &&
    requires(I& i, double& t, typename I::State& y, void (*observe)(double, const typename I::State&)) {
      i.advance(t, y, 0.0, observe);
    };

}  // namespace geomint
