#pragma once
// A model built from one of its presets, with the preset's initial state.

#include <string>

#include "catalogue/integrator_on_model.hpp"
#include "integrators/integrate.hpp"
#include "integrators/options.hpp"
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

/// The final state of a run from (0, y0) to T; `method...` follows the model and the options in
/// the integrator's constructor (a runtime-coefficient method's coefficients).
template <class Integrator, class Model, class... Method>
typename Model::State final_state(const Model& model, typename Model::State y,
                                  const IntegratorOptions& opt, const Method&... method) {
  Integrator integrator(model, opt, method...);
  integrate(integrator, y, opt.t0, opt.T, [](double, const typename Model::State&) {});
  return y;
}

/// The same for a catalogue integrator compiled on the model (catalogue/integrator_on_model.hpp).
template <class Model>
typename Model::State final_state(const CompiledIntegrator<Model>& method, const Model& model,
                                  typename Model::State y, const IntegratorOptions& opt) {
  method.run(model, opt, y);
  return y;
}

}  // namespace geomint::testing
