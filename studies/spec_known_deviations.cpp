// The spec's `known_deviations:`: promises it expects not to be kept, each with its reason
// (their verdicts are "explained", studies/verdicts.hpp).

#include <algorithm>
#include <set>
#include <string>

#include "studies/spec_reader.hpp"

namespace geomint::spec_reading {

/// `known_deviations`: promises the spec expects not to be kept, each with its reason.
void SpecReader::read_known_deviations(const YAML::Node& list, const Context& ctx) {
  if (!list.IsDefined()) return;
  if (!list.IsSequence())
    ctx.fail(list, "'known_deviations' must be a list of deviations, got " + describe(list));
  for (std::size_t k = 0; k < list.size(); ++k) {
    const YAML::Node node = list[k];
    const Context kc = ctx.at("known_deviations[" + std::to_string(k) + "]", node);
    require_map(node, kc, "a known deviation is a map {experiment, model, integrators, promise, reason}");
    reject_unknown_keys(node, kc, {"experiment", "model", "integrators", "promise", "reason"});
    KnownDeviation d;
    d.experiment = text(node, kc, "experiment", false);
    if (has(node, "experiment") &&
        std::none_of(spec_.experiments.begin(), spec_.experiments.end(),
                     [&](const ExperimentSpec& ex) { return ex.base_name == d.experiment; }))
      kc.fail(get(node, "experiment"), "no experiment named " + quote(d.experiment));
    d.model = text(node, kc, "model", false);
    if (has(node, "model")) find_model_at(get(node, "model"), kc, d.model);
    if (!has(node, "integrators")) kc.fail(node, "missing 'integrators'");
    d.integrators = names(get(node, "integrators"), kc, "integrators", true);
    for (std::size_t i = 0; i < d.integrators.size(); ++i)
      if (!find_integrator_declaration(d.integrators[i]) && !methods_by_name_.contains(d.integrators[i]))
        kc.fail(get(node, "integrators")[i], "unknown integrator " + quote(d.integrators[i]));
    d.promise = text(node, kc, "promise");
    static const std::set<std::string> kPromises = {"order",         "manifold",     "momentum",      "energy",
                                                    "long_energy",   "long_momentum", "long_manifold", "reversibility"};
    if (!kPromises.contains(d.promise))
      kc.fail(get(node, "promise"), "'promise' is order, manifold, momentum, energy, long_energy, long_momentum, "
                                    "long_manifold or reversibility, got " + quote(d.promise));
    d.reason = trimmed(text(node, kc, "reason"));
    if (d.reason.empty()) kc.fail(get(node, "reason"), "'reason' is empty: say why the deviation is expected");
    spec_.known_deviations.push_back(std::move(d));
  }
}

}  // namespace geomint::spec_reading
