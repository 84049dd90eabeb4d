#pragma once
// Typed integration failures. An integrator never returns a silent NaN: it throws one of
// these, carrying the time at which it happened and one line of explanation.

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace geomint {

enum class FailureKind { NonConvergence, StepSizeUnderflow, LeftManifold, NonFinite, TooMuchWork };

constexpr std::string_view to_string(FailureKind kind) {
  switch (kind) {
    case FailureKind::NonConvergence: return "NonConvergence";
    case FailureKind::StepSizeUnderflow: return "StepSizeUnderflow";
    case FailureKind::LeftManifold: return "LeftManifold";
    case FailureKind::NonFinite: return "NonFinite";
    case FailureKind::TooMuchWork: return "TooMuchWork";
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

}  // namespace geomint
