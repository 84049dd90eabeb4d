#pragma once
// A named initial condition of a model, with the parameter values it comes with.

#include <functional>
#include <string>

#include "models/parameters.hpp"

namespace geomint {

template <class Model>
struct Preset {
  std::string name;
  std::string description;  // where it comes from, and every choice the paper left open
  std::function<void(ParameterSet&)> set_parameters;
  std::function<typename Model::State(const Model&)> initial_state;
};

}  // namespace geomint
