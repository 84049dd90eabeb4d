#pragma once
// The study that verifies one integrator's declared promises on chosen models (what `geomint
// verify` runs, and the Python module's verify()): a spec in the format of studies/README.md,
// written out so that it can be read, kept and rerun with `geomint study`. Per model, a
// convergence experiment at its Exercise (models/exercise.hpp: preset, T, and step sizes 4h to
// h/4, or tolerances 1e-4 to 1e-8 for an adaptive method) against its exact solution or
// Fehlberg 7(8) at rtol 1e-13 (the matrix's reference); with `long_run`, or for a symmetric
// method (whose reversibility only a long_time experiment measures), a long-time experiment
// over its long_T at h as well.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "studies/engine.hpp"
#include "studies/external_command.hpp"
#include "studies/verdicts.hpp"

namespace geomint {

/// A command given on a command line or from Python, with its promises and timeout, run in the
/// current folder.
ExternalCommand command_in_current_folder(std::string command, const CommandPromises& promises, double timeout_s);

struct VerificationRequest {
  std::string name;  // the integrator: a built-in one's, or the command's
  /// The command and its promises (declaration.order etc.), or none for a built-in integrator.
  std::optional<ExternalCommand> command;
  std::vector<std::string> command_files;  // the command's `files:`
  std::vector<std::string> models;
  std::string preset;             // empty: each model's Exercise preset
  std::optional<double> T;        // else each model's Exercise T
  std::vector<double> h, rtol;    // empty: from each model's Exercise
  bool long_run = false;
};

/// The spec's YAML text; an InputError for an unknown model or integrator, or for settings
/// that do not fit the method (h for an adaptive one, rtol for a fixed-step one).
std::string verification_spec(const VerificationRequest& request);

struct VerificationResult {
  StudySummary summary;
  std::vector<Verdict> verdicts;  // as DIR/verdicts.csv holds them
};

/// Runs the verification study into options.out_dir (checked whole before anything runs: an
/// InputError names what is wrong), writes its spec there as verify.yaml, and reads its
/// verdicts back. Under MPI every rank calls it; the verdicts are rank 0's.
VerificationResult run_verification(const VerificationRequest& request, const StudyOptions& options);

}  // namespace geomint
