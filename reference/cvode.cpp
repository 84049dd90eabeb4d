// The non-template part of reference/cvode.hpp: the SUNDIALS objects, the C callbacks, and
// the mapping of CVODE return flags to typed failures.

#include "reference/cvode.hpp"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "models/parameters.hpp"
#include "reference/sundials_support.hpp"

namespace geomint::detail {

struct CvodeCore::Impl {
  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    CVodeFree(&mem);
    if (nonlinear_solver != nullptr) SUNNonlinSolFree(nonlinear_solver);
    if (solver != nullptr) SUNLinSolFree(solver);
    if (matrix != nullptr) SUNMatDestroy(matrix);
    if (y != nullptr) N_VDestroy(y);
    if (context != nullptr) SUNContext_Free(&context);
  }

  SUNContext context = nullptr;
  N_Vector y = nullptr;  // y0 on (re)initialisation, then each step's result
  SUNMatrix matrix = nullptr;                     // BDF (dense)
  SUNLinearSolver solver = nullptr;               // BDF: dense, or GMRES
  SUNNonlinearSolver nonlinear_solver = nullptr;  // Adams
  void* mem = nullptr;
  std::vector<double> unprojected;  // Adams with projection: a step's result before projection

  CallbackRecord record;
};

namespace {

/// CVProjFn: corr = project(ycur) - ycur, through the record's callback. Not finite or thrown:
/// an unrecoverable failure (CV_PROJFUNC_FAIL), the exception rethrown by CvodeCore::step.
/// The error estimate is not projected (CVodeSetProjErrEst off), so err is null.
int project_callback(sunrealtype t, N_Vector ycur, N_Vector corr, sunrealtype /*eps_proj*/,
                     N_Vector /*err*/, void* data) noexcept {
  auto& s = *static_cast<CallbackRecord*>(data);
  const double* y = N_VGetArrayPointer(ycur);
  double* c = N_VGetArrayPointer(corr);
  std::copy(y, y + s.n, c);
  try {
    s.project(c, s.user_data);
  } catch (...) {
    s.exception = std::current_exception();
    return -1;
  }
  for (sunindextype i = 0; i < s.n; ++i) {
    c[i] -= y[i];
    if (!std::isfinite(c[i])) {
      s.message = "the projection of the state at t = " + format(t) + " is not finite";
      return -1;
    }
  }
  return 0;
}

/// CVodeGetReturnFlagName, which returns a string the caller must free.
std::string flag_name(int flag) {
  const std::unique_ptr<char, decltype(&std::free)> name(CVodeGetReturnFlagName(flag), &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

}  // namespace

CvodeCore::CvodeCore(std::string_view name, CvodeMethod method, Eigen::Index n, RhsCallback rhs,
                     ProjectCallback project, void* user_data, const IntegratorOptions& opt,
                     const ReferenceOptions& settings)
    : impl_(std::make_unique<Impl>()),
      name_(name),
      method_(method),
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
  s.record.rhs = rhs;
  s.record.project = project;
  s.record.user_data = user_data;
  s.record.n = static_cast<sunindextype>(n);
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::bad_alloc();
  s.y = created(N_VNew_Serial(s.record.n, s.context));
  if (method == CvodeMethod::Bdf) {
    s.matrix = created(SUNDenseMatrix(s.record.n, s.record.n, s.context));
    s.solver = created(SUNLinSol_Dense(s.y, s.matrix, s.context));
    s.mem = created(CVodeCreate(CV_BDF, s.context));
  } else if (method == CvodeMethod::BdfGmres) {
    // maxl 0: SPGMR's default Krylov dimension (5).
    s.solver = created(SUNLinSol_SPGMR(s.y, SUN_PREC_NONE, 0, s.context));
    s.mem = created(CVodeCreate(CV_BDF, s.context));
  } else {
    s.nonlinear_solver = created(SUNNonlinSol_FixedPoint(s.y, 0, s.context));
    s.mem = created(CVodeCreate(CV_ADAMS, s.context));
    if (project != nullptr) s.unprojected.resize(static_cast<std::size_t>(n));
  }
  check(CVodeSetErrHandlerFn(s.mem, &error_handler, &s.record), "CVodeSetErrHandlerFn");
  check(CVodeSetUserData(s.mem, &s.record), "CVodeSetUserData");
  // CVODE's own step limit (mxstep) counts steps within one CVode() call, and in CV_ONE_STEP
  // mode each call takes one step, so it never triggers: step() counts max_steps instead.
}

CvodeCore::~CvodeCore() = default;

const double* CvodeCore::state() const { return N_VGetArrayPointer(impl_->y); }

void CvodeCore::initialise(double t) {
  Impl& s = *impl_;
  check(CVodeInit(s.mem, &rhs_callback, t, s.y), "CVodeInit");
  check(CVodeSStolerances(s.mem, rtol_, atol_), "CVodeSStolerances");
  if (method_ != CvodeMethod::Adams) {
    // Newton with the dense direct solver or matrix-free GMRES (no matrix); no Jacobian (or
    // Jacobian-times-vector) function is set, so CVODE builds J, or J v, by difference
    // quotients (its rhs calls are counted by CVodeGetNumLinRhsEvals).
    check(CVodeSetLinearSolver(s.mem, s.solver, s.matrix), "CVodeSetLinearSolver");
    if (s.record.project != nullptr) {
      check(CVodeSetProjFn(s.mem, &project_callback), "CVodeSetProjFn");
      check(CVodeSetProjErrEst(s.mem, SUNFALSE), "CVodeSetProjErrEst");
    }
  } else {
    check(CVodeSetNonlinearSolver(s.mem, s.nonlinear_solver), "CVodeSetNonlinearSolver");
  }
}

void CvodeCore::step(double t, const double* y, double T) {
  Impl& s = *impl_;
  s.record.clear();
  if (!(T > t)) throw InputError(name_ + ": advance() needs t < T");
  if (work_.steps >= max_steps_) throw_step_limit(name_, t, T, work_.steps);
  double* ys = N_VGetArrayPointer(s.y);
  if (!initialised_) {
    std::copy(y, y + n_, ys);
    initialise(t);
    initialised_ = true;
  } else if (restart_ || t != t_ || !std::equal(y, y + n_, ys)) {
    // A restart after our own projection (Adams) starts at the step size CVODE proposed for its
    // next step (CVodeGetCurrentStep), not at its initial-step estimate: that estimate
    // bounds the step so that no component changes by more than 10% of itself plus its
    // tolerance in an Euler step, i.e. by ~atol / |f_i| for any component near zero, and for
    // the double pendulum one of the twelve nearly always is (~3e5 steps per unit time at any
    // tolerance). A caller's modification is a fresh start (h = 0: CVODE estimates it).
    sunrealtype h = 0.0;
    if (restart_) check(CVodeGetCurrentStep(s.mem, &h), "CVodeGetCurrentStep");
    base_ = work_;  // CVodeReInit zeroes CVODE's counters
    std::copy(y, y + n_, ys);
    check(CVodeReInit(s.mem, t, s.y), "CVodeReInit");
    check(CVodeSetInitStep(s.mem, h), "CVodeSetInitStep");
    restart_ = false;
  }
  // Set on every call: T may change between calls, and CVODE 6.4 clears a stop time once it
  // has returned there.
  check(CVodeSetStopTime(s.mem, T), "CVodeSetStopTime");

  sunrealtype tret = t;
  const int flag = CVode(s.mem, T, s.y, &tret, CV_ONE_STEP);
  update_work();
  if (s.record.exception) std::rethrow_exception(s.record.exception);
  if (flag < 0) fail(flag, "CVode");
  if (!(tret > t)) {
    sunrealtype h = 0.0;
    check(CVodeGetLastStep(s.mem, &h), "CVodeGetLastStep");
    throw_no_progress(s.record, name_, t, h, work_.steps);
  }
  t_ = tret;
  // Adams with projection: project the result here, and restart from it on the next call
  // (unless the projection left it bit for bit unchanged).
  if (!s.unprojected.empty()) {
    std::copy(ys, ys + n_, s.unprojected.begin());
    s.record.project(ys, s.record.user_data);
    restart_ = !std::equal(s.unprojected.begin(), s.unprojected.end(), ys);
  }
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
  // Every evaluation of f, including those of BDF's difference-quotient Jacobian (or J v).
  work_.f_evals = base_.f_evals + get(&CVodeGetNumRhsEvals, "CVodeGetNumRhsEvals");
  if (method_ != CvodeMethod::Adams)
    work_.f_evals += get(&CVodeGetNumLinRhsEvals, "CVodeGetNumLinRhsEvals");
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
  std::string detail = name_ + ": " + std::string(function) + " returned " + flag_name(flag) +
                       " after " + std::to_string(work_.steps) + " steps";
  FailureKind kind = FailureKind::NonConvergence;  // the corrector, the linear solver, f
                                                   // without a non-finite value, the projection
  if (flag == CV_TOO_MUCH_WORK) kind = FailureKind::TooMuchWork;
  // The tolerances cannot be met even at the smallest step; repeated error-test failures, or
  // one with |h| = hmin.
  if (flag == CV_TOO_MUCH_ACC || flag == CV_ERR_FAILURE) kind = FailureKind::StepSizeUnderflow;
  throw_failure(s.record, kind, t, std::move(detail));
}

}  // namespace geomint::detail
