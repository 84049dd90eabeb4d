#pragma once
// The tolerances an adaptive method accepts. Below 100 machine epsilons a relative tolerance
// asks for more than double precision can give (MATLAB's ode45 raises it to that floor; we
// refuse it, naming the floor, rather than run at a tolerance the user did not ask for).

#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace geomint {

inline constexpr double kSmallestRtol = 100.0 * std::numeric_limits<double>::epsilon();

/// Why `rtol` is not a relative tolerance, or nothing.
inline std::optional<std::string> rtol_problem(double rtol) {
  if (!std::isfinite(rtol)) return "must be a finite number";
  if (!(rtol >= kSmallestRtol && rtol <= 1.0))
    return "must be from 100 machine epsilons (2.2e-14) to 1";
  return std::nullopt;
}

/// Why `atol` is not an absolute tolerance, or nothing.
inline std::optional<std::string> atol_problem(double atol) {
  if (!std::isfinite(atol)) return "must be a finite number";
  if (!(atol >= std::numeric_limits<double>::min())) return "must be a positive normal number";
  return std::nullopt;
}

}  // namespace geomint
