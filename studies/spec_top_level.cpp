// The spec's top-level keys: its name, kind and limits, and its experiments, listed or one per
// model (`every_model`); the sections they hold are read in files of their own
// (studies/spec_reader.hpp).

#include <algorithm>

#include "studies/spec_reader.hpp"

namespace geomint::spec_reading {

void SpecReader::read(const YAML::Node& root) {
  const Context ctx(source_);
  require_map(root, ctx, "a study spec is a map with name, title and experiments");
  reject_unknown_keys(root, ctx, kTopLevelKeys);
  read_names(root, ctx);
  read_limits(root, ctx);
  read_methods(get(root, "methods"), ctx);
  if (get(root, "every_model").IsDefined()) read_every_model(root, ctx);
  else read_experiments(root, ctx);
  read_figures(get(root, "figures"), ctx);
  if (const YAML::Node v = get(root, "window_search"); v.IsDefined())
    spec_.window_search = whole_number(v, ctx, "'window_search'", 0, StudySpec::kMaxWindowSearch);
  read_known_deviations(get(root, "known_deviations"), ctx);
  if (spec_.kind == "matrix") check_matrix(root, ctx);
}

void SpecReader::read_names(const YAML::Node& root, const Context& ctx) {
  spec_.name = name_text(root, ctx, "name");
  spec_.title = text(root, ctx, "title", false);
  spec_.description = text(root, ctx, "description", false);
  spec_.kind = text(root, ctx, "kind", false);
  if (spec_.kind.empty()) spec_.kind = "study";
  if (spec_.kind != "study" && spec_.kind != "matrix")
    ctx.fail(get(root, "kind"), "'kind' is 'study' or 'matrix', got " + quote(spec_.kind));
}

void SpecReader::read_limits(const YAML::Node& root, const Context& ctx) {
  if (const YAML::Node v = get(root, "max_steps"); v.IsDefined()) {
    const double cap = number(v, ctx, "'max_steps'");
    if (const auto p = step_cap_problem(cap))
      ctx.fail(v, "'max_steps' = " + number_text(cap) + ": " + *p);
    spec_.limits.max_steps = cap;
  }
  if (const YAML::Node v = get(root, "max_output"); v.IsDefined()) {
    const auto bytes = v.IsScalar() ? parse_byte_size(v.Scalar()) : std::nullopt;
    if (!bytes)
      ctx.fail(v,
               "'max_output' must be a size in bytes, a whole number or one with K, M, G or T "
               "(powers of 1024) like '2 GiB', got " +
                   describe(v));
    spec_.limits.max_output_bytes = *bytes;
  }
}

void SpecReader::read_every_model(const YAML::Node& root, const Context& ctx) {
  const YAML::Node every = get(root, "every_model");
  if (get(root, "experiments").IsDefined())
    ctx.fail(key_node(root, "experiments"), "give 'experiments' or 'every_model', not both");
  require_map(every, ctx,
              "'every_model' must be a map (an experiment without name, model, preset, T)");
  const Context mc = ctx.at("every_model", every);
  for (const auto& m : model_catalogue())
    add_experiment(read_experiment(every, mc, "", m), every, ctx);
}

void SpecReader::read_experiments(const YAML::Node& root, const Context& ctx) {
  const YAML::Node experiments = get(root, "experiments");
  if (!experiments.IsDefined()) ctx.fail(root, "missing 'experiments' (or 'every_model')");
  if (!experiments.IsSequence())
    ctx.fail(experiments,
             "'experiments' must be a list of experiments, got " + describe(experiments));
  if (experiments.size() == 0)
    ctx.fail(experiments, "'experiments' is an empty list: give at least one");
  for (std::size_t k = 0; k < experiments.size(); ++k) {
    const YAML::Node e = experiments[k];
    read_experiment_entry(e, ctx.at("experiments[" + std::to_string(k) + "]", e));
  }
}

/// An entry of `experiments`: one experiment, or one per preset of its `presets`.
void SpecReader::read_experiment_entry(const YAML::Node& e, const Context& ec) {
  require_map(e, ec, "an experiment must be a map with name, model, preset, T and runs");
  std::vector<std::string> presets{""};
  if (const YAML::Node p = get(e, "presets"); p.IsDefined()) {
    if (has(e, "preset"))
      ec.fail(key_node(e, "presets"), "give 'preset' or 'presets', not both");
    presets = names(p, ec, "presets", true);
  }
  for (const auto& preset : presets)
    add_experiment(read_experiment(e, ec, preset, nullptr), e, ec);
}

void SpecReader::add_experiment(ExperimentSpec ex, const YAML::Node& node, const Context& ctx) {
  if (spec_.experiments.size() == SpecLimits::kExperiments)
    ctx.fail(node, "more than " + std::to_string(SpecLimits::kExperiments) +
                       " experiments, the limit for a spec");
  for (const auto& other : spec_.experiments)
    if (other.name == ex.name)
      ctx.fail(key_node(node, "name"), "two experiments are named " + quote(ex.name));
  spec_.experiments.push_back(std::move(ex));
}

// The matrix leaves no model out.
void SpecReader::check_matrix(const YAML::Node& root, const Context& ctx) const {
  for (const auto& m : model_catalogue())
    if (std::none_of(spec_.experiments.begin(), spec_.experiments.end(),
                     [&](const ExperimentSpec& ex) { return ex.model == m->name(); }))
      ctx.fail(key_node(root, "kind"),
               "the matrix has no experiment for model " + std::string(m->name()));
}

}  // namespace geomint::spec_reading
