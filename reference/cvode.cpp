// The non-template part of reference/cvode.hpp: the SUNDIALS objects, the C callbacks, and
// the mapping of CVODE return flags to typed failures.

#include "reference/cvode.hpp"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_version.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>

#include "integrators/failure.hpp"
#include "models/parameters.hpp"

namespace geomint::detail {

struct CvodeCore::Impl {
  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    CVodeFree(&mem);
    if (solver != nullptr) SUNLinSolFree(solver);
    if (matrix != nullptr) SUNMatDestroy(matrix);
    if (y != nullptr) N_VDestroy(y);
    if (context != nullptr) SUNContext_Free(&context);
  }

  SUNContext context = nullptr;
  N_Vector y = nullptr;  // y0 on (re)initialisation, then each step's result
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  void* mem = nullptr;

  Rhs rhs = nullptr;
  void* user_data = nullptr;
  sunindextype n = 0;

  // Recorded by the callbacks during one CVode() call.
  std::string message;               // CVODE's last error or warning message
  bool nonfinite = false;            // f returned a NaN or infinite entry ...
  double nonfinite_time = 0.0;       // ... at this t ...
  sunindextype nonfinite_index = 0;  // ... in this component
  std::exception_ptr exception;      // f threw
};

namespace {

/// CVRhsFn: f through the core's callback. A non-finite value of f is an unrecoverable
/// failure (return -1, CVODE stops with CV_RHSFUNC_FAIL): for our models it means the state
/// has left the model's domain, and a smaller step would only hide that. An exception must
/// not unwind through CVODE's C frames, so it is stored and rethrown by CvodeCore::step.
int rhs_callback(sunrealtype t, N_Vector y, N_Vector dy, void* data) noexcept {
  auto& s = *static_cast<CvodeCore::Impl*>(data);
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

/// CVErrHandlerFn: keep the message for the typed failure instead of printing it. CVODE
/// reports a failure right before returning its negative flag, so the last message is the one
/// that describes the flag.
void error_handler(int /*code*/, const char* /*module*/, const char* function, char* msg,
                   void* data) noexcept {
  auto& s = *static_cast<CvodeCore::Impl*>(data);
  try {
    s.message = std::string(function) + ": " + msg;
  } catch (...) {
    s.message.clear();  // out of memory: the flag's name will have to do
  }
}

/// CVodeGetReturnFlagName, which returns a string the caller must free.
std::string flag_name(int flag) {
  const std::unique_ptr<char, decltype(&std::free)> name(CVodeGetReturnFlagName(flag), &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

std::string format(double x) {
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.9g", x);
  return buf.data();
}

template <class Handle>
Handle created(Handle h) {
  if (h == nullptr) throw std::bad_alloc();
  return h;
}

}  // namespace

CvodeCore::CvodeCore(std::string_view name, Eigen::Index n, Rhs rhs, void* user_data,
                     const IntegratorOptions& opt, const CvodeOptions& settings)
    : impl_(std::make_unique<Impl>()),
      name_(name),
      n_(n),
      rtol_(opt.rtol),
      atol_(opt.atol),
      max_steps_(settings.max_steps),
      t_(opt.t0) {
  if (!(rtol_ > 0.0) || !(atol_ > 0.0))
    throw InputError(name_ + ": rtol and atol must be positive");
  if (!(opt.T > opt.t0)) throw InputError(name_ + ": need T > t0");
  if (!(max_steps_ > 0)) throw InputError(name_ + ": max_steps must be positive");
  Impl& s = *impl_;
  s.rhs = rhs;
  s.user_data = user_data;
  s.n = static_cast<sunindextype>(n);
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::bad_alloc();
  s.y = created(N_VNew_Serial(s.n, s.context));
  s.matrix = created(SUNDenseMatrix(s.n, s.n, s.context));
  s.solver = created(SUNLinSol_Dense(s.y, s.matrix, s.context));
  s.mem = created(CVodeCreate(CV_BDF, s.context));
  check(CVodeSetErrHandlerFn(s.mem, &error_handler, &s), "CVodeSetErrHandlerFn");
  check(CVodeSetUserData(s.mem, &s), "CVodeSetUserData");
  // CVODE's own step limit (mxstep) counts steps within one CVode() call, and in CV_ONE_STEP
  // mode each call takes one step, so it never triggers: step() counts max_steps instead.
}

CvodeCore::~CvodeCore() = default;

const double* CvodeCore::state() const { return N_VGetArrayPointer(impl_->y); }


void CvodeCore::step(double t, const double* y, double T) {
  Impl& s = *impl_;
  s.message.clear();
  s.nonfinite = false;
  s.exception = nullptr;
  if (!(T > t)) throw InputError(name_ + ": advance() needs t < T");
  if (work_.steps >= max_steps_)
    throw TooMuchWork(t, name_ + ": " + std::to_string(max_steps_) +
                             " steps taken without reaching T = " + format(T));
  double* ys = N_VGetArrayPointer(s.y);
  if (!initialised_) {
    std::copy(y, y + n_, ys);
    check(CVodeInit(s.mem, &rhs_callback, t, s.y), "CVodeInit");
    check(CVodeSStolerances(s.mem, rtol_, atol_), "CVodeSStolerances");
    // Newton with the dense direct solver; no Jacobian function is set, so CVODE builds J by
    // difference quotients (its rhs calls are counted by CVodeGetNumLinRhsEvals).
    check(CVodeSetLinearSolver(s.mem, s.solver, s.matrix), "CVodeSetLinearSolver");
    initialised_ = true;
  } else if (t != t_ || !std::equal(y, y + n_, ys)) {
    base_ = work_;  // CVodeReInit zeroes CVODE's counters
    std::copy(y, y + n_, ys);
    check(CVodeReInit(s.mem, t, s.y), "CVodeReInit");
  }
  // Set on every call: T may change between calls, and CVODE 6.4 clears a stop time once it
  // has returned there.
  check(CVodeSetStopTime(s.mem, T), "CVodeSetStopTime");

  sunrealtype tret = t;
  const int flag = CVode(s.mem, T, s.y, &tret, CV_ONE_STEP);
  update_work();
  if (s.exception) std::rethrow_exception(s.exception);
  if (flag < 0) fail(flag, "CVode");
  // CVODE only warns when t + h == t and steps on, changing y but not t (a finite-time
  // blow-up gets there); for us that step is a failure.
  if (!(tret > t)) {
    sunrealtype h = 0.0;
    check(CVodeGetLastStep(s.mem, &h), "CVodeGetLastStep");
    std::string detail = name_ + ": no progress in t: the step h = " + format(h) +
                         " is below the spacing of doubles at t";
    if (!s.message.empty()) detail += "; CVODE warned: " + s.message;
    throw StepSizeUnderflow(t, detail);
  }
  t_ = tret;
}

void CvodeCore::update_work() {
  const auto get = [this](int (*getter)(void*, long*), std::string_view function) {
    long value = 0;
    check(getter(impl_->mem, &value), function);
    return static_cast<std::int64_t>(value);
  };
  work_.steps = base_.steps + get(&CVodeGetNumSteps, "CVodeGetNumSteps");
  // Rejected step attempts: failed error tests, and attempts whose corrector failed to
  // converge (CVodeGetNumStepSolveFails; CVodeGetNumNonlinSolvConvFails would count only the
  // nonlinear solver's own failures, not a failed linear-solver setup or a recoverable f).
  work_.rejected = base_.rejected + get(&CVodeGetNumErrTestFails, "CVodeGetNumErrTestFails") +
                   get(&CVodeGetNumStepSolveFails, "CVodeGetNumStepSolveFails");
  // Every evaluation of f, including those of the difference-quotient Jacobian.
  work_.f_evals = base_.f_evals + get(&CVodeGetNumRhsEvals, "CVodeGetNumRhsEvals") +
                  get(&CVodeGetNumLinRhsEvals, "CVodeGetNumLinRhsEvals");
  work_.nonlinear_iterations =
      base_.nonlinear_iterations + get(&CVodeGetNumNonlinSolvIters, "CVodeGetNumNonlinSolvIters");
}

void CvodeCore::check(int flag, std::string_view function) const {
  if (flag < 0) fail(flag, function);
}

void CvodeCore::fail(int flag, std::string_view function) const {
  const Impl& s = *impl_;
  double t = t_;
  if (s.mem != nullptr) {
    sunrealtype tcur = 0.0;
    if (CVodeGetCurrentTime(s.mem, &tcur) == CV_SUCCESS) t = tcur;
  }
  std::string detail = name_ + ": " + std::string(function) + " returned " + flag_name(flag);
  if (!s.message.empty()) detail += "; " + s.message;
  // A non-finite f stops CVODE at once, whichever module called it (the Newton iteration:
  // CV_RHSFUNC_FAIL; the difference-quotient Jacobian: CV_LSETUP_FAIL), so it is the cause.
  if (s.nonfinite)
    throw NonFinite(s.nonfinite_time, detail + " (component " + std::to_string(s.nonfinite_index) +
                                          " of the right-hand side is not finite; CVODE had "
                                          "reached t = " +
                                          format(t) + ")");
  switch (flag) {
    case CV_TOO_MUCH_WORK:
      throw TooMuchWork(t, detail);
    case CV_TOO_MUCH_ACC:  // the tolerances cannot be met even at the smallest step
    case CV_ERR_FAILURE:   // repeated error-test failures, or one with |h| = hmin
      throw StepSizeUnderflow(t, detail);
    default:  // the corrector, the linear solver, f without a non-finite value, and the rest
      throw NonConvergence(t, detail);
  }
}

}  // namespace geomint::detail
