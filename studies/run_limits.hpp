#pragma once
// What a run may cost before it starts: a cap on the steps it takes and on the output it
// writes (defaults 10^8 steps and 1 GiB; `--max-steps` / `--max-output`, or `max_steps:` /
// `max_output:` in a spec). A fixed-step run is checked before it starts from T / h; an
// adaptive run stops with TooMuchWork when it reaches the cap.

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "integrators/step_count.hpp"

namespace geomint {

struct RunLimits {
  double max_steps = 1e8;
  double max_output_bytes = 1073741824.0;  // 1 GiB
};

/// The largest cap accepted: beyond 2^53 a step count is no longer an exact double.
inline constexpr double kLargestStepCap = 9007199254740992.0;

/// Why `max_steps` is not a valid cap, or nothing.
inline std::optional<std::string> step_cap_problem(double max_steps) {
  if (!(max_steps >= 1.0 && max_steps <= kLargestStepCap) || max_steps != std::floor(max_steps))
    return "must be a whole number from 1 to 2^53";
  return std::nullopt;
}

/// Why a fixed-step run of T / h steps is refused, naming the estimate, or nothing.
inline std::optional<std::string> step_count_problem(double T, double h, double max_steps) {
  const double steps = fixed_step_count(T, h);
  if (steps <= max_steps) return std::nullopt;
  char buf[200];
  std::snprintf(buf, sizeof buf, "h = %g over T = %g is %.3g steps, more than the cap of %.0f (max_steps)",
                h, T, steps, max_steps);
  return std::string(buf);
}

/// A size in bytes: a whole number, optionally followed by K, M, G or T (powers of 1024; "KiB"
/// and "kB"-like spellings of them are accepted). Nothing if the text is not one.
inline std::optional<double> parse_byte_size(const std::string& text) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit = text.substr(used);
  while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
  double scale = 1.0;
  if (!unit.empty()) {
    const std::string rest = unit.substr(1);
    if (rest != "" && rest != "B" && rest != "iB") return std::nullopt;
    switch (unit.front()) {
      case 'K': case 'k': scale = 1024.0; break;
      case 'M': scale = 1024.0 * 1024.0; break;
      case 'G': scale = 1024.0 * 1024.0 * 1024.0; break;
      case 'T': scale = 1024.0 * 1024.0 * 1024.0 * 1024.0; break;
      case 'B': if (rest.empty()) break; return std::nullopt;
      default: return std::nullopt;
    }
  }
  const double bytes = value * scale;
  if (!(bytes >= 1.0) || !std::isfinite(bytes) || bytes != std::floor(bytes)) return std::nullopt;
  return bytes;
}

}  // namespace geomint
