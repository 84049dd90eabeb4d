#pragma once
// A geomint.Model on the C++ side: a registry model with its preset and parameter overrides, and
// the instance built from them (studies/model_instance.hpp); and the reading of those arguments,
// which geomint.run takes too.

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <string>

#include "studies/model_catalogue.hpp"
#include "studies/model_instance.hpp"

namespace geomint::python {

/// The preset given (a str, or None for the model's first).
std::string preset_argument(const ModelFace& face, const pybind11::handle& preset);

/// Parameter overrides given as a mapping of names to numbers (or None for none); a value that is
/// not a number is an InputError naming the parameter. Names and domains are checked where the
/// model is built.
std::map<std::string, double> parameter_arguments(const pybind11::handle& params);

struct ModelObject {
  ModelObject(const std::string& name, const pybind11::handle& preset,
              const pybind11::handle& params);

  const ModelFace* face;
  std::string preset;
  std::map<std::string, double> overrides;
  std::unique_ptr<ModelInstance> instance;
};

}  // namespace geomint::python
