#pragma once
// Reading the trajectory an external integrator's command wrote (docs/external-integrators.md):
// CSV, a header whose first columns are t and the model's state columns in order (as
// `geomint run` writes them; later columns are ignored, geomint computes the invariants
// itself), then one row per output point, the first at t0 with the initial state, t moving
// strictly towards T, the last at T. Nothing in it is taken on trust: each way it can be wrong
// is a typed failure (errors/exit_status_errors.hpp) with the time it happened.

#include <Eigen/Core>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

namespace geomint {

struct TrajectoryExpectation {
  std::vector<std::string> state_columns;
  Eigen::VectorXd initial;
  double t0 = 0.0, T = 0.0;
  std::size_t max_rows = 0;  // more rows than this are malformed (a fixed-step run: steps + 1)
};

struct CommandTrajectory {
  std::vector<double> times;
  Eigen::MatrixXd states;  // one column per row read
  /// The failure met while reading, after the rows before it (null: the whole trajectory read).
  std::exception_ptr failure;
};

/// The rows of `path` up to the first problem, which becomes `failure`: MalformedOutput for a
/// missing or empty file, a header without the state's columns, a row of another length, text
/// that is no number, t not moving towards T or past it, a first row that is not (t0, y0),
/// more than max_rows rows, or a last row short of T; NonFinite for a NaN or an infinity.
CommandTrajectory read_command_trajectory(const std::filesystem::path& path, const TrajectoryExpectation& expect);

}  // namespace geomint
