#pragma once
// What an adaptive integrator is constructed with: its tolerances and the interval it is to
// integrate (ode45-style defaults, the largest and the first step, are fractions of T - t0).
// A fixed-step integrator is constructed from its model alone (integrators/step_control.hpp).

#include "integrators/step_control.hpp"

namespace geomint {

struct IntegratorOptions {
  Tolerances tolerances;
  double t0 = 0.0;  // the interval [t0, T] to integrate
  double T = 1.0;
};

}  // namespace geomint
