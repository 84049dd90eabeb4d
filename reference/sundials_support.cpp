#include "reference/sundials_support.hpp"

#include <nvector/nvector_serial.h>

#include <array>
#include <cmath>
#include <cstdio>

namespace geomint::detail {

void CallbackRecord::clear() {
  message.clear();
  nonfinite = false;
  exception = nullptr;
}

int rhs_callback(sunrealtype t, N_Vector y, N_Vector dy, void* data) noexcept {
  auto& s = *static_cast<CallbackRecord*>(data);
  double* out = N_VGetArrayPointer(dy);
  try {
    s.rhs(t, N_VGetArrayPointer(y), out, s.user_data);
  } catch (...) {
    s.exception = std::current_exception();
    return -1;
  }
  for (sunindextype i = 0; i < s.n; ++i) {
    if (!std::isfinite(out[i])) {
      s.nonfinite = true;
      s.nonfinite_time = t;
      s.nonfinite_index = i;
      return -1;
    }
  }
  return 0;
}

void error_handler(int /*code*/, const char* /*module*/, const char* function, char* msg,
                   void* data) noexcept {
  auto& s = *static_cast<CallbackRecord*>(data);
  try {
    s.message = std::string(function) + ": " + msg;
  } catch (...) {
    s.message.clear();  // out of memory: the flag's name will have to do
  }
}

void throw_failure(const CallbackRecord& s, FailureKind kind, double reached, std::string detail) {
  if (!s.message.empty()) detail += "; " + s.message;
  if (s.nonfinite)
    throw NonFinite(s.nonfinite_time, detail + " (component " + std::to_string(s.nonfinite_index) +
                                          " of the right-hand side is not finite; the solver had "
                                          "reached t = " +
                                          format(reached) + ")");
  switch (kind) {
    case FailureKind::NonConvergence: throw NonConvergence(reached, detail);
    case FailureKind::StepSizeUnderflow: throw StepSizeUnderflow(reached, detail);
    case FailureKind::LeftManifold: throw LeftManifold(reached, detail);
    case FailureKind::NonFinite: throw NonFinite(reached, detail);
    case FailureKind::TooMuchWork: throw TooMuchWork(reached, detail);
    case FailureKind::CommandFailed:  // an external command's failures, not a solver's
    case FailureKind::CommandTimeout:
    case FailureKind::MalformedOutput: break;
  }
  throw NonConvergence(reached, detail);
}

void throw_no_progress(const CallbackRecord& s, std::string_view name, double t, double h,
                       std::int64_t steps) {
  std::string detail = std::string(name) + ": no progress in t after " + std::to_string(steps) +
                       " steps: the step h = " + format(h) +
                       " is below the spacing of doubles at t = " + format(t);
  if (!s.message.empty()) detail += "; the solver warned: " + s.message;
  if (s.nonfinite)
    throw NonFinite(s.nonfinite_time, detail + " (it had retried smaller steps after component " +
                                          std::to_string(s.nonfinite_index) +
                                          " of the right-hand side was not finite)");
  throw StepSizeUnderflow(t, detail);
}

void throw_step_limit(std::string_view name, double t, double T, std::int64_t steps) {
  throw TooMuchWork(t, std::string(name) + ": " + std::to_string(steps) +
                           " steps taken without reaching T = " + format(T));
}

std::string format(double x) {
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.9g", x);
  return buf.data();
}

}  // namespace geomint::detail
