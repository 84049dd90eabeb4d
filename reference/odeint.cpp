// The non-template part of reference/odeint.hpp: its typed failures and option checks.

#include "reference/odeint.hpp"

#include <array>
#include <cstdio>
#include <string>

#include "errors/exit_status_errors.hpp"

namespace geomint::detail {

namespace {

std::string format(double x) {
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.9g", x);
  return buf.data();
}

std::string after(std::int64_t steps) { return " after " + std::to_string(steps) + " steps"; }

}  // namespace

void throw_odeint_no_progress(std::string_view name, double t, double dt, std::int64_t steps,
                              bool nonfinite, double nonfinite_time) {
  const std::string stuck = "the step size has fallen to about dt = " + format(dt) +
                            ", below the spacing of doubles at t = " + format(t) + after(steps);
  if (nonfinite)
    throw NonFinite(nonfinite_time, std::string(name) +
                                        ": the right-hand side is not finite here, and shrinking "
                                        "the step to avoid it made no progress: " +
                                        stuck);
  throw StepSizeUnderflow(t, std::string(name) + ": no progress in t: " + stuck);
}

void throw_odeint_rejections(std::string_view name, double t, double dt, std::int64_t steps,
                             const char* odeint_message, bool nonfinite, double nonfinite_time) {
  const std::string gave_up = "odeint rejected every attempt from t = " + format(t) +
                              " down to dt = " + format(dt) + after(steps) + " (" +
                              odeint_message + ")";
  if (nonfinite)
    throw NonFinite(nonfinite_time,
                    std::string(name) + ": the right-hand side is not finite here; " + gave_up);
  throw StepSizeUnderflow(t, std::string(name) + ": " + gave_up);
}

void throw_odeint_step_limit(std::string_view name, double t, double T, std::int64_t steps) {
  throw TooMuchWork(t, std::string(name) + ": " + std::to_string(steps) +
                           " steps taken without reaching T = " + format(T));
}

void throw_odeint_nonfinite_start(std::string_view name, double t) {
  throw NonFinite(t, std::string(name) + ": the right-hand side is not finite at the initial "
                                         "state, no starting step size");
}

void check_odeint_options(std::string_view name, const IntegratorOptions& opt,
                          const ReferenceOptions& settings) {
  const std::string who(name);
  if (!(opt.tolerances.rtol > 0.0) || !(opt.tolerances.atol > 0.0))
    throw InputError(who + ": rtol and atol must be positive");
  if (!(opt.T > opt.t0)) throw InputError(who + ": need T > t0");
  if (!(settings.max_steps > 0)) throw InputError(who + ": max_steps must be positive");
}

}  // namespace geomint::detail
