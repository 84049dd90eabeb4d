#pragma once
// The model contract: what every model of the registry (catalogue/model_registry.txt) declares, checked
// at compile time. A model
//   - has a name, a description, parameters with their domains and named presets, and says
//     how the bench exercises it by default (models/exercise.hpp);
//   - lays its state out as named blocks, each on a named manifold with its defects and
//     distance (models/state_blocks.hpp);
//   - declares its invariants by name, kind and whether the exact flow conserves them, and
//     evaluates them (models/invariant.hpp); its blocks' manifold defects are added to them;
//   - offers at least the AmbientOde view, so that every classical and reference solver runs on
//     it, and any further views (models/views.hpp) its structure allows.
// The study engine, the metrics and the result files read only these declarations.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <concepts>
#include <limits>
#include <string_view>
#include <vector>

#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"
#include "models/views.hpp"

namespace geomint {

template <class M>
concept Model =
    AmbientOde<M> && std::constructible_from<M, const ParameterSet&> &&
    requires(const M& m, const typename M::State& y, double* out) {
      { M::kName } -> std::convertible_to<std::string_view>;
      { M::kDescription } -> std::convertible_to<std::string_view>;
      { M::kExercise } -> std::convertible_to<Exercise>;
      { M::default_parameters() } -> std::same_as<ParameterSet>;
      { M::presets() } -> std::convertible_to<const std::vector<Preset<M>>&>;
      { m.state_layout() } -> std::convertible_to<const StateLayout&>;
      { m.declared_invariants() } -> std::convertible_to<const std::vector<Invariant>&>;
      m.evaluate_invariants(y, out);  // the declared ones, in their order
    };

/// Every invariant of a model: those it declares, then its blocks' manifold defects.
template <Model M>
std::vector<Invariant> all_invariants(const M& model) {
  std::vector<Invariant> all = model.declared_invariants();
  for (auto& name : model.state_layout().defect_names())
    all.push_back({std::move(name), InvariantKind::ManifoldDefect, true});
  return all;
}

/// Their values at y, in the order of all_invariants (out is resized once, then reused).
template <Model M>
void evaluate_all_invariants(const M& model, const typename M::State& y, std::vector<double>& out) {
  const std::size_t declared = model.declared_invariants().size();
  out.resize(declared + model.state_layout().defect_count());
  model.evaluate_invariants(y, out.data());
  model.state_layout().defects(y, out.data() + declared);
}

/// The largest |defect| of kind ManifoldDefect at y (blocks' and the model's own), NaN when
/// any is NaN or y is not finite: how far y is from the model's manifold.
template <Model M>
double max_manifold_defect(const M& model, const typename M::State& y) {
  if (!y.allFinite()) return std::numeric_limits<double>::quiet_NaN();
  const auto kinds = all_invariants(model);
  std::vector<double> values;
  evaluate_all_invariants(model, y, values);
  double worst = 0.0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i].kind != InvariantKind::ManifoldDefect) continue;
    if (std::isnan(values[i])) return values[i];
    worst = std::max(worst, std::abs(values[i]));
  }
  return worst;
}

}  // namespace geomint
