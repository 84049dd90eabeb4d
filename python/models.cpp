// geomint.models(), geomint.integrators() and geomint.Model: what the registry holds, and a model
// evaluated at states the caller chooses (studies/model_instance.hpp).
#include <pybind11/pybind11.h>

#include <string>

#include "catalogue/integrator_declarations.hpp"
#include "python/arrays.hpp"
#include "python/model_object.hpp"
#include "python/module_parts.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace geomint::python {

namespace {

py::list parameter_list(const ParameterSet& parameters) {
  py::list out;
  for (const Parameter& p : parameters.list())
    out.append(py::dict("name"_a = p.name, "value"_a = p.value, "unit"_a = p.unit,
                        "description"_a = p.description, "domain"_a = p.domain.describe()));
  return out;
}

py::list block_list(const StateLayout& layout) {
  py::list out;
  for (const StateBlock& b : layout.blocks())
    out.append(py::dict("name"_a = b.name, "manifold"_a = std::string(to_string(b.manifold)),
                        "offset"_a = b.offset, "size"_a = b.size));
  return out;
}

py::list strings(const auto& values) {
  py::list out;
  for (const auto& v : values) out.append(py::str(std::string(v)));
  return out;
}

py::list integrator_list() {
  py::list out;
  for (const IntegratorInfo& i : integrator_infos()) {
    const Declaration& d = i.declaration;
    out.append(
        py::dict("name"_a = std::string(d.name), "family"_a = std::string(to_string(d.family)),
                 "order"_a = d.order, "adaptive"_a = d.adaptive, "symplectic"_a = d.symplectic,
                 "symmetric"_a = d.symmetric, "stays_on_manifold"_a = d.stays_on_manifold,
                 "needs"_a = std::string(i.needs), "description"_a = std::string(d.description)));
  }
  return out;
}

}  // namespace

void bind_models(py::module_& m) {
  m.def(
      "models",
      [] {
        py::list names;
        for (const ModelFace* face : model_catalogue())
          names.append(py::str(std::string(face->name())));
        return names;
      },
      "The names of the registry's models, in registry order.");
  m.def("integrators", &integrator_list,
        "The catalogue's integrators: name, family, order, the view a model must offer (needs) and "
        "the promises it declares (adaptive, symplectic, symmetric, stays_on_manifold).");

  py::class_<ModelObject>(m, "Model",
                          "A model of the registry with a preset's parameters (the model's first "
                          "preset unless preset= names one), overridden by params={name: value}.")
      .def(py::init<const std::string&, const py::object&, const py::object&>(), "name"_a,
           py::kw_only(), "preset"_a = py::none(), "params"_a = py::none())
      .def_property_readonly("name",
                             [](const ModelObject& o) { return std::string(o.face->name()); })
      .def_property_readonly(
          "description", [](const ModelObject& o) { return std::string(o.face->description()); })
      .def_property_readonly("preset", [](const ModelObject& o) { return o.preset; })
      .def_property_readonly(
          "presets",
          [](const ModelObject& o) {
            py::list out;
            for (const auto& [name, description] : o.face->presets())
              out.append(py::dict("name"_a = name, "description"_a = description));
            return out;
          },
          "Every preset: name, description.")
      .def_property_readonly(
          "parameters",
          [](const ModelObject& o) { return parameter_list(o.instance->parameters()); },
          "The parameters it was built with: name, value, unit, description, domain.")
      .def_property_readonly(
          "params",
          [](const ModelObject& o) {
            py::dict out;
            for (const Parameter& p : o.instance->parameters().list())
              out[py::str(p.name)] = p.value;
            return out;
          },
          "The parameters' values by name.")
      .def_property_readonly(
          "blocks", [](const ModelObject& o) { return block_list(o.instance->layout()); },
          "The state's blocks: name, manifold, offset, size.")
      .def_property_readonly(
          "columns",
          [](const ModelObject& o) { return strings(o.instance->layout().column_names()); },
          "The state's column names, as `geomint run` writes them.")
      .def_property_readonly("dimension",
                             [](const ModelObject& o) { return o.instance->layout().dimension(); })
      .def_property_readonly(
          "invariant_declarations",
          [](const ModelObject& o) {
            py::list out;
            for (const Invariant& inv : o.instance->invariants())
              out.append(py::dict("name"_a = inv.name, "kind"_a = std::string(to_string(inv.kind)),
                                  "conserved"_a = inv.conserved));
            return out;
          },
          "Every invariant, declared then the blocks' manifold defects: name, kind, and whether "
          "the "
          "exact flow conserves it.")
      .def_property_readonly(
          "views", [](const ModelObject& o) { return strings(o.instance->views()); },
          "The views it offers (AmbientOde, LieGroupOde, ...).")
      .def_property_readonly(
          "integrators", [](const ModelObject& o) { return strings(o.face->integrators()); },
          "The integrators that run on it.")
      .def_property_readonly("has_exact_solution",
                             [](const ModelObject& o) { return o.instance->has_exact_solution(); })
      .def_property_readonly(
          "initial_state",
          [](const ModelObject& o) { return to_array(o.instance->initial_state()); },
          "The preset's initial state.")
      .def_property_readonly(
          "algebra_dimension", [](const ModelObject& o) { return o.instance->algebra_dimension(); },
          "The dimension of the Lie algebra of its LieGroupOde view.")
      .def(
          "rhs",
          [](const ModelObject& o, double t, const py::object& y) {
            return to_array(o.instance->rhs(t, to_vector(y, "y")));
          },
          "t"_a, "y"_a, "F(t, y) of y' = F(t, y) (the AmbientOde view).")
      .def(
          "project",
          [](const ModelObject& o, const py::object& y) {
            return to_array(o.instance->project(to_vector(y, "y")));
          },
          "y"_a, "y projected onto the model's manifold.")
      .def(
          "invariants",
          [](const ModelObject& o, const py::object& y) {
            const Eigen::VectorXd values = o.instance->invariant_values(to_vector(y, "y"));
            py::dict out;
            for (std::size_t i = 0; i < o.instance->invariants().size(); ++i)
              out[py::str(o.instance->invariants()[i].name)] = values[static_cast<Eigen::Index>(i)];
            return out;
          },
          "y"_a, "Every invariant's value at y, by name.")
      .def(
          "generator",
          [](const ModelObject& o, double t, const py::object& y) {
            return to_array(o.instance->generator(t, to_vector(y, "y")));
          },
          "t"_a, "y"_a,
          "f(t, y) in the Lie algebra, with F(t, y) = psi_*(f(t, y))|_y (the LieGroupOde view).")
      .def(
          "exp_act",
          [](const ModelObject& o, const py::object& xi, const py::object& y) {
            return to_array(o.instance->exp_act(to_vector(xi, "xi"), to_vector(y, "y")));
          },
          "xi"_a, "y"_a, "exp(xi) . y, the group's action (the LieGroupOde view).")
      .def(
          "dexpinv",
          [](const ModelObject& o, const py::object& a, const py::object& b) {
            return to_array(o.instance->dexpinv(to_vector(a, "a"), to_vector(b, "b")));
          },
          "a"_a, "b"_a, "dexp^{-1}_a(b), exact (Celledoni Sections 2.2-2.3; the LieGroupOde view).")
      .def(
          "bracket",
          [](const ModelObject& o, const py::object& a, const py::object& b) {
            return to_array(o.instance->bracket(to_vector(a, "a"), to_vector(b, "b")));
          },
          "a"_a, "b"_a, "The Lie bracket [a, b] (the LieGroupOde view).")
      .def(
          "exact_solution",
          [](const ModelObject& o, const py::object& y0, double t) {
            return to_array(o.instance->exact_solution(to_vector(y0, "y0"), t));
          },
          "y0"_a, "t"_a, "The exact state at time t of the solution through y0 at time 0.")
      .def("__repr__", [](const ModelObject& o) {
        return "geomint.Model('" + std::string(o.face->name()) + "', preset='" + o.preset + "')";
      });
}

}  // namespace geomint::python
