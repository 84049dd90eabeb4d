// The non-template part of reference/sundials_core.hpp: what SundialsCore does for every
// module, and the mapping of the modules' return flags to typed failures.

#include "reference/sundials_core.hpp"

#include <nvector/nvector_serial.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "errors/exit_status_errors.hpp"
#include "reference/sundials_module.hpp"
#include "reference/sundials_support.hpp"

namespace geomint::detail {

namespace {

/// The module's name for a return flag, which its function returns as a string to free.
std::string flag_name(const SundialsEntryPoints& entry, long flag) {
  const std::unique_ptr<char, decltype(&std::free)> name(entry.get_return_flag_name(flag),
                                                         &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

}  // namespace

SundialsSolver::~SundialsSolver() {
  module.reset();  // the solver memory uses the N_Vector and the context: it goes first
  if (y != nullptr) N_VDestroy(y);
  if (context != nullptr) SUNContext_Free(&context);
}

void SundialsSolver::check(int flag, std::string_view function) const {
  if (flag < 0) fail(flag, function);
}

void SundialsSolver::fail(long flag, std::string_view function) const {
  const SundialsEntryPoints& entry = module->entry_points();
  double reached = t;
  if (void* mem = module->memory(); mem != nullptr) {
    sunrealtype tcur = 0.0;
    if (entry.get_current_time(mem, &tcur) >= 0) reached = tcur;
  }
  std::string detail = name + ": " + std::string(function) + " returned " +
                       flag_name(entry, flag) + " after " + std::to_string(work.steps) +
                       " steps";
  FailureKind kind = FailureKind::NonConvergence;  // the corrector, the linear solver, f
                                                   // without a non-finite value, the projection
  if (flag == entry.too_much_work) kind = FailureKind::TooMuchWork;
  // The tolerances cannot be met even at the smallest step; repeated error-test failures, or
  // one with |h| = hmin.
  if (flag == entry.too_much_accuracy || flag == entry.error_failure)
    kind = FailureKind::StepSizeUnderflow;
  throw_failure(record, kind, reached, std::move(detail));
}

std::int64_t SundialsSolver::counter(int (*getter)(void*, long*),
                                     std::string_view function) const {
  long value = 0;
  check(getter(module->memory(), &value), function);
  return static_cast<std::int64_t>(value);
}

SundialsCore::SundialsCore(std::unique_ptr<SundialsModule> module,
                           const SundialsProblem& problem)
    : solver_(std::make_unique<SundialsSolver>()) {
  SundialsSolver& s = *solver_;
  s.name = problem.name;
  s.n = problem.n;
  s.rtol = problem.opt.tolerances.rtol;
  s.atol = problem.opt.tolerances.atol;
  s.max_steps = problem.settings.max_steps;
  s.t = problem.opt.t0;
  if (!(s.rtol > 0.0) || !(s.atol > 0.0))
    throw InputError(s.name + ": rtol and atol must be positive");
  if (!(problem.opt.T > problem.opt.t0)) throw InputError(s.name + ": need T > t0");
  if (!(s.max_steps > 0)) throw InputError(s.name + ": max_steps must be positive");
  s.module = std::move(module);
  s.record.rhs = problem.rhs;
  s.record.project = problem.project;
  s.record.user_data = problem.user_data;
  s.record.n = static_cast<sunindextype>(problem.n);
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::bad_alloc();
  s.y = created(N_VNew_Serial(s.record.n, s.context));
  if (problem.project != nullptr && !s.module->projects_in_step())
    s.unprojected.resize(static_cast<std::size_t>(problem.n));
  s.module->create(s);
}

SundialsCore::~SundialsCore() = default;

double SundialsCore::time() const { return solver_->t; }

const double* SundialsCore::state() const { return N_VGetArrayPointer(solver_->y); }

const Work& SundialsCore::work() const { return solver_->work; }

void SundialsCore::step(double t, const double* y, double T) {
  SundialsSolver& s = *solver_;
  const SundialsEntryPoints& entry = s.module->entry_points();
  s.record.clear();
  if (!(T > t)) throw InputError(s.name + ": advance() needs t < T");
  // The modules' own step limits (mxstep) count steps within one call, and in one-step mode
  // each call takes one step, so they never trigger: step() counts max_steps instead.
  if (s.work.steps >= s.max_steps) throw_step_limit(s.name, t, T, s.work.steps);
  start_or_restart(t, y);
  // Set on every call: T may change between calls, and CVODE 6.4 clears a stop time once it
  // has returned there.
  s.check(entry.set_stop_time.function(s.module->memory(), T), entry.set_stop_time.name);

  sunrealtype tret = t;
  const int flag = entry.evolve.function(s.module->memory(), T, s.y, &tret, entry.one_step);
  update_work();
  if (s.record.exception) std::rethrow_exception(s.record.exception);
  if (flag < 0) s.fail(flag, entry.evolve.name);
  if (!(tret > t)) {
    sunrealtype h = 0.0;
    s.check(entry.get_last_step.function(s.module->memory(), &h), entry.get_last_step.name);
    throw_no_progress(s.record, s.name, t, h, s.work.steps);
  }
  s.t = tret;
  project_result();
}

void SundialsCore::start_or_restart(double t, const double* y) {
  SundialsSolver& s = *solver_;
  double* ys = N_VGetArrayPointer(s.y);
  if (!s.started) {
    std::copy(y, y + s.n, ys);
    s.module->start(s, t);
    s.started = true;
  } else if (s.projected || t != s.t || !std::equal(y, y + s.n, ys)) {
    if (!s.module->entry_points().restart_keeps_counters) s.base = s.work;
    std::copy(y, y + s.n, ys);
    s.module->restart(s, t, s.projected);
    s.projected = false;
  }
}

void SundialsCore::update_work() {
  SundialsSolver& s = *solver_;
  s.work = s.base;
  s.module->count(s, s.work);
}

void SundialsCore::project_result() {
  SundialsSolver& s = *solver_;
  if (s.unprojected.empty()) return;
  // Restart from the projected result on the next call, unless the projection left it bit for
  // bit unchanged.
  double* ys = N_VGetArrayPointer(s.y);
  std::copy(ys, ys + s.n, s.unprojected.begin());
  s.record.project(ys, s.record.user_data);
  s.projected = !std::equal(s.unprojected.begin(), s.unprojected.end(), ys);
}

}  // namespace geomint::detail
