// CVODE's module of SundialsCore (reference/cvode.hpp): its solvers and method settings, its
// projection callback, and its restarts.

#include "reference/cvode.hpp"

#include <cvode/cvode.h>
#include <cvode/cvode_ls.h>
#include <cvode/cvode_proj.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>

#include "reference/sundials_module.hpp"
#include "reference/sundials_support.hpp"

namespace geomint::detail {

namespace {

/// CVProjFn: corr = project(ycur) - ycur, through the record's callback. Not finite or thrown:
/// an unrecoverable failure (CV_PROJFUNC_FAIL), the exception rethrown by SundialsCore::step.
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

constexpr SundialsEntryPoints kCvodeEntryPoints{
    {&CVodeSetStopTime, "CVodeSetStopTime"},
    {&CVode, "CVode"},
    CV_ONE_STEP,
    {&CVodeGetLastStep, "CVodeGetLastStep"},
    &CVodeGetCurrentTime,
    &CVodeGetReturnFlagName,
    CV_TOO_MUCH_WORK,
    CV_TOO_MUCH_ACC,
    CV_ERR_FAILURE,
    /*restart_keeps_counters*/ false};

/// cvode_mem and, for BDF, a dense SUNMatrix and SUNLinearSolver, or an SPGMR SUNLinearSolver;
/// for Adams a fixed-point SUNNonlinearSolver.
class CvodeModule final : public SundialsModule {
 public:
  explicit CvodeModule(CvodeMethod method) : SundialsModule(kCvodeEntryPoints), method_(method) {}
  ~CvodeModule() override {
    CVodeFree(&mem_);
    if (nonlinear_solver_ != nullptr) SUNNonlinSolFree(nonlinear_solver_);
    if (solver_ != nullptr) SUNLinSolFree(solver_);
    if (matrix_ != nullptr) SUNMatDestroy(matrix_);
  }
  CvodeModule(const CvodeModule&) = delete;
  CvodeModule& operator=(const CvodeModule&) = delete;

  void* memory() const override { return mem_; }

  void create(SundialsSolver& s) override {
    const sunindextype n = s.record.n;
    if (method_ == CvodeMethod::Bdf) {
      matrix_ = created(SUNDenseMatrix(n, n, s.context));
      solver_ = created(SUNLinSol_Dense(s.y, matrix_, s.context));
      mem_ = created(CVodeCreate(CV_BDF, s.context));
    } else if (method_ == CvodeMethod::BdfGmres) {
      // maxl 0: SPGMR's default Krylov dimension (5).
      solver_ = created(SUNLinSol_SPGMR(s.y, SUN_PREC_NONE, 0, s.context));
      mem_ = created(CVodeCreate(CV_BDF, s.context));
    } else {
      nonlinear_solver_ = created(SUNNonlinSol_FixedPoint(s.y, 0, s.context));
      mem_ = created(CVodeCreate(CV_ADAMS, s.context));
    }
    s.check(CVodeSetErrHandlerFn(mem_, &error_handler, &s.record), "CVodeSetErrHandlerFn");
    s.check(CVodeSetUserData(mem_, &s.record), "CVodeSetUserData");
  }

  /// CVodeInit at (t, y) with the tolerances, the method's solvers and the projection.
  void start(SundialsSolver& s, double t) override {
    s.check(CVodeInit(mem_, &rhs_callback, t, s.y), "CVodeInit");
    s.check(CVodeSStolerances(mem_, s.rtol, s.atol), "CVodeSStolerances");
    if (method_ != CvodeMethod::Adams) {
      // Newton with the dense direct solver or matrix-free GMRES (no matrix); no Jacobian (or
      // Jacobian-times-vector) function is set, so CVODE builds J, or J v, by difference
      // quotients (its rhs calls are counted by CVodeGetNumLinRhsEvals).
      s.check(CVodeSetLinearSolver(mem_, solver_, matrix_), "CVodeSetLinearSolver");
      if (s.record.project != nullptr) {
        s.check(CVodeSetProjFn(mem_, &project_callback), "CVodeSetProjFn");
        s.check(CVodeSetProjErrEst(mem_, SUNFALSE), "CVodeSetProjErrEst");
      }
    } else {
      s.check(CVodeSetNonlinearSolver(mem_, nonlinear_solver_), "CVodeSetNonlinearSolver");
    }
  }

  void restart(SundialsSolver& s, double t, bool after_projection) override {
    // A restart after our own projection (Adams) starts at the step size CVODE proposed for its
    // next step (CVodeGetCurrentStep), not at its initial-step estimate: that estimate
    // bounds the step so that no component changes by more than 10% of itself plus its
    // tolerance in an Euler step, i.e. by ~atol / |f_i| for any component near zero, and for
    // the double pendulum one of the twelve nearly always is (~3e5 steps per unit time at any
    // tolerance). A caller's modification is a fresh start (h = 0: CVODE estimates it).
    sunrealtype h = 0.0;
    if (after_projection) s.check(CVodeGetCurrentStep(mem_, &h), "CVodeGetCurrentStep");
    s.check(CVodeReInit(mem_, t, s.y), "CVodeReInit");
    s.check(CVodeSetInitStep(mem_, h), "CVodeSetInitStep");
  }

  void count(const SundialsSolver& s, Work& work) const override {
    work.steps += s.counter(&CVodeGetNumSteps, "CVodeGetNumSteps");
    // Rejected step attempts: failed error tests, and attempts whose corrector failed to
    // converge (CVodeGetNumStepSolveFails; CVodeGetNumNonlinSolvConvFails would count only the
    // nonlinear solver's own failures, not a failed linear-solver setup or a recoverable f).
    work.rejected += s.counter(&CVodeGetNumErrTestFails, "CVodeGetNumErrTestFails") +
                     s.counter(&CVodeGetNumStepSolveFails, "CVodeGetNumStepSolveFails");
    // Every evaluation of f, including those of BDF's difference-quotient Jacobian (or J v).
    work.f_evals += s.counter(&CVodeGetNumRhsEvals, "CVodeGetNumRhsEvals");
    if (method_ != CvodeMethod::Adams)
      work.f_evals += s.counter(&CVodeGetNumLinRhsEvals, "CVodeGetNumLinRhsEvals");
    work.nonlinear_iterations +=
        s.counter(&CVodeGetNumNonlinSolvIters, "CVodeGetNumNonlinSolvIters");
  }

  /// BDF: CVODE's own projection (CVodeSetProjFn). Adams: CVODE refuses to project it, so the
  /// core projects each result and the next step restarts there.
  bool projects_in_step() const override { return method_ != CvodeMethod::Adams; }

 private:
  CvodeMethod method_;
  SUNMatrix matrix_ = nullptr;                     // BDF (dense)
  SUNLinearSolver solver_ = nullptr;               // BDF: dense, or GMRES
  SUNNonlinearSolver nonlinear_solver_ = nullptr;  // Adams
  void* mem_ = nullptr;
};

}  // namespace

SundialsCore cvode_core(CvodeMethod method, const SundialsProblem& problem) {
  return SundialsCore(std::make_unique<CvodeModule>(method), problem);
}

}  // namespace geomint::detail
