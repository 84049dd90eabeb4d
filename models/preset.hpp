#pragma once
// A named initial condition of a model, with the parameter values it comes with.

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "models/parameters.hpp"

namespace geomint {

template <class Model>
struct Preset {
  std::string name;
  std::string description;  // where it comes from, and every choice the paper left open
  std::function<void(ParameterSet&)> set_parameters;
  std::function<typename Model::State(const Model&)> initial_state;
};

/// The model's preset of that name; an unknown name is an InputError listing the known ones.
template <class Model>
const Preset<Model>& find_preset(std::string_view name) {
  std::string known;
  for (const auto& preset : Model::presets()) {
    if (preset.name == name) return preset;
    known += (known.empty() ? "" : ", ") + preset.name;
  }
  throw InputError(std::string(Model::kName) + ": unknown preset '" + std::string(name) +
                   "' (known: " + known + ")");
}

/// The parameters a case runs with: the model's defaults, then the preset's values, then the
/// overrides. A value outside its parameter's domain is an InputError naming the model.
template <class Model>
ParameterSet preset_parameters(const Preset<Model>& preset,
                               const std::map<std::string, double>& overrides) {
  ParameterSet p = Model::default_parameters();
  try {
    preset.set_parameters(p);
    for (const auto& [name, value] : overrides) p.set(name, value);
  } catch (const InputError& e) {
    throw InputError(std::string(Model::kName) + ": " + e.what());
  }
  return p;
}

}  // namespace geomint
