#pragma once
// An integrator type behind the run-time interface of catalogue/integrator_on_model.hpp.

#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

#include "catalogue/integrator_on_model.hpp"
#include "integrators/compensated_sum.hpp"
#include "integrators/integrate.hpp"
#include "integrators/integrator_concepts.hpp"
#include "integrators/options.hpp"
#include "integrators/step_control.hpp"

namespace geomint {

/// How the adapter of I drives it: at a fixed step, or by I's own error control (which I was
/// constructed with: integrators/options.hpp).
template <class I>
using DrivenBy = std::conditional_t<FixedStepIntegrator<I>, FixedStep, std::monostate>;

namespace detail {

/// The alternative of `control` that I needs; a harness that gives the other is wrong.
template <class I, class Kind>
Kind control_of(const StepControl& control) {
  if (const Kind* kind = std::get_if<Kind>(&control)) return *kind;
  throw std::logic_error(FixedStepIntegrator<I> ? "a fixed-step integrator needs a FixedStep"
                                                : "an adaptive integrator needs Tolerances");
}

}  // namespace detail

/// I on `model` for `control` (of I's kind): a fixed-step I takes no step control; an adaptive
/// one is constructed with its Tolerances and [t0, T]. `method...` follows the model.
template <class I, Model M, class... Method>
I integrator_for(const M& model, const StepControl& control, double t0, double T,
                 const Method&... method) {
  if constexpr (FixedStepIntegrator<I>)
    return I(model, method...);
  else
    return I(model, IntegratorOptions{detail::control_of<I, Tolerances>(control), t0, T},
             method...);
}

/// Turns on compensated summation in a fixed-step I where `control` asks for it (a harness asks
/// only where I offers it: CompiledIntegrator::compensable).
template <class I>
void apply_compensation(I& integrator, const StepControl& control) {
  const auto* fixed = std::get_if<FixedStep>(&control);
  if (!fixed || !fixed->compensated) return;
  if constexpr (CompensatedUpdate<I>)
    integrator.compensate();
  else
    throw std::logic_error(std::string(integrator.declaration.name) + " has no compensated summation");
}

/// What drives I for `control`: its FixedStep, or nothing (an adaptive I has its own control).
template <class I>
DrivenBy<I> driven_by(const StepControl& control) {
  if constexpr (FixedStepIntegrator<I>)
    return detail::control_of<I, FixedStep>(control);
  else
    return {};
}

/// integrate() of integrators/integrate.hpp for either kind of I, driven by `by`.
template <class I, class Observe>
void drive(I& integrator, const DrivenBy<I>& by, typename I::State& y, double t0, double T,
           const Observe& observe, double max_steps = kNoStepCap) {
  if constexpr (FixedStepIntegrator<I>)
    geomint::integrate(integrator, y, t0, T, by, observe, max_steps);
  else
    geomint::integrate(integrator, y, t0, T, observe, max_steps);
}

/// The integrator type I on M behind the run-time interface. `method...` follows the model in
/// I's constructor (a user method's coefficients: studies/user_method_runner.hpp). A mistake in
/// I is reported at the concept it misses.
template <class I, Model M>
  requires FixedStepIntegrator<I> || AdaptiveIntegrator<I>
class PlainIntegratorAdapter : public IntegratorOnModel<M> {
 public:
  using typename IntegratorOnModel<M>::State;
  using typename IntegratorOnModel<M>::Observer;

  /// `control` is the step control of I's kind (FixedStep or Tolerances), checked where it
  /// entered (integrators/step_control.hpp); [t0, T] is the interval an adaptive I integrates.
  template <class... Method>
  PlainIntegratorAdapter(const M& model, const StepControl& control, double t0, double T,
                         const Method&... method)
      : integrator_(integrator_for<I>(model, control, t0, T, method...)),
        driven_by_(driven_by<I>(control)) {
    apply_compensation(integrator_, control);
  }

  void step(double t, State& y, double h) override {
    if constexpr (FixedStepIntegrator<I>)
      integrator_.step(t, y, h);
    else
      refuse("step");
  }
  void advance(double& t, State& y, double T, const Observer& observe) override {
    if constexpr (AdaptiveIntegrator<I>)
      integrator_.advance(t, y, T, observe);
    else
      refuse("advance");
  }
  void integrate(State& y, double t0, double T, const Observer& observe, double max_steps) override {
    run(y, t0, T, observe, max_steps);
  }
  void integrate(State& y, double t0, double T, double max_steps) override {
    run(y, t0, T, [](double, const State&) {}, max_steps);
  }
  Work work() const override { return integrator_.work(); }
  double last_step() const override {
    if constexpr (requires { integrator_.last_step(); })
      return integrator_.last_step();
    else
      return std::numeric_limits<double>::quiet_NaN();
  }

 protected:
  I integrator_;

 private:
  [[noreturn]] void refuse(const char* what) const {
    throw std::logic_error(std::string(integrator_.declaration.name) + " has no " + what);
  }

  template <class Observe>
  void run(State& y, double t0, double T, const Observe& observe, double max_steps) {
    drive(integrator_, driven_by_, y, t0, T, observe, max_steps);
  }

  [[no_unique_address]] DrivenBy<I> driven_by_;
};

/// The same for an integrator with a map of its own on T*G, offered as its cotangent facet.
template <class I, Model M>
  requires HasCotangentMap<I, M>
class CotangentIntegratorAdapter final : public PlainIntegratorAdapter<I, M>,
                                         public CotangentMapFacet<M> {
 public:
  using PlainIntegratorAdapter<I, M>::PlainIntegratorAdapter;

  CotangentMapFacet<M>* cotangent_map() override { return this; }
  void step_point(double t, typename CotangentMapFacet<M>::Point& z, double h) override {
    this->integrator_.step_point(t, z, h);
  }
};

/// The adapter of I on M: with the cotangent facet where I has a map on T*G.
template <class I, Model M>
struct AdapterOf {
  using type = PlainIntegratorAdapter<I, M>;
};
template <class I, Model M>
  requires HasCotangentMap<I, M>
struct AdapterOf<I, M> {
  using type = CotangentIntegratorAdapter<I, M>;
};
template <class I, Model M>
using IntegratorAdapter = typename AdapterOf<I, M>::type;

}  // namespace geomint
