#include "studies/spec.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>

#include "integrators/order_conditions.hpp"
#include "integrators/runtime_commutator_free.hpp"
#include "models/parameters.hpp"
#include "studies/integrator_declarations.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/user_method.hpp"

namespace geomint {

namespace {

/// Errors name the file, the place in it, and the line.
class Context {
 public:
  Context(std::string file, std::string where) : file_(std::move(file)), where_(std::move(where)) {}
  Context at(const std::string& more) const { return {file_, where_.empty() ? more : where_ + ": " + more}; }
  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const {
    std::string line;
    if (node.IsDefined() && node.Mark().line >= 0) line = " (line " + std::to_string(node.Mark().line + 1) + ")";
    throw InputError(file_ + ": " + (where_.empty() ? "" : where_ + ": ") + what + line);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(file_ + ": " + (where_.empty() ? "" : where_ + ": ") + what);
  }

 private:
  std::string file_, where_;
};

std::string text(const YAML::Node& node, const Context& ctx, const std::string& key,
                 bool required = true) {
  const YAML::Node v = node[key];
  if (!v) {
    if (required) ctx.fail(node, "missing '" + key + "'");
    return {};
  }
  if (!v.IsScalar()) ctx.fail(v, "'" + key + "' must be text");
  return v.as<std::string>();
}

double number(const YAML::Node& v, const Context& ctx, const std::string& what) {
  if (!v.IsScalar()) ctx.fail(v, what + " must be a number");
  try {
    return v.as<double>();
  } catch (const YAML::Exception&) {
    ctx.fail(v, what + " must be a number, got '" + v.as<std::string>() + "'");
  }
}

double positive(const YAML::Node& v, const Context& ctx, const std::string& what) {
  const double x = number(v, ctx, what);
  if (!(x > 0.0) || !std::isfinite(x)) ctx.fail(v, what + " must be a positive number");
  return x;
}

/// A scalar or a list of numbers, as a list.
std::vector<double> positive_list(const YAML::Node& v, const Context& ctx, const std::string& key) {
  std::vector<double> out;
  if (v.IsSequence()) {
    for (const auto& e : v) out.push_back(positive(e, ctx, "'" + key + "' entries"));
    if (out.empty()) ctx.fail(v, "'" + key + "' is empty");
  } else {
    out.push_back(positive(v, ctx, "'" + key + "'"));
  }
  return out;
}

std::vector<std::string> names(const YAML::Node& v, const Context& ctx, const std::string& key) {
  std::vector<std::string> out;
  if (v.IsSequence()) {
    for (const auto& e : v) {
      if (!e.IsScalar()) ctx.fail(e, "'" + key + "' entries must be names");
      out.push_back(e.as<std::string>());
    }
  } else if (v.IsScalar()) {
    out.push_back(v.as<std::string>());
  } else {
    ctx.fail(v, "'" + key + "' must be a name or a list of names");
  }
  return out;
}

void reject_unknown_keys(const YAML::Node& node, const Context& ctx,
                         const std::set<std::string>& known) {
  for (const auto& kv : node) {
    const auto key = kv.first.as<std::string>();
    if (!known.contains(key)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      ctx.fail(kv.first, "unknown key '" + key + "' (expected one of: " + list + ")");
    }
  }
}

nlohmann::json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      auto a = nlohmann::json::array();
      for (const auto& e : node) a.push_back(to_json(e));
      return a;
    }
    case YAML::NodeType::Map: {
      auto o = nlohmann::json::object();
      for (const auto& kv : node) o[kv.first.as<std::string>()] = to_json(kv.second);
      return o;
    }
    case YAML::NodeType::Scalar: {
      const auto s = node.as<std::string>();
      try {
        std::size_t used = 0;
        const double d = std::stod(s, &used);
        if (used == s.size()) return d;
      } catch (const std::exception&) {
      }
      if (s == "true") return true;
      if (s == "false") return false;
      return s;
    }
    default:
      return nullptr;
  }
}

// ---- Methods the spec defines by their coefficients (`methods:`, studies/user_method.hpp) ----

using UserMethods = std::vector<std::shared_ptr<const UserMethod>>;

/// The spec's method of that name, else null (a built-in integrator's name).
std::shared_ptr<const UserMethod> user_method_named(const UserMethods& methods, const std::string& name) {
  for (const auto& m : methods)
    if (m->name() == name) return m;
  return nullptr;
}

/// A coefficient: a number, or a fraction p/q of two numbers (YAML reads 1/6 as text).
double coefficient(const YAML::Node& v, const Context& ctx, const std::string& what) {
  if (!v.IsScalar()) ctx.fail(v, what + " must be a number or a fraction p/q");
  const auto s = v.as<std::string>();
  const auto slash = s.find('/');
  if (slash == std::string::npos) return number(v, ctx, what);
  const auto part = [&](std::string t) {
    t.erase(0, t.find_first_not_of(' '));
    t.erase(t.find_last_not_of(' ') + 1);
    try {
      std::size_t used = 0;
      const double d = std::stod(t, &used);
      if (used == t.size()) return d;
    } catch (const std::exception&) {
    }
    ctx.fail(v, what + " must be a number or a fraction p/q, got '" + s + "'");
  };
  const double numerator = part(s.substr(0, slash)), denominator = part(s.substr(slash + 1));
  if (denominator == 0.0) ctx.fail(v, what + " divides by zero: '" + s + "'");
  return numerator / denominator;
}

std::vector<double> coefficients(const YAML::Node& v, const Context& ctx, const std::string& what) {
  if (!v.IsSequence()) ctx.fail(v, what + " must be a list of numbers");
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(coefficient(v[i], ctx, what + " entry " + std::to_string(i + 1)));
  return out;
}

std::vector<std::vector<double>> coefficient_rows(const YAML::Node& v, const Context& ctx,
                                                  const std::string& what) {
  if (!v.IsSequence()) ctx.fail(v, what + " must be a list of rows");
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(coefficients(v[i], ctx, what + " row " + std::to_string(i + 1)));
  return out;
}

int whole_number(const YAML::Node& v, const Context& ctx, const std::string& what) {
  const double x = number(v, ctx, what);
  if (x != std::floor(x) || std::abs(x) > 1e6) ctx.fail(v, what + " must be a whole number");
  return static_cast<int>(x);
}

bool flag(const YAML::Node& v, const Context& ctx, const std::string& what) {
  bool b = false;
  if (!v.IsScalar() || !YAML::convert<bool>::decode(v, b)) ctx.fail(v, what + " must be true or false");
  return b;
}

/// A point of a commutator-free scheme: {base: r, exponentials: [[...], ...]}, r counted from 1;
/// without base it starts from y_n, without exponentials it is its base.
CfPoint<kDynamicStages> cf_point(const YAML::Node& node, const Context& ctx) {
  CfPoint<kDynamicStages> p;
  if (node.IsNull()) return p;
  if (!node.IsMap()) ctx.fail(node, "a stage or update is a map {base: r, exponentials: [[...]]}");
  reject_unknown_keys(node, ctx, {"base", "exponentials"});
  if (node["base"]) {
    const int base = whole_number(node["base"], ctx, "'base'");
    if (base < 1) ctx.fail(node["base"], "'base' is a stage number, counted from 1");
    p.base = base - 1;
  }
  if (node["exponentials"]) p.alpha = coefficient_rows(node["exponentials"], ctx, "'exponentials'");
  p.exponentials = p.alpha.size();
  return p;
}

/// One entry of `methods:`, checked: its coefficients satisfy the order conditions up to its
/// declared order (integrators/order_conditions.hpp; for commutator-free methods, consistency
/// and the conditions of the classical method they are on a commutative group).
std::shared_ptr<const UserMethod> parse_method(const YAML::Node& node, const Context& ctx) {
  if (!node.IsMap()) ctx.fail(node, "a method is a map with name, kind, order and its coefficients");
  const std::string name = text(node, ctx, "name");
  const Context mc = ctx.at("method '" + name + "'");
  if (name.empty() || !std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
      }))
    mc.fail(node["name"], "a method's name is letters, digits and '_'");
  if (find_integrator_declaration(name))
    mc.fail(node["name"], "'" + name + "' is the name of a built-in integrator: choose another");
  const std::string kind = text(node, mc, "kind");
  std::set<std::string> keys = {"name", "kind", "order", "description", "symmetric", "c"};
  if (kind == "runge_kutta" || kind == "rkmk") {
    keys.insert({"a", "b"});
    if (kind == "runge_kutta") keys.insert("reproject");
  } else if (kind == "commutator_free") {
    keys.insert({"stages", "update"});
  } else {
    mc.fail(node["kind"], "unknown kind '" + kind + "' (known: runge_kutta, rkmk, commutator_free)");
  }
  reject_unknown_keys(node, mc, keys);
  for (const auto& key : keys)
    if (key != "description" && key != "symmetric" && key != "reproject" && key != "c" && !node[key])
      mc.fail(node, "missing '" + key + "'");
  const int order = whole_number(node["order"], mc, "'order'");
  const bool symmetric = node["symmetric"] && flag(node["symmetric"], mc, "'symmetric'");
  std::string description = text(node, mc, "description", false);
  if (description.empty())
    description = kind + " method of order " + std::to_string(order) + " given by its coefficients";
  std::vector<double> nodes;
  if (node["c"]) nodes = coefficients(node["c"], mc, "'c'");

  Declaration d{{}, {}, Family::LieGroup, order, false, false, symmetric, true};
  UserMethodCoefficients method;
  if (kind == "commutator_free") {
    RuntimeCfMethod cf{d, {}};
    if (!node["stages"].IsSequence()) mc.fail(node["stages"], "'stages' must be a list");
    for (std::size_t r = 0; r < node["stages"].size(); ++r)
      cf.scheme.stages.push_back(cf_point(node["stages"][r], mc.at("stage " + std::to_string(r + 1))));
    cf.scheme.update = cf_point(node["update"], mc.at("update"));
    if (const auto defect = commutator_free_defect(cf.scheme, nodes, order)) mc.fail(node, defect->what);
    method = std::move(cf);
  } else {
    ButcherTableau<kDynamicStages> tab;
    tab.a = coefficient_rows(node["a"], mc, "'a'");
    tab.b = coefficients(node["b"], mc, "'b'");
    if (node["c"]) {
      tab.c = nodes;
    } else {  // the row sums of a
      for (const auto& row : tab.a) tab.c.push_back(std::accumulate(row.begin(), row.end(), 0.0));
    }
    if (const auto defect = tableau_defect(tab, order)) mc.fail(node, defect->what);
    if (kind == "rkmk") {
      method = RuntimeRkmkMethod{d, std::move(tab)};
    } else {
      const bool reproject = node["reproject"] && flag(node["reproject"], mc, "'reproject'");
      d.family = Family::Classical;
      d.stays_on_manifold = reproject;
      method = RuntimeRkMethod{d, std::move(tab), reproject};
    }
  }
  return std::make_shared<const UserMethod>(name, description, std::move(method));
}

UserMethods parse_methods(const YAML::Node& list, const Context& ctx) {
  UserMethods methods;
  if (!list) return methods;
  if (!list.IsSequence()) ctx.fail(list, "'methods' must be a list");
  for (std::size_t k = 0; k < list.size(); ++k) {
    const Context mc = ctx.at("methods[" + std::to_string(k) + "]");
    auto m = parse_method(list[k], mc);
    if (user_method_named(methods, m->name())) mc.fail(list[k], "two methods are named '" + m->name() + "'");
    methods.push_back(std::move(m));
  }
  return methods;
}

const Declaration& declaration_of(const std::string& name, const YAML::Node& node, const Context& ctx,
                                  const UserMethods& methods) {
  if (const auto m = user_method_named(methods, name)) return m->declaration();
  if (const Declaration* d = find_integrator_declaration(name)) return *d;
  std::string known;
  for (const auto& d : integrator_declarations()) known += (known.empty() ? "" : ", ") + std::string(d.name);
  for (const auto& m : methods) known += ", " + m->name();
  ctx.fail(node, "unknown integrator '" + name + "' (known: " + known + ")");
}

void parse_runs(const YAML::Node& runs, const Context& ctx, ExperimentSpec& ex,
                const CaseSpec& base, const UserMethods& methods) {
  if (!runs || !runs.IsSequence() || runs.size() == 0)
    ctx.fail(runs, "'runs' must be a non-empty list");
  int k = 0;
  for (const auto& run : runs) {
    const Context rc = ctx.at("runs[" + std::to_string(k++) + "]");
    reject_unknown_keys(run, rc, {"integrators", "h", "rtol", "atol", "same_steps_as"});
    if (!run["integrators"]) rc.fail(run, "missing 'integrators'");
    const auto integrators = names(run["integrators"], rc, "integrators");
    if (const auto source = run["same_steps_as"]) {
      const Context sc = rc.at("same_steps_as");
      reject_unknown_keys(source, sc, {"integrator", "rtol", "atol"});
      CaseSpec::StepsOf of{text(source, sc, "integrator"), 1e-3, 1e-6};
      if (source["rtol"]) of.rtol = positive(source["rtol"], sc, "'rtol'");
      if (source["atol"]) of.atol = positive(source["atol"], sc, "'atol'");
      if (run["h"] || run["rtol"] || run["atol"]) rc.fail(run, "give either h/rtol/atol or same_steps_as");
      const bool found = std::any_of(ex.cases.begin(), ex.cases.end(), [&](const CaseSpec& c) {
        return c.integrator == of.integrator && c.rtol == of.rtol && c.atol == of.atol;
      });
      if (!found)
        sc.fail(source, "no earlier run of this experiment is " + of.integrator + " at these tolerances");
      for (const auto& name : integrators) {
        if (declaration_of(name, run["integrators"], rc, methods).adaptive)
          rc.fail(run, name + " is adaptive: same_steps_as is for fixed-step methods");
        CaseSpec c = base;
        c.integrator = name;
        c.user_method = user_method_named(methods, name);
        c.same_steps_as = of;
        ex.cases.push_back(c);
      }
      continue;
    }
    std::vector<double> hs, rtols, atols;
    if (run["h"]) hs = positive_list(run["h"], rc, "h");
    if (run["rtol"]) rtols = positive_list(run["rtol"], rc, "rtol");
    if (run["atol"]) atols = positive_list(run["atol"], rc, "atol");
    if (!atols.empty() && atols.size() != 1 && atols.size() != rtols.size())
      rc.fail(run, "'atol' must be one number or a list as long as 'rtol'");
    if (rtols.empty() && !atols.empty()) rc.fail(run, "'atol' without 'rtol'");
    for (const auto& name : integrators) {
      const Declaration& d = declaration_of(name, run["integrators"], rc, methods);
      CaseSpec c = base;
      c.integrator = name;
      c.user_method = user_method_named(methods, name);
      if (d.adaptive) {
        if (!hs.empty()) rc.fail(run, name + " is adaptive: give rtol/atol, not h");
        if (rtols.empty()) {  // MATLAB ode45's defaults
          c.rtol = 1e-3;
          c.atol = 1e-6;
          ex.cases.push_back(c);
        }
        for (std::size_t i = 0; i < rtols.size(); ++i) {
          c.rtol = rtols[i];
          c.atol = atols.empty() ? rtols[i] * 1e-3 : atols.size() == 1 ? atols[0] : atols[i];
          ex.cases.push_back(c);
        }
      } else {
        if (hs.empty()) rc.fail(run, name + " is a fixed-step method: give h");
        if (!rtols.empty()) rc.fail(run, name + " is a fixed-step method: rtol/atol do not apply");
        for (double h : hs) {
          c.h = h;
          ex.cases.push_back(c);
        }
      }
    }
  }
}

void parse_published(const YAML::Node& list, const Context& ctx, ExperimentSpec& ex) {
  if (!list) return;
  if (!list.IsSequence()) ctx.fail(list, "'published' must be a list");
  int k = 0;
  for (const auto& row : list) {
    const Context pc = ctx.at("published[" + std::to_string(k++) + "]");
    static const std::set<std::string> metrics = {"energy_err_mean", "unit_length_err_mean",
                                                  "energy_rel_err_max"};
    std::set<std::string> known = {"example", "method", "integrator", "h", "rtol",
                                   "atol",    "role",   "note",       "setting"};
    known.insert(metrics.begin(), metrics.end());
    reject_unknown_keys(row, pc, known);
    PublishedRow p;
    p.example = text(row, pc, "example");
    p.method = text(row, pc, "method");
    p.integrator = text(row, pc, "integrator");
    p.role = text(row, pc, "role");
    if (p.role != "printed" && p.role != "reproducing")
      pc.fail(row["role"], "'role' must be 'printed' or 'reproducing'");
    p.note = text(row, pc, "note", false);
    p.setting = text(row, pc, "setting", false);
    if (row["h"]) p.h = positive(row["h"], pc, "'h'");
    if (row["rtol"]) p.rtol = positive(row["rtol"], pc, "'rtol'");
    if (row["atol"]) p.atol = positive(row["atol"], pc, "'atol'");
    for (const auto& m : metrics)
      if (row[m]) p.values[m] = positive(row[m], pc, "'" + m + "'");
    if (p.values.empty()) pc.fail(row, "no published value (energy_err_mean, ...)");
    const bool matched = std::any_of(ex.cases.begin(), ex.cases.end(), [&](const CaseSpec& c) {
      const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
      const bool adaptive_defaults = std::isnan(p.rtol) && std::isnan(p.atol) && std::isnan(p.h) &&
                                     c.rtol == 1e-3 && c.atol == 1e-6;
      return c.integrator == p.integrator &&
             (adaptive_defaults || (same(c.h, p.h) && same(c.rtol, p.rtol) && same(c.atol, p.atol)));
    });
    if (!matched) pc.fail(row, "no case of this experiment has integrator " + p.integrator + " with these settings");
    ex.published.push_back(p);
  }
}

ExperimentSpec parse_experiment(const YAML::Node& node, const Context& ctx, const std::string& study,
                                const std::string& preset_override, const UserMethods& methods) {
  reject_unknown_keys(node, ctx,
                      {"name", "title", "description", "model", "preset", "presets", "parameters", "initial",
                       "project_initial", "T", "reference", "plots", "series", "snapshots", "runs", "all_integrators",
                       "published"});
  ExperimentSpec ex;
  ex.base_name = text(node, ctx, "name");
  ex.name = preset_override.empty() ? ex.base_name : ex.base_name + "-" + preset_override;
  const Context ec = ctx.at("experiment '" + ex.name + "'");
  ex.title = text(node, ec, "title", false);
  if (!preset_override.empty()) {
    if (!ex.title.empty()) ex.title += ' ';
    ex.title.append("(").append(preset_override).append(")");
  }
  ex.description = text(node, ec, "description", false);
  ex.model = text(node, ec, "model");
  const ModelEntry* model = nullptr;
  try {
    model = &find_model(ex.model);
  } catch (const InputError& e) {
    ec.fail(node["model"], e.what());
  }
  ex.preset = preset_override.empty() ? text(node, ec, "preset") : preset_override;
  const auto presets = model->presets();
  if (std::none_of(presets.begin(), presets.end(), [&](const auto& p) { return p.first == ex.preset; }))
    ec.fail(node["preset"], "model " + ex.model + " has no preset '" + ex.preset + "'");
  if (const auto params = node["parameters"]) {
    if (!params.IsMap()) ec.fail(params, "'parameters' must be a map name: value");
    // Setting each value on the defaults checks it against its parameter's domain now, at load
    // time, rather than when the case runs.
    ParameterSet checked = model->default_parameters();
    for (const auto& kv : params) {
      const auto name = kv.first.as<std::string>();
      if (!checked.contains(name)) ec.fail(kv.first, "model " + ex.model + " has no parameter '" + name + "'");
      const double value = number(kv.second, ec, "parameter " + name);
      try {
        checked.set(name, value);
      } catch (const InputError& e) {
        ec.fail(kv.second, ex.model + ": " + e.what());
      }
      ex.parameters[name] = value;
    }
  }
  if (const auto initial = node["initial"]) {
    if (!initial.IsMap()) ec.fail(initial, "'initial' must be a map of state blocks like q1: [x, y, z]");
    for (const auto& kv : initial) {
      const auto name = kv.first.as<std::string>();
      if (!kv.second.IsSequence() || kv.second.size() == 0)
        ec.fail(kv.second, "initial " + name + " must be a list of numbers like [x, y, z]");
      Eigen::VectorXd v(static_cast<Eigen::Index>(kv.second.size()));
      for (std::size_t i = 0; i < kv.second.size(); ++i)
        v(static_cast<Eigen::Index>(i)) = number(kv.second[i], ec, name);
      ex.initial.emplace_back(name, v);
    }
  }
  if (node["project_initial"]) ex.project_initial = node["project_initial"].as<bool>();
  if (!node["T"]) ec.fail(node, "missing 'T'");
  ex.T = positive(node["T"], ec, "'T'");
  if (const auto ref = node["reference"]) {
    ReferenceSpec r;
    if (ref.IsScalar()) {
      if (ref.as<std::string>() != "exact")
        ec.fail(ref, "'reference' is 'exact' or a map {integrator, rtol, atol}");
      if (!model->has_exact_solution) ec.fail(ref, "model " + ex.model + " has no exact solution");
      r.exact = true;
    } else {
      reject_unknown_keys(ref, ec.at("reference"), {"integrator", "rtol", "atol"});
      if (ref["integrator"]) r.integrator = ref["integrator"].as<std::string>();
      const Declaration& d = declaration_of(r.integrator, ref, ec.at("reference"), methods);
      if (!d.adaptive) ec.fail(ref, "the reference must be an adaptive solver");
      if (ref["rtol"]) r.rtol = positive(ref["rtol"], ec, "reference rtol");
      if (ref["atol"]) r.atol = positive(ref["atol"], ec, "reference atol");
    }
    ex.reference = r;
  }
  if (node["plots"]) ex.plots = names(node["plots"], ec, "plots");
  for (const auto& p : ex.plots)
    if (p != "energy" && p != "unit_length" && p != "tangency" && p != "momentum" &&
        p != "casimir" && p != "manifold_defect" && p != "convergence" && p != "steps" &&
        p != "kinetic_energy_map" && p != "work_precision")
      ec.fail(node["plots"], "unknown plot '" + p + "'");
  if (node["series"]) ex.series = node["series"].as<bool>();
  if (node["snapshots"]) {
    for (const auto& v : node["snapshots"]) {
      const double t = number(v, ec, "snapshot times");
      if (t < 0.0 || t > ex.T || (!ex.snapshots.empty() && t <= ex.snapshots.back()))
        ec.fail(v, "snapshot times must increase within [0, T]");
      ex.snapshots.push_back(t);
    }
  }

  CaseSpec base;
  base.study = study;
  base.experiment = ex.name;
  base.model = ex.model;
  base.preset = ex.preset;
  base.parameters = ex.parameters;
  base.initial = ex.initial;
  base.project_initial = ex.project_initial;
  base.T = ex.T;
  if (const auto all = node["all_integrators"]) {
    // Every catalogued integrator: fixed-step ones at the given h, adaptive ones at the given
    // tolerances (the integrator x model matrix; pairs that cannot run come out "n/a").
    if (node["runs"]) ec.fail(node["runs"], "give 'runs' or 'all_integrators', not both");
    const Context ac = ec.at("all_integrators");
    // h_high_order: larger steps for fixed-step methods of order 5 and up, which would reach
    // round-off at the steps that put the low orders in their asymptotic range.
    reject_unknown_keys(all, ac, {"h", "h_high_order", "rtol", "atol"});
    if (!all["h"] || !all["rtol"]) ac.fail(all, "needs h (for fixed-step methods) and rtol (for adaptive ones)");
    YAML::Node runs(YAML::NodeType::Sequence);
    YAML::Node fixed, high, adaptive;
    std::vector<Declaration> declarations = integrator_declarations();
    for (const auto& m : methods) declarations.push_back(m->declaration());  // the spec's own
    for (const auto& d : declarations) {
      YAML::Node& group = d.adaptive ? adaptive : (all["h_high_order"] && d.order >= 5 ? high : fixed);
      group["integrators"].push_back(std::string(d.name));
    }
    fixed["h"] = all["h"];
    if (all["h_high_order"]) high["h"] = all["h_high_order"];
    adaptive["rtol"] = all["rtol"];
    if (all["atol"]) adaptive["atol"] = all["atol"];
    for (const YAML::Node& group : {fixed, high, adaptive})
      if (group["integrators"]) runs.push_back(group);
    parse_runs(runs, ac, ex, base, methods);
  } else {
    parse_runs(node["runs"], ec, ex, base, methods);
  }
  parse_published(node["published"], ec, ex);
  return ex;
}

/// Study-level figures across experiments; the engine records them in the manifest.
void parse_figures(const YAML::Node& list, const Context& ctx, StudySpec& spec) {
  if (!list) return;
  if (!list.IsSequence()) ctx.fail(list, "'figures' must be a list");
  static const std::set<std::string> metrics = {
      "global_err",       "energy_err_max",   "energy_err_mean", "energy_drift_per_time",
      "momentum_err_max", "manifold_err_max", "tangency_err_max", "steps", "f_evals", "cpu_s"};
  for (const auto& f : list) {
    reject_unknown_keys(f, ctx, {"name", "title", "kind", "parameter", "metric", "experiments"});
    nlohmann::json fig;
    fig["name"] = text(f, ctx, "name");
    fig["title"] = text(f, ctx, "title", false);
    fig["kind"] = text(f, ctx, "kind");
    if (fig["kind"] != "metric_vs_parameter") ctx.fail(f["kind"], "unknown figure kind (known: metric_vs_parameter)");
    fig["parameter"] = text(f, ctx, "parameter");
    fig["metric"] = text(f, ctx, "metric");
    if (!metrics.contains(fig["metric"].get<std::string>())) ctx.fail(f["metric"], "unknown metric");
    auto chosen = nlohmann::json::array();
    const auto wanted = f["experiments"] ? names(f["experiments"], ctx, "experiments") : std::vector<std::string>{};
    for (const auto& ex : spec.experiments)
      if (wanted.empty() || std::find(wanted.begin(), wanted.end(), ex.base_name) != wanted.end())
        chosen.push_back(ex.name);
    for (const auto& w : wanted)
      if (std::none_of(spec.experiments.begin(), spec.experiments.end(),
                       [&](const ExperimentSpec& ex) { return ex.base_name == w; }))
        ctx.fail(f["experiments"], "no experiment named '" + w + "'");
    fig["experiments"] = chosen;
    spec.figures.push_back(fig);
  }
}

/// `every_model:` one experiment per model of the registry, from a template without name,
/// model, preset and T: those come from the model's Exercise (models/exercise.hpp), and its
/// `all_integrators` gives step sizes as factors of the Exercise's h (`h_factors`,
/// `h_high_order_factors`).
YAML::Node every_model_experiments(const YAML::Node& pattern, const Context& ctx) {
  if (!pattern.IsMap()) ctx.fail(pattern, "'every_model' must be a map (an experiment without name, model, preset, T)");
  for (const char* key : {"name", "model", "preset", "presets", "T", "runs"})
    if (pattern[key]) ctx.fail(pattern[key], std::string("'") + key + "' comes from each model's Exercise");
  const YAML::Node all = pattern["all_integrators"];
  if (!all || !all.IsMap()) ctx.fail(pattern, "needs all_integrators with h_factors and rtol");
  const Context ac = ctx.at("all_integrators");
  reject_unknown_keys(all, ac, {"h_factors", "h_high_order_factors", "rtol", "atol"});
  if (!all["h_factors"] || !all["rtol"]) ac.fail(all, "needs h_factors and rtol");
  const auto scaled = [&](const char* key, double h) {
    YAML::Node list(YAML::NodeType::Sequence);
    for (double f : positive_list(all[key], ac, key)) list.push_back(f * h);
    return list;
  };
  YAML::Node experiments(YAML::NodeType::Sequence);
  for (const auto& m : model_catalogue()) {
    YAML::Node e = YAML::Clone(pattern);
    e["name"] = std::string(m.name);
    e["model"] = std::string(m.name);
    e["preset"] = std::string(m.exercise.preset);
    e["T"] = m.exercise.T;
    YAML::Node runs(YAML::NodeType::Map);
    runs["h"] = scaled("h_factors", m.exercise.h);
    if (all["h_high_order_factors"]) runs["h_high_order"] = scaled("h_high_order_factors", m.exercise.h);
    runs["rtol"] = YAML::Clone(all["rtol"]);
    if (all["atol"]) runs["atol"] = YAML::Clone(all["atol"]);
    e["all_integrators"] = runs;
    experiments.push_back(e);
  }
  return experiments;
}

}  // namespace

StudySpec load_study_spec(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a folder, not a spec file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read the file");
  return parse_study_spec(text.str(), path);
}

StudySpec parse_study_spec(const std::string& content, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(content);
  } catch (const YAML::Exception& e) {
    throw InputError(path + ": not valid YAML: " + e.msg + " (line " + std::to_string(e.mark.line + 1) + ")");
  }
  const Context ctx(path, "");
  if (!root.IsMap()) ctx.fail(root, "a study spec is a map with name, title, experiments");
  reject_unknown_keys(root, ctx, {"name", "kind", "title", "description", "methods", "experiments",
                                  "every_model", "figures"});
  StudySpec spec;
  spec.file = path;
  spec.name = text(root, ctx, "name");
  spec.title = text(root, ctx, "title", false);
  spec.description = text(root, ctx, "description", false);
  spec.methods = parse_methods(root["methods"], ctx);
  YAML::Node experiments = root["experiments"];
  if (root["every_model"]) {
    if (experiments) ctx.fail(root["experiments"], "give 'experiments' or 'every_model', not both");
    experiments = every_model_experiments(root["every_model"], ctx.at("every_model"));
  }
  if (!experiments || !experiments.IsSequence() || experiments.size() == 0)
    ctx.fail(root, "'experiments' must be a non-empty list");
  std::set<std::string> seen;
  for (const auto& e : experiments) {
    std::vector<std::string> presets{""};
    if (e["presets"]) {
      if (e["preset"]) ctx.fail(e, "give 'preset' or 'presets', not both");
      presets = names(e["presets"], ctx, "presets");
    }
    for (const auto& preset : presets) {
      spec.experiments.push_back(parse_experiment(e, ctx, spec.name, preset, spec.methods));
      if (!seen.insert(spec.experiments.back().name).second)
        ctx.fail(e, "two experiments are named '" + spec.experiments.back().name + "'");
    }
  }
  parse_figures(root["figures"], ctx.at("figures"), spec);
  spec.kind = text(root, ctx, "kind", false);
  if (spec.kind.empty()) spec.kind = "study";
  if (spec.kind != "study" && spec.kind != "matrix") ctx.fail(root["kind"], "'kind' is 'study' or 'matrix'");
  if (spec.kind == "matrix")  // the matrix leaves no model out
    for (const auto& m : model_catalogue())
      if (std::none_of(spec.experiments.begin(), spec.experiments.end(),
                       [&](const ExperimentSpec& ex) { return ex.model == m.name; }))
        ctx.fail(root, "the matrix has no experiment for model " + std::string(m.name));
  spec.as_json = to_json(root);
  return spec;
}

}  // namespace geomint
