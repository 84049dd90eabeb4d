// ERKStep's module of SundialsCore (reference/arkode.hpp): its creation at the first step, its
// resets, its counters and its Butcher table.

#include "reference/arkode.hpp"

#include <arkode/arkode.h>
#include <arkode/arkode_erkstep.h>

#include <memory>
#include <stdexcept>

#include "reference/sundials_module.hpp"
#include "reference/sundials_support.hpp"

namespace geomint::detail {

namespace {

constexpr SundialsEntryPoints kErkStepEntryPoints{
    {&ERKStepSetStopTime, "ERKStepSetStopTime"},
    {&ERKStepEvolve, "ERKStepEvolve"},
    ARK_ONE_STEP,
    {&ERKStepGetLastStep, "ERKStepGetLastStep"},
    &ERKStepGetCurrentTime,
    &ERKStepGetReturnFlagName,
    ARK_TOO_MUCH_WORK,
    ARK_TOO_MUCH_ACC,
    ARK_ERR_FAILURE,
    /*restart_keeps_counters*/ true};

/// arkode_mem, created by the first step: ERKStepCreate needs the initial state.
class ErkStepModule final : public SundialsModule {
 public:
  ErkStepModule() : SundialsModule(kErkStepEntryPoints) {}
  ~ErkStepModule() override {
    if (mem_ != nullptr) ERKStepFree(&mem_);
  }
  ErkStepModule(const ErkStepModule&) = delete;
  ErkStepModule& operator=(const ErkStepModule&) = delete;

  void* memory() const override { return mem_; }

  // Nothing up front: ERKStepCreate takes the initial state, which start() has.
  void create(SundialsSolver& /*s*/) override {}

  void start(SundialsSolver& s, double t) override {
    mem_ = created(ERKStepCreate(&rhs_callback, t, s.y, s.context));
    s.check(ERKStepSetErrHandlerFn(mem_, &error_handler, &s.record), "ERKStepSetErrHandlerFn");
    s.check(ERKStepSetUserData(mem_, &s.record), "ERKStepSetUserData");
    s.check(ERKStepSStolerances(mem_, s.rtol, s.atol), "ERKStepSStolerances");
  }

  /// A one-step method has no history to invalidate: the step size, the controller's error
  /// history and the counters carry on.
  void restart(SundialsSolver& s, double t, bool /*after_projection*/) override {
    s.check(ERKStepReset(mem_, t, s.y), "ERKStepReset");
  }

  void count(const SundialsSolver& s, Work& work) const override {
    work.steps += s.counter(&ERKStepGetNumSteps, "ERKStepGetNumSteps");
    work.rejected += s.counter(&ERKStepGetNumErrTestFails, "ERKStepGetNumErrTestFails");
    work.f_evals += s.counter(&ERKStepGetNumRhsEvals, "ERKStepGetNumRhsEvals");
  }

  bool projects_in_step() const override { return false; }

 private:
  void* mem_ = nullptr;
};

}  // namespace

SundialsCore arkode_erk_core(const SundialsProblem& problem) {
  return SundialsCore(std::make_unique<ErkStepModule>(), problem);
}

ButcherTableShape erk_table(const SundialsCore& core) {
  const SundialsSolver& s = core.solver();
  void* mem = s.module->memory();
  if (mem == nullptr) throw std::logic_error(s.name + ": no table before the first step");
  ARKodeButcherTable b = nullptr;
  s.check(ERKStepGetCurrentButcherTable(mem, &b), "ERKStepGetCurrentButcherTable");
  return {b->stages, b->q, b->p};
}

}  // namespace geomint::detail
