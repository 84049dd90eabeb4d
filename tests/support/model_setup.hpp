#pragma once
// A model built from one of its presets, with the preset's initial state.

#include <stdexcept>

#include "integrators/integrate.hpp"
#include "integrators/options.hpp"
#include <string>

namespace geomint::testing {

template <class Model>
struct Setup {
  Model model;
  typename Model::State initial;
};

template <class Model>
Setup<Model> make_setup(const std::string& preset_name) {
  for (const auto& preset : Model::presets()) {
    if (preset.name != preset_name) continue;
    auto p = Model::default_parameters();
    preset.set_parameters(p);
    Model model(p);
    auto y0 = preset.initial_state(model);
    return {std::move(model), std::move(y0)};
  }
  throw std::invalid_argument("no preset " + preset_name);
}

/// The final state of a run from (0, y0) to T.
template <class Integrator, class Model>
typename Model::State final_state(const Model& model, typename Model::State y,
                                  const IntegratorOptions& opt) {
  Integrator integrator(model, opt);
  integrate(integrator, y, opt.t0, opt.T, [](double, const typename Model::State&) {});
  return y;
}

}  // namespace geomint::testing
