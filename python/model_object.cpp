#include "python/model_object.hpp"

namespace py = pybind11;

namespace geomint::python {

std::string preset_argument(const ModelFace& face, const py::handle& preset) {
  if (!preset.is_none()) {
    if (!py::isinstance<py::str>(preset)) throw InputError("preset: expected a name (str)");
    return preset.cast<std::string>();
  }
  const auto presets = face.presets();
  if (presets.empty()) throw InputError(std::string(face.name()) + " has no preset: give preset=");
  return presets.front().first;
}

std::map<std::string, double> parameter_arguments(const py::handle& params) {
  std::map<std::string, double> overrides;
  if (params.is_none()) return overrides;
  if (!py::isinstance<py::dict>(params))
    throw InputError("params: expected a dict of names to numbers");
  for (const auto& [key, value] : params.cast<py::dict>()) {
    const std::string name = py::str(key);
    try {
      overrides[name] = value.cast<double>();
    } catch (const py::cast_error&) {
      throw InputError("params: " + name + " = " + std::string(py::repr(value)) +
                       " is not a number");
    }
  }
  return overrides;
}

ModelObject::ModelObject(const std::string& name, const py::handle& preset_name,
                         const py::handle& params)
    : face(&find_model(name)),
      preset(preset_argument(*face, preset_name)),
      overrides(parameter_arguments(params)),
      instance(face->instance(preset, overrides)) {}

}  // namespace geomint::python
