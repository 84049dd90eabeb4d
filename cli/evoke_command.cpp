// geomint evoke: pattern evocation on a trajectory `geomint run` wrote (studies/pattern_evocation.hpp,
// docs/pattern-evocation.md); the figures by reports/evoke_figures.py.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/python_script.hpp"
#include "errors/exit_status_errors.hpp"
#include "studies/evocation_files.hpp"
#include "studies/pattern_evocation.hpp"
#include "studies/trajectory_csv.hpp"

namespace geomint::cli {

namespace {

struct EvokeOptions {
  std::string trajectory, out;
  double xi_min = 0.0, xi_max = 0.0;
  int count = 0, best = 5;
  std::optional<double> lag_min, lag_max;
};

/// More frames than this is a mistake, not a scan (each costs a pass over the trajectory).
constexpr int kMaxFrames = 100000;

EvocationScan scan_from(const EvokeOptions& o) {
  if (!std::isfinite(o.xi_min)) throw InputError("--xi-min must be a finite number");
  if (!std::isfinite(o.xi_max)) throw InputError("--xi-max must be a finite number");
  if (!(o.xi_min < o.xi_max)) throw InputError("--xi-min must be below --xi-max");
  if (o.count < 2 || o.count > kMaxFrames)
    throw InputError("--count must be from 2 to " + std::to_string(kMaxFrames) + " frames");
  if (o.best < 1) throw InputError("--best must be at least 1");
  for (const auto& [value, option] : {std::pair{o.lag_min, "--lag-min"}, {o.lag_max, "--lag-max"}})
    if (value && !(std::isfinite(*value) && *value > 0.0))
      throw InputError(std::string(option) + " must be a positive finite number");
  if (o.lag_min && o.lag_max && !(*o.lag_min < *o.lag_max)) throw InputError("--lag-min must be below --lag-max");
  EvocationScan scan;
  scan.xi_min = o.xi_min;
  scan.xi_max = o.xi_max;
  scan.count = o.count;
  scan.best = o.best;
  if (o.lag_min) scan.lag_min = *o.lag_min;
  if (o.lag_max) scan.lag_max = *o.lag_max;
  return scan;
}

int evoke(const EvokeOptions& o) {
  const EvocationScan scan = scan_from(o);
  const TrajectoryPositions trajectory = read_trajectory_positions(o.trajectory);
  Evocation e;
  try {
    e = evoke_patterns(trajectory.times, trajectory.positions, scan);
  } catch (const InputError& error) {
    throw InputError(o.trajectory + ": " + error.what());
  }
  write_evocation(o.out, o.trajectory, trajectory, scan, e);
  std::fprintf(stderr, "geomint evoke: critical frequency %.6g rad/s", e.critical_frequency);
  if (!e.best.empty()) {
    std::fprintf(stderr, "; best frame xi = %.6g rad/s, score %.3g, lag %.6g s", e.best[0].xi, e.best[0].score,
                 e.best[0].lag);
    if (!e.best[0].aliases.empty()) std::fprintf(stderr, " (%zu aliases)", e.best[0].aliases.size());
  }
  std::fprintf(stderr, "; %zu best frame%s written to %s\n", e.best.size(), e.best.size() == 1 ? "" : "s", o.out.c_str());
  for (const std::string& warning : evocation_warnings(e)) std::fprintf(stderr, "geomint evoke: warning: %s\n", warning.c_str());
  return run_report_script("evoke_figures.py", {o.out});  // 0, 2 or 4 with its one line
}

}  // namespace

Subcommand add_evoke_command(CLI::App& app) {
  auto o = std::make_shared<EvokeOptions>();
  auto* cmd = app.add_subcommand(
      "evoke", "Pattern evocation (DuToit 4, 5.5): score how closed a trajectory's positions are in "
               "frames turning about e3 at rates xi; write scores.csv, evocation.json, the best frames "
               "and figures (docs/pattern-evocation.md)");
  cmd->add_option("--trajectory", o->trajectory,
                  "CSV of a fixed-step `geomint run` (columns t and q1_x, q1_y, q1_z, ...)")
      ->required();
  cmd->add_option("--xi-min", o->xi_min, "lowest frame rate [rad/s]")->required();
  cmd->add_option("--xi-max", o->xi_max, "highest frame rate [rad/s]")->required();
  cmd->add_option("--count", o->count, "number of frame rates, evenly spaced, ends included (at least 2)")
      ->required();
  cmd->add_option("--best", o->best, "how many best frames (local minima of the score) to write (default 5)");
  cmd->add_option("--lag-min", o->lag_min,
                  "shortest lag a pattern may close after [s] (default a tenth of the time span)");
  cmd->add_option("--lag-max", o->lag_max,
                  "longest lag a pattern may close after [s] (default half the time span)");
  cmd->add_option("--out", o->out, "folder to write the results and figures to")->required();
  return {cmd, [o] { return evoke(*o); }};
}

}  // namespace geomint::cli
