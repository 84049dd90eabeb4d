// The spec's `figures:`: study-level figures across experiments, recorded in the manifest.

#include <algorithm>

#include "studies/spec_reader.hpp"

namespace geomint::spec_reading {

namespace {

const std::set<std::string> kFigureMetrics = {"global_err",       "energy_err_max",
                                              "energy_err_mean",  "energy_drift_per_time",
                                              "momentum_err_max", "manifold_err_max",
                                              "tangency_err_max", "steps",
                                              "f_evals",          "cpu_s"};

}  // namespace

/// Study-level figures across experiments; the engine records them in the manifest.
void SpecReader::read_figures(const YAML::Node& list, const Context& ctx) {
  if (!list.IsDefined()) return;
  if (!list.IsSequence())
    ctx.fail(list, "'figures' must be a list of figures, got " + describe(list));
  for (std::size_t k = 0; k < list.size(); ++k) {
    const YAML::Node f = list[k];
    const Context fc = ctx.at("figures[" + std::to_string(k) + "]", f);
    require_map(f, fc, "a figure is a map {name, title, kind, parameter, metric, experiments}");
    reject_unknown_keys(f, fc, {"name", "title", "kind", "parameter", "metric", "experiments"});
    nlohmann::json fig;
    const std::string name = name_text(f, fc, "name");
    if (!figure_names_.insert(name).second)
      fc.fail(get(f, "name"), "two figures are named " + quote(name));
    fig["name"] = name;
    fig["title"] = text(f, fc, "title", false);
    const std::string kind = text(f, fc, "kind");
    if (kind != "metric_vs_parameter")
      fc.fail(get(f, "kind"),
              "unknown figure kind " + quote(kind) + " (known: metric_vs_parameter)");
    fig["kind"] = kind;
    const std::string parameter = text(f, fc, "parameter");
    fig["parameter"] = parameter;
    const std::string metric = text(f, fc, "metric");
    if (!kFigureMetrics.contains(metric)) {
      std::string known;
      for (const auto& m : kFigureMetrics) known += (known.empty() ? "" : ", ") + m;
      fc.fail(get(f, "metric"), "unknown metric " + quote(metric) + " (known: " + known + ")");
    }
    fig["metric"] = metric;
    std::vector<std::string> wanted;
    if (has(f, "experiments")) {
      wanted = names(get(f, "experiments"), fc, "experiments", true);
      for (std::size_t i = 0; i < wanted.size(); ++i)
        if (std::none_of(spec_.experiments.begin(), spec_.experiments.end(),
                         [&](const ExperimentSpec& ex) { return ex.base_name == wanted[i]; }))
          fc.fail(get(f, "experiments")[i], "no experiment named " + quote(wanted[i]));
    }
    auto chosen = nlohmann::json::array();
    for (const auto& ex : spec_.experiments) {
      if (!wanted.empty() &&
          std::find(wanted.begin(), wanted.end(), ex.base_name) == wanted.end())
        continue;
      auto& parameters = parameter_names_[ex.model];
      if (parameters.empty()) {
        const ParameterSet defaults = find_model(ex.model).default_parameters();
        for (const auto& p : defaults.list()) parameters.insert(p.name);
      }
      if (!parameters.contains(parameter))
        fc.fail(get(f, "parameter"), "experiment " + quote(ex.name) + " (model " + ex.model +
                                         ") has no parameter " + quote(parameter));
      chosen.push_back(ex.name);
    }
    fig["experiments"] = chosen;
    spec_.figures.push_back(fig);
  }
}

}  // namespace geomint::spec_reading
