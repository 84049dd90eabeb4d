#pragma once
// What the CVODE and ARKODE cores share: the record their C callbacks keep, the callbacks
// themselves, and the typed failure for a solver's negative return flag. Included only by
// reference/cvode.cpp and reference/arkode.cpp: it includes SUNDIALS headers, which the public
// headers never do.

#include <sundials/sundials_nvector.h>

#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "errors/exit_status_errors.hpp"
#include "reference/model_callbacks.hpp"

namespace geomint::detail {

/// What the C callbacks need (the user data of every callback is a CallbackRecord), and what
/// they record during one solver call.
struct CallbackRecord {
  RhsCallback rhs = nullptr;
  ProjectCallback project = nullptr;  // null: no reprojection
  void* user_data = nullptr;
  sunindextype n = 0;

  std::string message;               // the solver's last error or warning message
  bool nonfinite = false;            // f returned a NaN or infinite entry ...
  double nonfinite_time = 0.0;       // ... at this t ...
  sunindextype nonfinite_index = 0;  // ... in this component
  std::exception_ptr exception;      // f (or the projection) threw

  /// Forgets what the previous solver call recorded.
  void clear();
};

/// CVRhsFn and ARKRhsFn: f through the record's callback. A non-finite value of f is an
/// unrecoverable failure (return -1: the solver stops with its RHSFUNC_FAIL flag): for our
/// models it means the state has left the model's domain, and a smaller step would only hide
/// that. An exception must not unwind through the solver's C frames, so it is recorded and
/// rethrown by the core.
int rhs_callback(sunrealtype t, N_Vector y, N_Vector dy, void* record) noexcept;

/// CVErrHandlerFn and ARKErrHandlerFn: keep the message for the typed failure instead of
/// printing it. The solvers report a failure right before returning its negative flag, so the
/// last message is the one that describes the flag.
void error_handler(int code, const char* module, const char* function, char* msg,
                   void* record) noexcept;

/// Throws the typed failure of `kind` for a negative flag, or NonFinite (at the time f was
/// evaluated) if f returned a non-finite value during the call, whatever the flag: a non-finite
/// f stops the solver at once, whichever module called it, so it is the cause. `detail` names
/// the solver, the function, the flag and the step count; `reached` is the solver's time.
[[noreturn]] void throw_failure(const CallbackRecord& record, FailureKind kind, double reached,
                                std::string detail);

/// Throws StepSizeUnderflow for a step that did not advance t: the solvers only warn when
/// t + h == t, and step on, changing y but not t (a finite-time blow-up gets there). NonFinite
/// (at the time f was evaluated) instead if f was not finite during the call: CVODE's Adams
/// fixed-point iteration retries a step whose f failed with a smaller one, down to this.
[[noreturn]] void throw_no_progress(const CallbackRecord& record, std::string_view name,
                                    double t, double h, std::int64_t steps);

/// Throws TooMuchWork: `steps` steps (the limit) taken at t without reaching T.
[[noreturn]] void throw_step_limit(std::string_view name, double t, double T, std::int64_t steps);

/// x as "%.9g".
std::string format(double x);

/// h, or std::bad_alloc if a SUNDIALS constructor returned null.
template <class Handle>
Handle created(Handle h) {
  if (h == nullptr) throw std::bad_alloc();
  return h;
}

}  // namespace geomint::detail
