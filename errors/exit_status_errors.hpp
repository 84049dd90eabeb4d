#pragma once
// The failures that end a run with an exit status of their own (DESIGN.md, `run`), in one place
// at the bottom of the layers so that every layer throws the same types and cli/main.cpp maps
// each to its status once:
//   InputError          2  malformed or meaningless input, checked before anything runs
//   IntegrationFailure  3  typed (NonConvergence, StepSizeUnderflow, LeftManifold, NonFinite,
//                          TooMuchWork; for an external command, CommandFailed, CommandTimeout,
//                          MalformedOutput), with the time; an integrator never returns a silent NaN
//   IoError             4  an unreadable or unwritable path, with the system's reason

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace geomint {

/// Malformed or meaningless input: an unknown name, a negative mass, a bad spec file.
/// The message is one line naming what is wrong.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class FailureKind {
  NonConvergence,
  StepSizeUnderflow,
  LeftManifold,
  NonFinite,
  TooMuchWork,
  CommandFailed,
  CommandTimeout,
  MalformedOutput
};

constexpr std::string_view to_string(FailureKind kind) {
  switch (kind) {
    case FailureKind::NonConvergence: return "NonConvergence";
    case FailureKind::StepSizeUnderflow: return "StepSizeUnderflow";
    case FailureKind::LeftManifold: return "LeftManifold";
    case FailureKind::NonFinite: return "NonFinite";
    case FailureKind::TooMuchWork: return "TooMuchWork";
    case FailureKind::CommandFailed: return "CommandFailed";
    case FailureKind::CommandTimeout: return "CommandTimeout";
    case FailureKind::MalformedOutput: return "MalformedOutput";
  }
  return "Unknown";
}

class IntegrationFailure : public std::runtime_error {
 public:
  IntegrationFailure(FailureKind kind, double t, const std::string& detail)
      : std::runtime_error(std::string(to_string(kind)) + " at t = " + format_time(t) + ": " +
                           detail),
        kind_(kind),
        time_(t),
        detail_(detail) {}

  FailureKind kind() const { return kind_; }
  double time() const { return time_; }
  const std::string& detail() const { return detail_; }

 private:
  static std::string format_time(double t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", t);
    return buf;
  }
  FailureKind kind_;
  double time_;
  std::string detail_;
};

/// A nonlinear solve (fixed point, Newton, or a reference solver's corrector) did not converge.
struct NonConvergence : IntegrationFailure {
  NonConvergence(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::NonConvergence, t, detail) {}
};
/// Step-size control asked for a step below the smallest one representable at t.
struct StepSizeUnderflow : IntegrationFailure {
  StepSizeUnderflow(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::StepSizeUnderflow, t, detail) {}
};
/// The state is no longer near its manifold: the model's equations no longer mean anything.
struct LeftManifold : IntegrationFailure {
  LeftManifold(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::LeftManifold, t, detail) {}
};
/// A state or vector-field value became NaN or infinite.
struct NonFinite : IntegrationFailure {
  NonFinite(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::NonFinite, t, detail) {}
};
/// A solver hit its step limit before reaching the final time.
struct TooMuchWork : IntegrationFailure {
  TooMuchWork(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::TooMuchWork, t, detail) {}
};

/// An external integrator's command (studies/external_command.hpp) exited with a non-zero
/// status or was killed by a signal (its output limit passed, among others).
struct CommandFailed : IntegrationFailure {
  CommandFailed(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::CommandFailed, t, detail) {}
};
/// An external integrator's command ran past its timeout and was killed.
struct CommandTimeout : IntegrationFailure {
  CommandTimeout(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::CommandTimeout, t, detail) {}
};
/// An external integrator's command wrote no trajectory, or one that does not read as the
/// documented CSV: columns, rows, times, the initial state, the final time.
struct MalformedOutput : IntegrationFailure {
  MalformedOutput(double t, const std::string& detail)
      : IntegrationFailure(FailureKind::MalformedOutput, t, detail) {}
};

/// An input/output failure (disk full, an unwritable or unreadable path): the path and the
/// system's reason named.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "cannot <what> <path>: <the system's reason for errno>".
inline IoError io_error(const std::string& what, const std::string& path, int error = errno) {
  return IoError("cannot " + what + " " + path + ": " + std::strerror(error));
}

}  // namespace geomint
