// One experiment of the spec: its name, model and preset (or a model's Exercise, under
// `every_model`), parameters, initial state, horizon, plots, series and snapshots, checked
// against the model; its other sections are read in files of their own
// (studies/spec_reader.hpp).

#include <algorithm>
#include <cctype>
#include <cmath>
#include <new>
#include <stdexcept>
#include <tuple>

#include "studies/component_plan.hpp"
#include "studies/spec_reader.hpp"

namespace geomint::spec_reading {

namespace {

const std::set<std::string> kExperimentKeys = {
    "name",    "title",           "description", "model",     "preset", "presets", "parameters",
    "initial", "project_initial", "T",           "reference", "plots",  "series",  "snapshots",
    "runs",    "all_integrators", "published", "evoke", "formation_times", "claims", "long_time",
    "compensated", "components", "zoom", "path_times"};

/// The keys an experiment under `every_model` does not take: its model's Exercise gives them.
constexpr const char* kExerciseKeys[] = {"name", "model", "preset", "presets", "T", "runs"};

const std::set<std::string> kPlots = {
    "energy",          "unit_length", "tangency", "momentum",           "casimir",
    "manifold_defect", "convergence", "steps",    "kinetic_energy_map", "work_precision",
    "curves",          "outputs",     "formation", "components",         "paths"};

/// The experiment of `model`'s Exercise: its name, model, preset and T (for a `long_time`
/// experiment long_T, times the map's `T_factor` where it gives one).
void take_exercise(const YAML::Node& node, const Context& outer, const ModelFace& model, ExperimentSpec& ex) {
  for (const char* key : kExerciseKeys)
    if (has(node, key))
      outer.fail(key_node(node, key),
                 std::string("'") + key + "' comes from each model's Exercise");
  ex.base_name = ex.name = ex.model = std::string(model.name());
  ex.preset = std::string(model.exercise().preset);
  ex.T = model.exercise().T;
  const YAML::Node long_time = get(node, "long_time");
  if (!long_time.IsDefined()) return;
  ex.T = model.exercise().long_T;
  if (!long_time.IsMap() || !has(long_time, "T_factor")) return;
  const Context lc = outer.at("long_time", long_time);
  const double factor = positive(get(long_time, "T_factor"), lc, "'T_factor'");
  if (!std::isfinite(ex.T * factor))
    lc.fail(get(long_time, "T_factor"), "'T_factor' = " + number_text(factor) + " makes T = " +
                                            number_text(ex.T) + " * " + number_text(factor) + " infinite");
  ex.T *= factor;
}

void check_keys(const YAML::Node& node, const Context& ec, bool exercise) {
  if (exercise) {
    std::set<std::string> pattern_keys = kExperimentKeys;
    for (const char* key : kExerciseKeys) pattern_keys.erase(key);
    reject_unknown_keys(node, ec, pattern_keys);
  } else {
    reject_unknown_keys(node, ec, kExperimentKeys);
  }
}

void read_title(const YAML::Node& node, const Context& ec, const std::string& preset_override,
                ExperimentSpec& ex) {
  ex.title = text(node, ec, "title", false);
  if (!preset_override.empty()) {
    if (!ex.title.empty()) ex.title += ' ';
    ex.title.append("(").append(preset_override).append(")");
  }
  ex.description = text(node, ec, "description", false);
}

void read_parameters(const YAML::Node& params, const Context& ec, const ModelFace& model, ExperimentSpec& ex) {
  if (!params.IsDefined()) return;
  require_map(params, ec, "'parameters' must be a map name: value");
  // Setting each value on the defaults checks it against its parameter's domain now, at load
  // time, rather than when the case runs.
  ParameterSet checked = model.default_parameters();
  for (const auto& kv : params) {
    const std::string& name = kv.first.Scalar();
    if (!checked.contains(name)) {
      std::string known;
      for (const auto& p : checked.list()) known += (known.empty() ? "" : ", ") + p.name;
      ec.fail(kv.first, "model " + ex.model + " has no parameter " + quote(name) +
                            " (known: " + known + ")");
    }
    const double value = number(kv.second, ec, "parameter " + name, false);
    try {
      checked.set(name, value);
    } catch (const InputError& e) {
      ec.fail(kv.second, ex.model + ": " + e.what());
    }
    ex.parameters[name] = value;
  }
}

void read_initial(const YAML::Node& initial, const Context& ec, ExperimentSpec& ex) {
  if (!initial.IsDefined()) return;
  require_map(initial, ec, "'initial' must be a map of state blocks like q1: [x, y, z]");
  for (const auto& kv : initial) {
    const std::string& name = kv.first.Scalar();
    if (name.empty() || name.size() > 32 || !std::all_of(name.begin(), name.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
        }))
      ec.fail(kv.first, "'initial' names state blocks like q1 or Pi, got " + quote(name));
    if (!kv.second.IsSequence())
      ec.fail(kv.second, "initial " + name + " must be a list of numbers like [x, y, z], got " +
                             describe(kv.second));
    if (kv.second.size() == 0) ec.fail(kv.second, "initial " + name + " is an empty list");
    Eigen::VectorXd v(static_cast<Eigen::Index>(kv.second.size()));
    for (std::size_t i = 0; i < kv.second.size(); ++i)
      v(static_cast<Eigen::Index>(i)) =
          number(kv.second[i], ec, "initial " + name + " entry " + std::to_string(i + 1));
    ex.initial.emplace_back(name, v);
  }
}

void read_plots(const YAML::Node& plots, const Context& ec, ExperimentSpec& ex) {
  if (!plots.IsDefined()) return;
  ex.plots = names(plots, ec, "plots", true);
  for (std::size_t i = 0; i < ex.plots.size(); ++i)
    if (!kPlots.contains(ex.plots[i])) {
      std::string known;
      for (const auto& p : kPlots) known += (known.empty() ? "" : ", ") + p;
      ec.fail(plots[i], "unknown plot " + quote(ex.plots[i]) + " (known: " + known + ")");
    }
}

void read_snapshots(const YAML::Node& snapshots, const Context& ec, ExperimentSpec& ex) {
  if (!snapshots.IsDefined()) return;
  if (!snapshots.IsSequence())
    ec.fail(snapshots, "'snapshots' must be a list of times, got " + describe(snapshots));
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    const double t = number(snapshots[i], ec, "'snapshots' entry " + std::to_string(i + 1));
    if (t < 0.0 || t > ex.T || (!ex.snapshots.empty() && t <= ex.snapshots.back()))
      ec.fail(snapshots[i],
              "'snapshots' entry " + std::to_string(i + 1) + " = " + number_text(t) +
                  ": snapshot times must increase within [0, T = " + number_text(ex.T) + "]");
    ex.snapshots.push_back(t);
  }
}

/// `long_time: true`, or `long_time: {reversibility_T: X}` (X in (0, T]; default the model's
/// Exercise horizon or T, the shorter): stream the long-time statistics of every case and run
/// each fixed-step case forward over X and back (studies/long_time_statistics.hpp, verdicts.hpp).
/// Under `every_model` the map may also give `T_factor` (take_exercise reads it).
void read_long_time(const YAML::Node& node, const Context& ec, const ModelFace& model, ExperimentSpec& ex,
                    bool every_model) {
  if (!node.IsDefined()) return;
  ex.reversibility_T = std::min(model.exercise().T, ex.T);
  if (!node.IsMap()) {
    ex.long_time = flag(node, ec, "'long_time'");
    return;
  }
  const Context lc = ec.at("long_time", node);
  if (every_model) reject_unknown_keys(node, lc, {"reversibility_T", "T_factor"});
  else reject_unknown_keys(node, lc, {"reversibility_T"});
  ex.long_time = true;
  if (!has(node, "reversibility_T")) return;
  ex.reversibility_T = positive(get(node, "reversibility_T"), lc, "'reversibility_T'");
  if (ex.reversibility_T > ex.T)
    lc.fail(get(node, "reversibility_T"), "'reversibility_T' = " + number_text(ex.reversibility_T) +
                                              " is longer than T = " + number_text(ex.T));
}

/// `formation_times` or `path_times`, the times a plot draws a formation or a configuration
/// at: 1 to kMaxPlotTimes increasing times in [0, T] (each a panel's worth of markers: more
/// would be unreadable).
constexpr std::size_t kMaxPlotTimes = 12;
std::vector<double> plot_times(const YAML::Node& v, const Context& ctx, const std::string& key, double T) {
  const std::string noun = key.substr(0, key.find('_')) + " times";  // "formation times"
  if (!v.IsSequence() || v.size() == 0 || v.size() > kMaxPlotTimes)
    ctx.fail(v, key_text(key) + " must be a list of 1 to " + std::to_string(kMaxPlotTimes) +
                    " times, got " + (v.IsSequence() ? std::to_string(v.size()) + " entries" : describe(v)));
  std::vector<double> times;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string what = key_text(key) + " entry " + std::to_string(i + 1);
    const double t = number(v[i], ctx, what);
    if (t < 0.0 || t > T || (!times.empty() && t <= times.back()))
      ctx.fail(v[i], what + " = " + number_text(t) + ": " + noun + " must increase within [0, T = " +
                         number_text(T) + "]");
    times.push_back(t);
  }
  return times;
}

void read_formation(const YAML::Node& node, const Context& ec, ExperimentSpec& ex) {
  const YAML::Node formation = get(node, "formation_times");
  if (formation.IsDefined()) {
    ex.formation_times = plot_times(formation, ec, "formation_times", ex.T);
    if (!ex.draws_formation())
      ec.fail(key_node(node, "formation_times"), "'formation_times' without the formation plot");
  } else if (ex.draws_formation()) {
    ec.fail(get(node, "plots"), "the formation plot needs 'formation_times'");
  }
}

/// The `components` plot's `components` (1 to kMaxComponents names, resolved against the model
/// in check_model) and its optional `zoom: [start, end]`, a window of [0, T] drawn beside each
/// panel, finely sampled (studies/time_bins.hpp).
constexpr std::size_t kMaxComponents = 24;
void read_components(const YAML::Node& node, const Context& ec, ExperimentSpec& ex) {
  const YAML::Node list = get(node, "components"), zoom = get(node, "zoom");
  if (!ex.has_plot("components")) {
    if (list.IsDefined()) ec.fail(key_node(node, "components"), "'components' without the components plot");
    if (zoom.IsDefined()) ec.fail(key_node(node, "zoom"), "'zoom' without the components plot");
    return;
  }
  if (!list.IsDefined()) ec.fail(get(node, "plots"), "the components plot needs 'components'");
  ex.components = names(list, ec, "components", true);
  if (ex.components.size() > kMaxComponents)
    ec.fail(list, "'components' names " + std::to_string(ex.components.size()) + ", more than the " +
                      std::to_string(kMaxComponents) + " panels a figure can show");
  for (std::size_t i = 0; i < ex.components.size(); ++i)
    if (ex.components[i].find_first_of(",\n\r\"") != std::string::npos)
      ec.fail(list[i], "'components' entry " + std::to_string(i + 1) + " has a comma, a quote or a line break");
  if (!zoom.IsDefined()) return;
  if (!zoom.IsSequence() || zoom.size() != 2)
    ec.fail(zoom, "'zoom' must be [start, end], got " + describe(zoom));
  const double a = number(zoom[0], ec, "'zoom' start"), b = number(zoom[1], ec, "'zoom' end");
  if (!(0.0 <= a && a < b && b <= ex.T))
    ec.fail(zoom, "'zoom' = [" + number_text(a) + ", " + number_text(b) + "] must be a window 0 <= start < end <= T = " +
                      number_text(ex.T));
  ex.zoom = {a, b};
}

void read_path_times(const YAML::Node& node, const Context& ec, ExperimentSpec& ex) {
  const YAML::Node times = get(node, "path_times");
  if (!times.IsDefined()) return;
  if (!ex.has_plot("paths")) ec.fail(key_node(node, "path_times"), "'path_times' without the paths plot");
  ex.path_times = plot_times(times, ec, "path_times", ex.T);
}

ModelCheck check_model_case(const CaseSpec& c) {
  ModelCheck out;
  const ModelFace& model = find_model(c.model);
  out.has_bodies = model.has_bodies();
  try {
    std::tie(out.layout, out.invariants) = model.check_initial_state(c);
  } catch (const InputError& e) {
    out.initial_problem = e.what();
  } catch (const std::bad_alloc&) {
    out.initial_problem = c.model + " with these parameters does not fit in memory";
  } catch (const std::length_error&) {
    out.initial_problem = c.model + " with these parameters does not fit in memory";
  }
  return out;
}

/// The experiment's initial state, and what its plots and snapshots ask, checked against its
/// model.
ModelCheck check_model(const YAML::Node& node, const Context& ec, const ExperimentSpec& ex,
                       const ModelFace& model, const CaseSpec& base) {
  const YAML::Node params = get(node, "parameters"), initial = get(node, "initial");
  const ModelCheck check = check_model_case(base);
  if (check.initial_problem)
    ec.fail(initial.IsDefined()  ? initial
            : params.IsDefined() ? params
                                 : node,
            *check.initial_problem);
  if (!ex.snapshots.empty() && !check.has_bodies)
    ec.fail(get(node, "snapshots"), "model " + ex.model + " has no bodies on S^2 to take snapshots of");
  if (ex.has_plot("curves") && model.curve_names().empty())
    ec.fail(get(node, "plots"), "model " + ex.model + " draws no curves (models/curves.hpp)");
  if (ex.draws_formation() && model.curve_links().empty())
    ec.fail(get(node, "plots"), "model " + ex.model + " draws no formation (models/formation.hpp)");
  if (ex.draws_outputs() && model.output_names().empty())
    ec.fail(get(node, "plots"), "model " + ex.model + " has no outputs (models/outputs.hpp)");
  const OfferedComponents offered = offered_components(model, check.layout, check.invariants);
  for (std::size_t i = 0; i < ex.components.size(); ++i) {
    try {
      resolve_components({ex.components[i]}, offered);
    } catch (const InputError& e) {
      ec.fail(get(node, "components")[i], e.what());
    }
  }
  const auto& blocks = check.layout.blocks();
  const bool sphere_blocks = std::any_of(blocks.begin(), blocks.end(), [](const StateBlock& b) { return b.manifold == Manifold::S2; });
  if (ex.has_plot("paths") && !model.draws_configuration() && !sphere_blocks)
    ec.fail(get(node, "plots"), "model " + ex.model + " has neither a configuration to draw (models/configuration.hpp) "
                                "nor S^2 blocks: the paths plot draws nothing");
  if (!ex.path_times.empty() && !model.draws_configuration())
    ec.fail(get(node, "path_times"), "model " + ex.model + " draws no configuration (models/configuration.hpp): "
                                     "its paths plot draws its S^2 blocks' paths, at no chosen times");
  return check;
}

}  // namespace

/// One experiment: `node` with `preset` for its preset if not empty (from `presets:`), or,
/// for `every_model`, the experiment of `exercise_of`'s model at its Exercise.
ExperimentSpec SpecReader::read_experiment(const YAML::Node& node, const Context& outer,
                                           const std::string& preset_override,
                                           const ModelFace* exercise_of) {
  case_settings_.clear();
  run_settings_.clear();
  ExperimentSpec ex;
  if (exercise_of) {
    take_exercise(node, outer, *exercise_of, ex);
  } else {
    ex.base_name = name_text(node, outer, "name");
    ex.name = preset_override.empty() ? ex.base_name : ex.base_name + "-" + preset_override;
  }
  const Context ec = outer.at("experiment " + quote(ex.name), node);
  check_keys(node, ec, exercise_of != nullptr);
  read_title(node, ec, preset_override, ex);
  const ModelFace& model = exercise_of ? *exercise_of : read_model(node, ec, preset_override, ex);
  read_parameters(get(node, "parameters"), ec, model, ex);
  read_initial(get(node, "initial"), ec, ex);
  if (has(node, "project_initial"))
    ex.project_initial = flag(get(node, "project_initial"), ec, "'project_initial'");
  if (!exercise_of) {
    if (!has(node, "T")) ec.fail(node, "missing 'T'");
    ex.T = positive(get(node, "T"), ec, "'T'");
  }
  if (const YAML::Node ref = get(node, "reference"); ref.IsDefined()) {
    ex.reference = read_reference(ref, ec, model);
    if (!ex.reference->model.empty()) check_other_formulation(ref, ec, ex);
  }
  read_plots(get(node, "plots"), ec, ex);
  if (has(node, "series")) ex.series = flag(get(node, "series"), ec, "'series'");
  read_snapshots(get(node, "snapshots"), ec, ex);
  read_formation(node, ec, ex);
  read_components(node, ec, ex);
  read_path_times(node, ec, ex);
  read_long_time(get(node, "long_time"), ec, model, ex, exercise_of != nullptr);
  if (has(node, "compensated")) ex.compensated = flag(get(node, "compensated"), ec, "'compensated'");

  const CaseSpec base = base_case(ex);
  const ModelCheck check = check_model(node, ec, ex, model, base);
  if (const YAML::Node evoke = get(node, "evoke"); evoke.IsDefined())
    ex.evoke = read_evoke(evoke, ec.at("evoke", evoke), ex, check);
  read_cases(node, ec, ex, base, exercise_of);
  if (ex.cases.empty()) ec.fail(node, "no case: the experiment runs nothing");
  if (ex.evoke) check_evoked_cases(ex, node, ec.at("evoke"));
  read_published(get(node, "published"), ec, ex);
  read_claims(get(node, "claims"), ec, ex);
  return ex;
}

/// The experiment's model and preset; `preset_override`, if not empty, is its preset.
const ModelFace& SpecReader::read_model(const YAML::Node& node, const Context& ec,
                                         const std::string& preset_override, ExperimentSpec& ex) const {
  ex.model = text(node, ec, "model");
  const ModelFace& model = find_model_at(get(node, "model"), ec, ex.model);
  ex.preset = preset_override.empty() ? text(node, ec, "preset") : preset_override;
  const auto presets = model.presets();
  if (std::none_of(presets.begin(), presets.end(),
                   [&](const auto& p) { return p.first == ex.preset; })) {
    std::string known;
    for (const auto& p : presets) known += (known.empty() ? "" : ", ") + p.first;
    YAML::Node at = preset_override.empty() ? get(node, "preset") : get(node, "presets");
    for (std::size_t i = 0; at.IsSequence() && i < at.size(); ++i)
      if (at[i].Scalar() == preset_override) at.reset(at[i]);
    ec.fail(at, "model " + ex.model + " has no preset " + quote(ex.preset) +
                    " (known: " + known + ")");
  }
  return model;
}

/// The model of that name; an unknown one is refused at `at`, listing the known ones.
const ModelFace& SpecReader::find_model_at(const YAML::Node& at, const Context& ctx, const std::string& name) const {
  for (const auto& m : model_catalogue())
    if (m->name() == name) return *m;
  std::string known;
  for (const auto& m : model_catalogue()) known += (known.empty() ? "" : ", ") + std::string(m->name());
  ctx.fail(at, "unknown model " + quote(name) + " (known: " + known + ")");
}

/// What every case of the experiment shares.
CaseSpec SpecReader::base_case(const ExperimentSpec& ex) const {
  CaseSpec base;
  base.study = spec_.name;
  base.experiment = ex.name;
  base.model = ex.model;
  base.preset = ex.preset;
  base.parameters = ex.parameters;
  base.initial = ex.initial;
  base.project_initial = ex.project_initial;
  base.T = ex.T;
  if (ex.long_time) base.reversibility_T = ex.reversibility_T;
  base.compensated = ex.compensated;
  return base;
}

/// The experiment's cases: `all_integrators` (the only way under `every_model`) or `runs`.
void SpecReader::read_cases(const YAML::Node& node, const Context& ec, ExperimentSpec& ex, const CaseSpec& base,
                            const ModelFace* exercise_of) {
  if (const YAML::Node all = get(node, "all_integrators"); all.IsDefined()) {
    if (has(node, "runs"))
      ec.fail(key_node(node, "runs"), "give 'runs' or 'all_integrators', not both");
    require_map(
        all, ec,
        exercise_of
            ? "'all_integrators' must be a map {h_factors, h_high_order_factors, rtol, atol}"
            : "'all_integrators' must be a map {h, h_high_order, rtol, atol}");
    read_all_integrators(
        all, ec.at("all_integrators", all), ex, base,
        exercise_of ? std::optional<double>(exercise_of->exercise().h) : std::nullopt);
  } else if (exercise_of) {
    ec.fail(node, "needs all_integrators with h_factors and rtol");
  } else {
    if (!has(node, "runs")) ec.fail(node, "missing 'runs' (or 'all_integrators')");
    read_runs(get(node, "runs"), ec, ex, base);
  }
}

}  // namespace geomint::spec_reading
