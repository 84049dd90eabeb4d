#pragma once
// One run of an external integrator's command (studies/external_command.hpp): the initial-state
// file written, the template filled in and run in a fresh temporary folder with the command's
// timeout and an output limit, and the trajectory it wrote read back and checked
// (studies/command_trajectory.hpp), with the work it reported or the CPU time it was measured
// to take. docs/external-integrators.md is the contract a command meets.

#include <Eigen/Core>
#include <optional>
#include <string>

#include "integrators/work.hpp"
#include "models/parameters.hpp"
#include "models/state_blocks.hpp"
#include "studies/command_trajectory.hpp"
#include "studies/external_command.hpp"

namespace geomint {

struct ExternalRunInputs {
  std::string model, preset;
  const ParameterSet* parameters = nullptr;
  const StateLayout* layout = nullptr;
  Eigen::VectorXd initial = Eigen::VectorXd();
  double t0 = 0.0, T = 0.0;
  std::optional<double> h = std::nullopt;  // a fixed-step method's step (negative: backwards)
  std::int64_t steps = 0;         // and its number of steps
  double rtol = 0.0, atol = 0.0;  // an adaptive method's tolerances
  double max_steps = 1e8;         // an adaptive run's cap on its rows
};

struct ExternalRunResult {
  CommandTrajectory trajectory;  // with its failure, if reading it met one
  Work work;
  double cpu_s = 0.0;  // as reported in {work}, else measured
};

/// Throws CommandFailed or CommandTimeout (at t0) when the command does not succeed, and
/// MalformedOutput for a malformed {work} file; the trajectory's own problems are in the result.
ExternalRunResult run_external(const ExternalCommand& command, const ExternalRunInputs& in);

}  // namespace geomint
