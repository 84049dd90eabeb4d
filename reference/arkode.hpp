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
// A caller's modification of the state between steps is handed over with ERKStepReset too.
//
// What ARKODE shares with CVODE (the N_Vector and context, the option checks, advance(), the
// typed failures) is SundialsCore (reference/sundials_core.hpp); what is ERKStep's is its
// module in reference/arkode.cpp. This header includes no SUNDIALS header.

#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "models/views.hpp"
#include "reference/options.hpp"
#include "reference/sundials_core.hpp"
#include "reference/sundials_integrator.hpp"

namespace geomint {

/// The Butcher table ERKStep is using: its stages, the order q of the propagated solution and
/// the order p of the embedding.
struct ButcherTableShape {
  int stages;
  int order;
  int embedded_order;
};

namespace detail {

/// A core running ERKStep with its defaults; ERKStep itself is created by the first step.
SundialsCore arkode_erk_core(const SundialsProblem& problem);
/// The table ERKStep uses in a core made by arkode_erk_core; std::logic_error before the
/// first step.
ButcherTableShape erk_table(const SundialsCore& core);

}  // namespace detail

inline constexpr Declaration kArkodeErkDeclaration{
    .name = "arkode_erk",
    .description =
        "SUNDIALS ARKODE ERKStep, its default table Zonneveld 5-stage 4(3) with the PID controller",
    .family = Family::Reference, .order = 4, .adaptive = true};
inline constexpr Declaration kArkodeErkProjectedDeclaration = reprojected(
    kArkodeErkDeclaration, "arkode_erk_proj",
    "SUNDIALS ARKODE ERKStep as arkode_erk, projected after every step and resumed with "
    "ERKStepReset");

template <AmbientOde M, bool Reproject = false>
class ArkodeErk : public detail::SundialsIntegrator<M> {
 public:
  static constexpr const Declaration& declaration =
      Reproject ? kArkodeErkProjectedDeclaration : kArkodeErkDeclaration;

  ArkodeErk(const M& model, const IntegratorOptions& opt, const ReferenceOptions& settings = {})
      : detail::SundialsIntegrator<M>(model, declaration.name, Reproject, &detail::arkode_erk_core,
                                      opt, settings) {}

  /// The Butcher table ERKStep uses (after the first step).
  ButcherTableShape table() const { return detail::erk_table(this->core()); }
};

template <AmbientOde M>
using ArkodeErkProjected = ArkodeErk<M, true>;

}  // namespace geomint
