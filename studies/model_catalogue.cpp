#include "studies/model_catalogue.hpp"

#include "catalogue/model_types.hpp"
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
constexpr std::string_view formulation_of() {
  if constexpr (FormulationOfAnotherModel<M>)
    return M::kFormulationOf;
  else
    return {};
}

template <Model M>
Eigen::VectorXd state_in_other_formulation(const CaseSpec& spec, const Eigen::VectorXd& y) {
  if constexpr (FormulationOfAnotherModel<M>) {
    const M model(preset_parameters(find_preset<M>(spec.preset), spec.parameters));
    return model.state_in_other_formulation(typename M::State(y));
  } else {
    throw InputError("model " + std::string(M::kName) + " is no other model's formulation");
  }
}

template <Model M>
constexpr int curve_count() {
  if constexpr (DrawsCurves<M>)
    return static_cast<int>(M::kCurves.size());
  else
    return 0;
}

template <Model M>
std::vector<std::pair<int, int>> curve_links() {
  std::vector<std::pair<int, int>> links;
  if constexpr (DrawsFormation<M>) {
    static_assert(links_within_curves<M>(), "each of kCurveLinks joins two different curves of kCurves");
    for (const auto& link : M::kCurveLinks)
      links.emplace_back(static_cast<int>(std::get<0>(link)), static_cast<int>(std::get<1>(link)));
  }
  return links;
}

template <Model M>
constexpr int output_count() {
  if constexpr (HasOutputs<M>)
    return static_cast<int>(M::kOutputs.size());
  else
    return 0;
}

const std::vector<ModelEntry>& model_catalogue() {
  static const std::vector<ModelEntry> list = [] {
    std::vector<ModelEntry> l;
    for_each_model_type([&]<class M>() {
      l.push_back({M::kName, M::kDescription, M::kExercise, &M::default_parameters,
                   [] {
                     std::vector<std::pair<std::string, std::string>> presets;
                     for (const auto& p : M::presets()) presets.emplace_back(p.name, p.description);
                     return presets;
                   },
                   [](const std::string& preset, const std::map<std::string, double>& overrides) {
                     return preset_parameters(find_preset<M>(preset), overrides);
                   },
                   &run_case_for<M>,
                   [] {
                     const M model(M::default_parameters());
                     return std::pair{model.state_layout(), all_invariants(model)};
                   },
                   requires(const M& m, const typename M::State& y) {
                     m.exact_solution(y, 1.0);
                   },
                   &exact_final_state_for<M>,
                   &check_initial_state_for<M>, formulation_of<M>(),
                   &state_in_other_formulation<M>, has_bodies_for<M>(), curve_count<M>(),
                   curve_links<M>(), output_count<M>()});
    });
    return l;
  }();
  return list;
}

const ModelEntry& find_model(std::string_view name) {
  std::string known;
  for (const auto& m : model_catalogue()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + std::string(m.name);
  }
  throw InputError("unknown model '" + std::string(name) + "' (known: " + known + ")");
}

CaseResult run_case(const CaseSpec& spec, const CaseHooks& hooks) {
  return find_model(spec.model).run(spec, hooks);
}

}  // namespace geomint
