#pragma once
// Settings an integrator is constructed with.

#include <limits>

namespace geomint {

struct IntegratorOptions {
  double h = std::numeric_limits<double>::quiet_NaN();  // fixed step size
  double rtol = 1e-3;                                   // adaptive: relative tolerance
  double atol = 1e-6;                                   // adaptive: absolute tolerance
  double t0 = 0.0;                                      // the interval [t0, T] to integrate,
  double T = 1.0;                                       // needed by ode45-style defaults
};

}  // namespace geomint
