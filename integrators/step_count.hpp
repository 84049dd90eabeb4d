#pragma once
// The one formula for how many steps a fixed-step run takes: the run loop (integrate.hpp)
// takes exactly these, and the run limits (studies/run_limits.hpp) check them before it starts.

#include <cmath>

namespace geomint {

/// The steps a fixed-step run over a time span of `span` at step h takes: ceil(span / h), less
/// a relative 1e-12 so that a span of a whole number of steps up to rounding (T = 1, h = 0.1)
/// takes that number and not one more; +inf when that overflows (h subnormal, span / h beyond
/// the doubles). All steps are h but the last, which ends at the end of the span.
inline double fixed_step_count(double span, double h) {
  return std::ceil(span / h * (1.0 - 1e-12));
}

}  // namespace geomint
