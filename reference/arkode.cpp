// The non-template part of reference/arkode.hpp: the SUNDIALS objects and the mapping of
// ARKODE return flags to typed failures.

#include "reference/arkode.hpp"

#include <arkode/arkode.h>
#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "models/parameters.hpp"
#include "reference/sundials_support.hpp"

namespace geomint::detail {

struct ArkodeErkCore::Impl {
  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (mem != nullptr) ERKStepFree(&mem);
    if (y != nullptr) N_VDestroy(y);
    if (context != nullptr) SUNContext_Free(&context);
  }

  SUNContext context = nullptr;
  N_Vector y = nullptr;  // y0 on creation or reset, then each step's result
  void* mem = nullptr;   // created by the first step()
  std::vector<double> unprojected;  // with projection: a step's result before projection

  CallbackRecord record;
};

namespace {

/// ERKStepGetReturnFlagName, which returns a string the caller must free.
std::string flag_name(long flag) {
  const std::unique_ptr<char, decltype(&std::free)> name(ERKStepGetReturnFlagName(flag),
                                                         &std::free);
  return name ? std::string(name.get()) : "flag " + std::to_string(flag);
}

}  // namespace

ArkodeErkCore::ArkodeErkCore(std::string_view name, Eigen::Index n, RhsCallback rhs,
                             ProjectCallback project, void* user_data,
                             const IntegratorOptions& opt, const ReferenceOptions& settings)
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
  s.record.rhs = rhs;
  s.record.project = project;
  s.record.user_data = user_data;
  s.record.n = static_cast<sunindextype>(n);
  if (SUNContext_Create(nullptr, &s.context) != 0) throw std::bad_alloc();
  s.y = created(N_VNew_Serial(s.record.n, s.context));
  if (project != nullptr) s.unprojected.resize(static_cast<std::size_t>(n));
}

ArkodeErkCore::~ArkodeErkCore() = default;

const double* ArkodeErkCore::state() const { return N_VGetArrayPointer(impl_->y); }

ButcherTableShape ArkodeErkCore::table() const {
  if (impl_->mem == nullptr) throw std::logic_error(name_ + ": no table before the first step");
  ARKodeButcherTable b = nullptr;
  check(ERKStepGetCurrentButcherTable(impl_->mem, &b), "ERKStepGetCurrentButcherTable");
  return {b->stages, b->q, b->p};
}

void ArkodeErkCore::step(double t, const double* y, double T) {
  Impl& s = *impl_;
  s.record.clear();
  if (!(T > t)) throw InputError(name_ + ": advance() needs t < T");
  if (work_.steps >= max_steps_) throw_step_limit(name_, t, T, work_.steps);
  double* ys = N_VGetArrayPointer(s.y);
  if (s.mem == nullptr) {
    std::copy(y, y + n_, ys);
    s.mem = created(ERKStepCreate(&rhs_callback, t, s.y, s.context));
    check(ERKStepSetErrHandlerFn(s.mem, &error_handler, &s.record), "ERKStepSetErrHandlerFn");
    check(ERKStepSetUserData(s.mem, &s.record), "ERKStepSetUserData");
    check(ERKStepSStolerances(s.mem, rtol_, atol_), "ERKStepSStolerances");
    // ARKODE's step limit (mxstep) counts steps within one ERKStepEvolve() call, one in
    // ARK_ONE_STEP mode: step() counts max_steps instead.
  } else if (reset_ || t != t_ || !std::equal(y, y + n_, ys)) {
    std::copy(y, y + n_, ys);
    check(ERKStepReset(s.mem, t, s.y), "ERKStepReset");
    reset_ = false;
  }
  check(ERKStepSetStopTime(s.mem, T), "ERKStepSetStopTime");

  sunrealtype tret = t;
  const int flag = ERKStepEvolve(s.mem, T, s.y, &tret, ARK_ONE_STEP);
  update_work();
  if (s.record.exception) std::rethrow_exception(s.record.exception);
  if (flag < 0) fail(flag, "ERKStepEvolve");
  if (!(tret > t)) {
    sunrealtype h = 0.0;
    check(ERKStepGetLastStep(s.mem, &h), "ERKStepGetLastStep");
    throw_no_progress(s.record, name_, t, h, work_.steps);
  }
  t_ = tret;
  if (!s.unprojected.empty()) {
    std::copy(ys, ys + n_, s.unprojected.begin());
    s.record.project(ys, s.record.user_data);
    reset_ = !std::equal(s.unprojected.begin(), s.unprojected.end(), ys);
  }
}

void ArkodeErkCore::update_work() {
  const auto get = [this](int (*getter)(void*, long*), std::string_view function) {
    long value = 0;
    check(getter(impl_->mem, &value), function);
    return static_cast<std::int64_t>(value);
  };
  work_.steps = get(&ERKStepGetNumSteps, "ERKStepGetNumSteps");
  work_.rejected = get(&ERKStepGetNumErrTestFails, "ERKStepGetNumErrTestFails");
  work_.f_evals = get(&ERKStepGetNumRhsEvals, "ERKStepGetNumRhsEvals");
}

void ArkodeErkCore::check(int flag, std::string_view function) const {
  if (flag < 0) fail(flag, function);
}

void ArkodeErkCore::fail(long flag, std::string_view function) const {
  const Impl& s = *impl_;
  double t = t_;
  if (s.mem != nullptr) {
    sunrealtype tcur = 0.0;
    if (ERKStepGetCurrentTime(s.mem, &tcur) == ARK_SUCCESS) t = tcur;
  }
  std::string detail = name_ + ": " + std::string(function) + " returned " + flag_name(flag) +
                       " after " + std::to_string(work_.steps) + " steps";
  FailureKind kind = FailureKind::NonConvergence;
  if (flag == ARK_TOO_MUCH_WORK) kind = FailureKind::TooMuchWork;
  if (flag == ARK_TOO_MUCH_ACC || flag == ARK_ERR_FAILURE) kind = FailureKind::StepSizeUnderflow;
  throw_failure(s.record, kind, t, std::move(detail));
}

}  // namespace geomint::detail
