#pragma once
// Settings every reference solver takes beyond IntegratorOptions.

#include <cstdint>

namespace geomint {

struct ReferenceOptions {
  /// Accepted steps allowed over the whole run (all advance() calls); asking for one more is
  /// TooMuchWork. (The libraries' own step limits count per call or between observer calls,
  /// and every advance() is one step, so they would never trigger.)
  std::int64_t max_steps = 10'000'000;
};

}  // namespace geomint
