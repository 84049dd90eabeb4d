#pragma once
// SUNDIALS ARKODE's explicit Runge-Kutta stepper (ERKStep) as a reference solver, with the
// interface of an adaptive integrator (integrators/dormand_prince.hpp): ERKStep's default
// method, the order-4 table ARKODE_ZONNEVELD_5_3_4 (Zonneveld's 5-stage 4(3) pair: the
// solution is propagated at order 4, the order-3 embedding estimates the error), with ARKODE's
// default PID step-size controller and scalar rtol and atol in its weighted RMS norm
// (Reynolds et al., "ARKODE: a flexible IVP solver infrastructure for one-step methods",
// ACM TOMS 49 (2023); the ARKODE 5.4 user guide).
//
// The reprojection variant puts the state back on the model's manifold (model.project) after
// every accepted step and hands the projected state to ERKStep with ERKStepReset, which keeps
// the step size, the controller's error history and the counters: a one-step method has no
// other history to invalidate, so the variant keeps the method's order.
//
// advance() takes one internal step (ARK_ONE_STEP) and never passes T (ERKStepSetStopTime).
// The SUNDIALS objects live in the non-template ArkodeErkCore (reference/arkode.cpp).

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"
#include "reference/model_callbacks.hpp"
#include "reference/options.hpp"

namespace geomint {

/// The Butcher table ERKStep is using: its stages, the order q of the propagated solution and
/// the order p of the embedding.
struct ButcherTableShape {
  int stages;
  int order;
  int embedded_order;
};

namespace detail {

/// Owns an ERKStep solver (SUNContext, serial N_Vector, arkode_mem) for y' = f(t, y) in R^n.
/// Turns every negative ARKODE return flag into a typed IntegrationFailure (see step()).
class ArkodeErkCore {
 public:
  /// `project` null: no reprojection. Throws InputError unless rtol > 0, atol > 0, T > t0 and
  /// max_steps > 0.
  ArkodeErkCore(std::string_view name, Eigen::Index n, RhsCallback rhs, ProjectCallback project,
                void* user_data, const IntegratorOptions& opt, const ReferenceOptions& settings);
  ~ArkodeErkCore();
  ArkodeErkCore(const ArkodeErkCore&) = delete;
  ArkodeErkCore& operator=(const ArkodeErkCore&) = delete;

  /// One internal step from (t, y) towards T, ending at T at the latest. The first call
  /// creates ERKStep at (t, y); a later (t, y) other than what the previous step returned is
  /// handed over with ERKStepReset (step size and counters kept). Afterwards time() and
  /// state() hold the step's end (projected, with a projection).
  ///
  /// Throws TooMuchWork once max_steps steps have been taken; StepSizeUnderflow for a step
  /// that does not advance t (ARKODE only warns that t + h == t); rethrows what f or the
  /// projection threw; and for a negative ARKODE flag:
  ///   any flag, if f returned a NaN or infinity    -> NonFinite (ARK_RHSFUNC_FAIL)
  ///   ARK_TOO_MUCH_WORK                            -> TooMuchWork
  ///   ARK_TOO_MUCH_ACC, ARK_ERR_FAILURE            -> StepSizeUnderflow
  ///   anything else (ARK_*RHSFUNC_* without a
  ///   non-finite value, ARK_VECTOROP_ERR, ...)     -> NonConvergence
  /// each at ARKODE's current time (NonFinite: the time f was evaluated at), with the flag's
  /// name, the number of steps taken and ARKODE's own message.
  void step(double t, const double* y, double T);

  double time() const { return t_; }
  const double* state() const;
  /// ERKStep's counters, updated after every step().
  const Work& work() const { return work_; }
  /// The table ERKStep uses; std::logic_error before the first step().
  ButcherTableShape table() const;

  struct Impl;  // the SUNDIALS handles and what the C callbacks record (arkode.cpp)

 private:
  void update_work();
  [[noreturn]] void fail(long flag, std::string_view function) const;
  void check(int flag, std::string_view function) const;

  std::unique_ptr<Impl> impl_;
  std::string name_;
  Eigen::Index n_;
  double rtol_, atol_;
  std::int64_t max_steps_;
  bool reset_ = false;  // the last step's result was projected
  double t_;
  Work work_;
};

}  // namespace detail

inline constexpr Declaration kArkodeErkDeclaration{
    "arkode_erk",
    "SUNDIALS ARKODE ERKStep, its default table Zonneveld 5-stage 4(3) with the PID controller",
    Family::Reference, 4, /*adaptive*/ true, false, false, false};
inline constexpr Declaration kArkodeErkProjectedDeclaration{
    "arkode_erk_proj",
    "SUNDIALS ARKODE ERKStep as arkode_erk, projected after every step and resumed with "
    "ERKStepReset",
    Family::Reference, 4, /*adaptive*/ true, false, false, /*stays_on_manifold*/ true};

template <AmbientOde M, bool Reproject = false>
class ArkodeErk {
 public:
  using Model = M;
  using State = typename M::State;
  static constexpr const Declaration& declaration =
      Reproject ? kArkodeErkProjectedDeclaration : kArkodeErkDeclaration;

  ArkodeErk(const M& model, const IntegratorOptions& opt, const ReferenceOptions& settings = {})
      : callbacks_(model),
        core_(declaration.name, model.dimension(), &Callbacks::rhs,
              Reproject ? &Callbacks::project : nullptr, &callbacks_, opt, settings) {}
  // The core holds the address of callbacks_.
  ArkodeErk(const ArkodeErk&) = delete;
  ArkodeErk& operator=(const ArkodeErk&) = delete;

  const Work& work() const { return core_.work(); }
  /// The Butcher table ERKStep uses (after the first step).
  ButcherTableShape table() const { return core_.table(); }

  /// One internal ERKStep step from (t, y) towards T (never past it); observe(t, y) at its end.
  template <class Observer>
  void advance(double& t, State& y, double T, Observer&& observe) {
    core_.step(t, y.data(), T);
    t = core_.time();
    y = Eigen::Map<const State>(core_.state(), y.size());
    observe(t, static_cast<const State&>(y));
  }

 private:
  using Callbacks = detail::ModelCallbacks<M>;
  Callbacks callbacks_;
  detail::ArkodeErkCore core_;
};

template <AmbientOde M>
using ArkodeErkProjected = ArkodeErk<M, true>;

}  // namespace geomint
