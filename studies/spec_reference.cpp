// An experiment's `reference:`: the model's exact solution, or an adaptive solver at tight
// tolerances, on this model or on another formulation of the same system
// (models/formulation.hpp).

#include "studies/spec_reader.hpp"
#include "integrators/step_control.hpp"

namespace geomint::spec_reading {

ReferenceSpec SpecReader::read_reference(const YAML::Node& ref, const Context& ec,
                                         const ModelFace& model) const {
  ReferenceSpec r;
  if (ref.IsScalar()) {
    if (ref.Scalar() != "exact")
      ec.fail(ref,
              "'reference' is 'exact' or a map {integrator, rtol, atol, model}, got " + describe(ref));
    if (!model.has_exact_solution())
      ec.fail(ref, "model " + std::string(model.name()) + " has no exact solution");
    r.exact = true;
    return r;
  }
  require_map(ref, ec, "'reference' is 'exact' or a map {integrator, rtol, atol, model}");
  const Context rc = ec.at("reference", ref);
  reject_unknown_keys(ref, rc, {"integrator", "rtol", "atol", "model"});
  if (has(ref, "model")) {
    r.model = text(ref, rc, "model");
    const ModelFace& other = find_model_at(get(ref, "model"), rc, r.model);
    if (other.formulation_of() != model.name())
      rc.fail(get(ref, "model"), "model " + r.model + " is not a formulation of " +
                                     std::string(model.name()) + " (models/formulation.hpp)");
  }
  if (has(ref, "integrator")) r.integrator = text(ref, rc, "integrator");
  const YAML::Node at = has(ref, "integrator") ? get(ref, "integrator") : ref;
  if (!declaration_of(r.integrator, at, rc).adaptive)
    rc.fail(at, quote(r.integrator) +
                    " is a fixed-step method: the reference must be an adaptive solver");
  if (has(ref, "rtol")) r.rtol = number_in(get(ref, "rtol"), rc, "'rtol'", rtol_problem);
  if (has(ref, "atol")) r.atol = number_in(get(ref, "atol"), rc, "'atol'", atol_problem);
  return r;
}

/// A reference in another formulation starts from the preset of the same name with the same
/// parameter overrides, so the experiment may not set its initial state otherwise.
void SpecReader::check_other_formulation(const YAML::Node& ref, const Context& ec, const ExperimentSpec& ex) const {
  const Context rc = ec.at("reference", ref);
  const YAML::Node at = get(ref, "model");
  if (!ex.initial.empty() || ex.project_initial)
    rc.fail(at, "a reference in model " + ex.reference->model +
                    " starts from the preset of the same name: 'initial' and 'project_initial' "
                    "cannot be set");
  try {
    find_model(ex.reference->model).parameters_for(ex.preset, ex.parameters);
  } catch (const InputError& e) {
    rc.fail(at, "the reference in model " + ex.reference->model + ": " + e.what());
  }
}

}  // namespace geomint::spec_reading
