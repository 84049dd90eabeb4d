#pragma once
// `--max-steps` and `--max-output` of `study` and `matrix`: they override the spec's
// `max_steps` / `max_output` (studies/run_limits.hpp), and every fixed-step case is checked
// against the step cap again, since the spec checked it against its own.

#include <CLI/CLI.hpp>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

#include "errors/exit_status_errors.hpp"
#include "studies/run_limits.hpp"
#include "studies/spec.hpp"

namespace geomint::cli {

/// The value of --max-output in bytes; InputError if it is not a size.
inline double max_output_bytes(const std::string& text) {
  const auto bytes = parse_byte_size(text);
  if (!bytes) throw InputError("--max-output '" + text + "' is not a size in bytes (e.g. 1000000 or 2GiB)");
  return *bytes;
}

struct LimitOptions {
  std::optional<double> max_steps;
  std::string max_output;

  void add_to(CLI::App& cmd) {
    cmd.add_option("--max-steps", max_steps,
                   "override the spec's max_steps: refuse a fixed-step case of more steps, stop an "
                   "adaptive one there (default 1e8)");
    cmd.add_option("--max-output", max_output,
                   "override the spec's max_output: refuse a study whose result files are "
                   "estimated larger (bytes, or e.g. 2GiB; default 1GiB)");
  }

  void apply_to(StudySpec& spec) const {
    if (max_steps) {
      if (const auto why = step_cap_problem(*max_steps)) throw InputError("--max-steps " + *why);
      spec.limits.max_steps = *max_steps;
      for (auto& ex : spec.experiments)
        for (auto& c : ex.cases) {
          c.max_steps = *max_steps;
          if (!std::isnan(c.h))
            if (const auto why = step_count_problem(c.T, c.h, *max_steps))
              throw InputError("--max-steps: experiment '" + ex.name + "': " + c.integrator + ": " + *why);
        }
    }
    if (!max_output.empty()) {
      spec.limits.max_output_bytes = max_output_bytes(max_output);
    }
  }
};

}  // namespace geomint::cli
