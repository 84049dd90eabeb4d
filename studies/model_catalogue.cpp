#include "studies/model_catalogue.hpp"

#include "models/double_spherical_pendulum.hpp"
#include "models/spherical_pendulum.hpp"

namespace geomint {

// Defined, one model per translation unit, in studies/run_<model>.cpp.
template <class Model>
CaseResult run_case_for(const CaseSpec& spec, const CaseHooks& hooks);
extern template CaseResult run_case_for<SphericalPendulum>(const CaseSpec&, const CaseHooks&);
extern template CaseResult run_case_for<DoubleSphericalPendulum>(const CaseSpec&,
                                                                 const CaseHooks&);

namespace {
template <class Model>
ModelEntry entry() {
  return {Model::kName, Model::kDescription, &Model::default_parameters,
          [] {
            std::vector<std::pair<std::string, std::string>> list;
            for (const auto& p : Model::presets()) list.emplace_back(p.name, p.description);
            return list;
          },
          &run_case_for<Model>};
}
}  // namespace

const std::vector<ModelEntry>& model_catalogue() {
  static const std::vector<ModelEntry> list = {entry<SphericalPendulum>(),
                                               entry<DoubleSphericalPendulum>()};
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
