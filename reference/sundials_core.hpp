#pragma once
// One SUNDIALS integrator module (CVODE, or ARKODE's ERKStep) stepping y' = f(t, y) in R^n one
// internal step at a time, with typed failures. What the modules share lives here and in
// reference/sundials_core.cpp: the option checks, the SUNContext and serial N_Vector, when to
// (re)start the module, the stop time, the step limit, the work counters, projecting a step's
// result, and the translation of negative return flags. What each module does differently is
// its SundialsModule (reference/sundials_module.hpp), made by reference/cvode.cpp and
// reference/arkode.cpp. This header includes no SUNDIALS header.

#include <Eigen/Core>
#include <memory>
#include <string_view>

#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "reference/model_callbacks.hpp"
#include "reference/options.hpp"

namespace geomint::detail {

class SundialsModule;
struct SundialsSolver;

/// What a core integrates, and how: the solver's name (for messages), y' = f(t, y) in R^n
/// through C-style callbacks on `user_data`, and the caller's options.
struct SundialsProblem {
  std::string_view name;
  Eigen::Index n;
  RhsCallback rhs;
  ProjectCallback project;  // null: no reprojection
  void* user_data;
  const IntegratorOptions& opt;
  const ReferenceOptions& settings;
};

class SundialsCore {
 public:
  /// Throws InputError unless rtol > 0, atol > 0, T > t0 and max_steps > 0. Called by the
  /// modules' factories (cvode_core, arkode_erk_core), where SundialsModule is complete.
  SundialsCore(std::unique_ptr<SundialsModule> module, const SundialsProblem& problem);
  ~SundialsCore();
  SundialsCore(const SundialsCore&) = delete;
  SundialsCore& operator=(const SundialsCore&) = delete;

  /// One internal step from (t, y) towards T, ending at T at the latest. The first call starts
  /// the module at (t, y); a later (t, y) other than what the previous step returned restarts
  /// it there (how, and what it keeps, is the module's: see cvode.hpp and arkode.hpp), so a
  /// caller may modify the state between steps. Afterwards time() and state() hold the step's
  /// end (projected, with a projection).
  ///
  /// Throws TooMuchWork once max_steps steps have been taken; StepSizeUnderflow for a step
  /// that does not advance t (the modules only warn that t + h == t, and step on); rethrows
  /// what f or the projection threw; and for a negative flag of the module (CV_* or ARK_*):
  ///   any flag, if f returned a NaN or infinity    -> NonFinite (the module stops at once,
  ///                                                   with *_RHSFUNC_FAIL, or CVODE's
  ///                                                   CV_LSETUP_FAIL from its
  ///                                                   difference-quotient Jacobian)
  ///   *_TOO_MUCH_WORK                              -> TooMuchWork
  ///   *_TOO_MUCH_ACC, *_ERR_FAILURE                -> StepSizeUnderflow
  ///   anything else (CV_CONV_FAILURE, CV_LSETUP_FAIL, CV_LSOLVE_FAIL, CV_NLS_*,
  ///   *_RHSFUNC_* without a non-finite value, CV_*PROJFUNC_*, ARK_VECTOROP_ERR, ...)
  ///                                                -> NonConvergence
  /// each at the module's current time (NonFinite: the time f was evaluated at), with the
  /// flag's name, the number of steps taken and the module's own message.
  void step(double t, const double* y, double T);

  double time() const;
  const double* state() const;
  /// Counters summed over every (re)start, updated after every step().
  const Work& work() const;
  /// For a module's own queries (ARKODE's table).
  const SundialsSolver& solver() const { return *solver_; }

 private:
  /// Starts the module at (t, y), or restarts it there when (t, y) is not where the previous
  /// step ended.
  void start_or_restart(double t, const double* y);
  /// Refreshes the work counters from the module's.
  void update_work();
  /// Projects the step's result, if the core projects.
  void project_result();

  std::unique_ptr<SundialsSolver> solver_;
};

}  // namespace geomint::detail
