#pragma once
// What an integrator spent: the counters every study reports.

#include <cstdint>

namespace geomint {

struct Work {
  std::int64_t steps = 0;                 // accepted steps
  std::int64_t rejected = 0;              // rejected step attempts (adaptive methods)
  std::int64_t f_evals = 0;               // vector-field or potential-gradient evaluations
  std::int64_t exponentials = 0;          // group exponentials (Lie group methods)
  std::int64_t nonlinear_iterations = 0;  // fixed-point or Newton iterations
};

}  // namespace geomint
