#include "studies/model_catalogue.hpp"

#include "catalogue/integrator_on_model.hpp"
#include "catalogue/model_types.hpp"
#include "models/configuration.hpp"
#include "models/curves.hpp"
#include "models/formation.hpp"
#include "models/formulation.hpp"
#include "models/model_contract.hpp"
#include "models/outputs.hpp"

namespace geomint {

// Explicitly instantiated, one model per translation unit, from studies/run_model.cpp.in.
template <Model M>
CaseResult run_case_for(const CaseSpec& spec, const CaseHooks& hooks);
template <Model M>
Eigen::VectorXd exact_final_state_for(const CaseSpec& spec);
template <Model M>
std::pair<StateLayout, std::vector<Invariant>> check_initial_state_for(const CaseSpec& spec);
template <Model M>
bool has_bodies_for();
template <Model M>
std::unique_ptr<ModelInstance> make_model_instance(const std::string& preset,
                                                   const std::map<std::string, double>& overrides);

Eigen::VectorXd ModelFace::state_in_other_formulation(const CaseSpec&,
                                                      const Eigen::VectorXd&) const {
  throw InputError("model " + std::string(name()) + " is no other model's formulation");
}

namespace {

/// The face of registry model M: each query answered from M's type, a capability from the
/// concept that says M has it.
template <Model M>
class ModelFaceOf final : public ModelFace {
 public:
  std::string_view name() const override { return M::kName; }
  std::string_view description() const override { return M::kDescription; }
  const Exercise& exercise() const override { return M::kExercise; }
  ParameterSet default_parameters() const override { return M::default_parameters(); }
  std::vector<std::pair<std::string, std::string>> presets() const override {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& p : M::presets()) out.emplace_back(p.name, p.description);
    return out;
  }
  ParameterSet parameters_for(const std::string& preset,
                              const std::map<std::string, double>& overrides) const override {
    return preset_parameters(find_preset<M>(preset), overrides);
  }
  std::pair<StateLayout, std::vector<Invariant>> declarations() const override {
    const M model(M::default_parameters());
    return {model.state_layout(), all_invariants(model)};
  }
  std::vector<std::string_view> integrators() const override {
    std::vector<std::string_view> names;
    for (const CompiledIntegrator<M>& method : compiled_integrators<M>())
      if (method.runs) names.push_back(method.name());
    return names;
  }
  CaseResult run(const CaseSpec& spec, const CaseHooks& hooks) const override {
    return run_case_for<M>(spec, hooks);
  }
  std::pair<StateLayout, std::vector<Invariant>> check_initial_state(
      const CaseSpec& spec) const override {
    return check_initial_state_for<M>(spec);
  }
  std::unique_ptr<ModelInstance> instance(
      const std::string& preset, const std::map<std::string, double>& overrides) const override {
    return make_model_instance<M>(preset, overrides);
  }

  bool has_exact_solution() const override {
    return requires(const M& m, const typename M::State& y) { m.exact_solution(y, 1.0); };
  }
  Eigen::VectorXd exact_final_state(const CaseSpec& spec) const override {
    return exact_final_state_for<M>(spec);
  }
  std::string_view formulation_of() const override {
    if constexpr (FormulationOfAnotherModel<M>) return M::kFormulationOf;
    return {};
  }
  Eigen::VectorXd state_in_other_formulation(const CaseSpec& spec,
                                             const Eigen::VectorXd& y) const override {
    if constexpr (FormulationOfAnotherModel<M>) {
      const M model(preset_parameters(find_preset<M>(spec.preset), spec.parameters));
      return model.state_in_other_formulation(typename M::State(y));
    }
    return ModelFace::state_in_other_formulation(spec, y);
  }
  bool has_bodies() const override { return has_bodies_for<M>(); }
  std::vector<std::string> curve_names() const override {
    if constexpr (DrawsCurves<M>) return {M::kCurves.begin(), M::kCurves.end()};
    return {};
  }
  std::vector<std::pair<int, int>> curve_links() const override {
    std::vector<std::pair<int, int>> links;
    if constexpr (DrawsFormation<M>) {
      static_assert(links_within_curves<M>(), "each of kCurveLinks joins two different curves of kCurves");
      for (const auto& link : M::kCurveLinks)
        links.emplace_back(static_cast<int>(std::get<0>(link)), static_cast<int>(std::get<1>(link)));
    }
    return links;
  }
  std::vector<std::string> output_names() const override {
    if constexpr (HasOutputs<M>) return {M::kOutputs.begin(), M::kOutputs.end()};
    return {};
  }
  bool has_vector_field() const override { return AmbientOde<M>; }
  bool draws_configuration() const override { return DrawsConfiguration<M>; }
};

}  // namespace

const std::vector<const ModelFace*>& model_catalogue() {
  static const std::vector<const ModelFace*> list = [] {
    std::vector<const ModelFace*> l;
    for_each_model_type([&]<class M>() {
      static const ModelFaceOf<M> face;
      l.push_back(&face);
    });
    return l;
  }();
  return list;
}

const ModelFace& find_model(std::string_view name) {
  std::string known;
  for (const ModelFace* m : model_catalogue()) {
    if (m->name() == name) return *m;
    known += (known.empty() ? "" : ", ") + std::string(m->name());
  }
  throw InputError("unknown model '" + std::string(name) + "' (known: " + known + ")");
}

CaseResult run_case(const CaseSpec& spec, const CaseHooks& hooks) {
  return find_model(spec.model).run(spec, hooks);
}

}  // namespace geomint
