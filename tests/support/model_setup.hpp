#pragma once
// A model built from one of its presets, with the preset's initial state.

#include <string>

#include "catalogue/integrator_on_model.hpp"
#include "integrators/integrate.hpp"
#include "integrators/integrator_concepts.hpp"
#include "integrators/options.hpp"
#include "integrators/step_control.hpp"
#include "models/preset.hpp"

namespace geomint::testing {

template <class Model>
struct Setup {
  Model model;
  typename Model::State initial;
};

template <class Model>
Setup<Model> make_setup(const std::string& preset_name) {
  const auto& preset = find_preset<Model>(preset_name);
  Model model(preset_parameters(preset, {}));
  auto y0 = preset.initial_state(model);
  return {std::move(model), std::move(y0)};
}

/// The final state of a fixed-step run from (0, y0) to T at step `step`; `method...` follows
/// the model in the integrator's constructor (a runtime-coefficient method's coefficients).
template <FixedStepIntegrator Integrator, class Model, class... Method>
typename Model::State final_state(const Model& model, typename Model::State y, FixedStep step,
                                  double T, const Method&... method) {
  Integrator integrator(model, method...);
  integrate(integrator, y, 0.0, T, step, [](double, const typename Model::State&) {});
  return y;
}

/// The final state of an adaptive run from (opt.t0, y0) to opt.T at opt.tolerances.
template <AdaptiveIntegrator Integrator, class Model>
typename Model::State final_state(const Model& model, typename Model::State y,
                                  const IntegratorOptions& opt) {
  Integrator integrator(model, opt);
  integrate(integrator, y, opt.t0, opt.T, [](double, const typename Model::State&) {});
  return y;
}

/// Integrator I on the model from (0, y) to T, observed: a fixed-step one at `step`, an adaptive
/// one at `tolerances` (for a test over integrators of both kinds); its work.
template <class Integrator, class Model, class Observer>
Work integrate_either(const Model& model, typename Model::State& y, double T, FixedStep step,
                      Tolerances tolerances, Observer&& observe) {
  if constexpr (FixedStepIntegrator<Integrator>) {
    Integrator integrator(model);
    integrate(integrator, y, 0.0, T, step, observe);
    return integrator.work();
  } else {
    Integrator integrator(model, IntegratorOptions{tolerances, 0.0, T});
    integrate(integrator, y, 0.0, T, observe);
    return integrator.work();
  }
}

/// The same for a catalogue integrator compiled on the model (catalogue/integrator_on_model.hpp),
/// from (0, y0) to T with the step control of its kind (control_for).
template <class Model>
typename Model::State final_state(const CompiledIntegrator<Model>& method, const Model& model,
                                  typename Model::State y, const StepControl& control, double T) {
  method.run(model, control, 0.0, T, y);
  return y;
}

}  // namespace geomint::testing
