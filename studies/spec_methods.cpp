// The spec's `methods:`: methods it defines by their coefficients (studies/user_method.hpp),
// each checked against the order conditions up to its declared order; and the integrator a
// name stands for, the spec's own or a built-in one.

#include <algorithm>
#include <cctype>
#include <numeric>

#include "integrators/order_conditions.hpp"
#include "integrators/runtime_commutator_free.hpp"
#include "studies/spec_reader.hpp"
#include <filesystem>

namespace geomint::spec_reading {

namespace {

/// A coefficient: a number, or a fraction p/q of two numbers (YAML reads 1/6 as text).
double coefficient(const YAML::Node& v, const Context& ctx, const std::string& what) {
  if (!v.IsScalar()) ctx.fail(v, what + " must be a number or a fraction p/q, got " + describe(v));
  const auto& s = v.Scalar();
  const auto slash = s.find('/');
  if (slash == std::string::npos) return number(v, ctx, what);
  const auto part = [&](std::string t) {
    t.erase(0, t.find_first_not_of(' '));
    t.erase(t.find_last_not_of(' ') + 1);
    bool out_of_range = false;
    const auto d = read_number(t, out_of_range);
    if (!d || !std::isfinite(*d))
      ctx.fail(v, what + " must be a number or a fraction p/q, got " + quote(s));
    return *d;
  };
  const double numerator = part(s.substr(0, slash)), denominator = part(s.substr(slash + 1));
  if (denominator == 0.0) ctx.fail(v, what + " divides by zero: " + quote(s));
  const double value = numerator / denominator;
  if (!std::isfinite(value))
    ctx.fail(v, what + " = " + quote(s) + " is beyond the range of double");
  return value;
}

std::vector<double> coefficients(const YAML::Node& v, const Context& ctx, const std::string& what) {
  if (!v.IsSequence()) ctx.fail(v, what + " must be a list of numbers, got " + describe(v));
  if (v.size() == 0) ctx.fail(v, what + " is an empty list");
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(coefficient(v[i], ctx, what + " entry " + std::to_string(i + 1)));
  return out;
}

std::vector<std::vector<double>> coefficient_rows(const YAML::Node& v, const Context& ctx,
                                                  const std::string& what) {
  if (!v.IsSequence()) ctx.fail(v, what + " must be a list of rows, got " + describe(v));
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(coefficients(v[i], ctx, what + " row " + std::to_string(i + 1)));
  return out;
}

/// A point of a commutator-free scheme: {base: r, exponentials: [[...], ...]}, r counted from 1;
/// without base it starts from y_n, without exponentials it is its base.
CfPoint<kDynamicStages> cf_point(const YAML::Node& node, const Context& ctx) {
  CfPoint<kDynamicStages> p;
  require_map(node, ctx, "a stage or the update is a map {base: r, exponentials: [[...]]}");
  reject_unknown_keys(node, ctx, {"base", "exponentials"});
  if (const YAML::Node base = get(node, "base"); base.IsDefined())
    p.base = whole_number(base, ctx, "'base' (a stage, counted from 1)", 1, 1000000) - 1;
  if (const YAML::Node e = get(node, "exponentials"); e.IsDefined())
    p.alpha = coefficient_rows(e, ctx, "'exponentials'");
  p.exponentials = p.alpha.size();
  return p;
}

/// The keys a method of `kind` takes; an unknown kind is refused.
std::set<std::string> method_keys(const YAML::Node& node, const Context& mc, const std::string& kind) {
  std::set<std::string> keys = {"name", "kind", "order", "description", "symmetric", "c"};
  if (kind == "runge_kutta" || kind == "rkmk") {
    keys.insert({"a", "b"});
    if (kind == "runge_kutta") keys.insert("reproject");
  } else if (kind == "commutator_free") {
    keys.insert({"stages", "update"});
  } else if (kind == "command") {
    return kCommandMethodKeys;
  } else {
    mc.fail(get(node, "kind"),
            "unknown kind " + quote(kind) + " (known: runge_kutta, rkmk, commutator_free, command)");
  }
  return keys;
}

/// A commutator-free method's stages and update, checked against the conditions up to `order`.
UserMethodCoefficients commutator_free_method(const YAML::Node& node, const Context& mc, const Declaration& d,
                                              const std::vector<double>& nodes, int order) {
  RuntimeCfMethod cf{d, {}};
  const YAML::Node stages = get(node, "stages");
  if (!stages.IsSequence())
    mc.fail(stages, "'stages' must be a list of stages, got " + describe(stages));
  if (stages.size() == 0)
    mc.fail(stages, "'stages' is an empty list: a method has at least one stage");
  for (std::size_t r = 0; r < stages.size(); ++r)
    cf.scheme.stages.push_back(
        cf_point(stages[r], mc.at("stage " + std::to_string(r + 1), stages[r])));
  cf.scheme.update = cf_point(get(node, "update"), mc.at("'update'", get(node, "update")));
  if (const auto defect = commutator_free_defect(cf.scheme, nodes, order))
    mc.fail(node, defect->what);
  return cf;
}

/// A Runge-Kutta or RKMK method's tableau, checked against the conditions up to `order`.
UserMethodCoefficients tableau_method(const YAML::Node& node, const Context& mc, Declaration d,
                                      const std::vector<double>& nodes, int order, const std::string& kind) {
  ButcherTableau<kDynamicStages> tab;
  tab.a = coefficient_rows(get(node, "a"), mc, "'a'");
  if (tab.a.empty())
    mc.fail(get(node, "a"), "'a' is an empty list: a method has at least one stage");
  tab.b = coefficients(get(node, "b"), mc, "'b'");
  if (has(node, "c")) {
    tab.c = nodes;
  } else {  // the row sums of a
    for (const auto& row : tab.a) tab.c.push_back(std::accumulate(row.begin(), row.end(), 0.0));
  }
  if (const auto defect = tableau_defect(tab, order)) mc.fail(node, defect->what);
  if (kind == "rkmk") return RuntimeRkmkMethod{d, std::move(tab)};
  const bool reproject =
      has(node, "reproject") && flag(get(node, "reproject"), mc, "'reproject'");
  d.family = Family::Classical;
  d.stays_on_manifold = reproject;
  return RuntimeRkMethod{d, std::move(tab), reproject};
}

}  // namespace

void SpecReader::read_methods(const YAML::Node& list, const Context& ctx) {
  if (!list.IsDefined()) return;
  if (!list.IsSequence())
    ctx.fail(list, "'methods' must be a list of methods, got " + describe(list));
  for (std::size_t k = 0; k < list.size(); ++k) {
    const Context mc = ctx.at("methods[" + std::to_string(k) + "]", list[k]);
    auto m = read_method(list[k], mc);
    if (!methods_by_name_.emplace(m->name(), m).second)
      mc.fail(list[k], "two methods are named " + quote(m->name()));
    spec_.methods.push_back(std::move(m));
  }
}

/// One entry of `methods:`, checked: its coefficients satisfy the order conditions up to its
/// declared order (integrators/order_conditions.hpp; for commutator-free methods, consistency
/// and the conditions of the classical method they are on a commutative group).
std::shared_ptr<const UserMethod> SpecReader::read_method(const YAML::Node& node, const Context& ctx) {
  require_map(node, ctx, "a method is a map with name, kind, order and its coefficients");
  const std::string name = text(node, ctx, "name");
  if (name.empty() || name.size() > 100 || !std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
      }))
    ctx.fail(get(node, "name"),
             "a method's name is letters, digits and '_' (at most 100), got " + quote(name));
  const Context mc = ctx.at("method " + quote(name));
  if (find_integrator_declaration(name))
    mc.fail(get(node, "name"),
            quote(name) + " is the name of a built-in integrator: choose another");
  const std::string kind = text(node, mc, "kind");
  const std::set<std::string> keys = method_keys(node, mc, kind);
  reject_unknown_keys(node, mc, keys);
  if (kind == "command") {
    ExternalCommand command = read_command_method(node, mc, std::filesystem::path(spec_.file).parent_path());
    std::string description = text(node, mc, "description", false);
    if (description.empty()) description = "external command: " + command.command.substr(0, 200);
    return std::make_shared<const UserMethod>(name, description, std::move(command));
  }
  for (const auto& key : keys)
    if (key != "description" && key != "symmetric" && key != "reproject" && key != "c" &&
        !has(node, key))
      mc.fail(node, "missing " + key_text(key));
  const int order = whole_number(get(node, "order"), mc, "'order'", 1, kMaxCheckedOrder);
  const bool symmetric =
      has(node, "symmetric") && flag(get(node, "symmetric"), mc, "'symmetric'");
  std::string description = text(node, mc, "description", false);
  if (description.empty())
    description =
        kind + " method of order " + std::to_string(order) + " given by its coefficients";
  std::vector<double> nodes;
  if (has(node, "c")) nodes = coefficients(get(node, "c"), mc, "'c'");

  // Its name and description are the UserMethod's, which holds them (studies/user_method.hpp).
  const Declaration d{.name = {}, .description = {}, .family = Family::LieGroup, .order = order,
                      .symmetric = symmetric, .stays_on_manifold = true};
  UserMethodCoefficients method = kind == "commutator_free" ? commutator_free_method(node, mc, d, nodes, order)
                                                            : tableau_method(node, mc, d, nodes, order, kind);
  return std::make_shared<const UserMethod>(name, description, std::move(method));
}

/// The spec's method of that name, else null (a built-in integrator's name).
std::shared_ptr<const UserMethod> SpecReader::user_method(const std::string& name) const {
  const auto it = methods_by_name_.find(name);
  return it == methods_by_name_.end() ? nullptr : it->second;
}

const Declaration& SpecReader::declaration_of(const std::string& name, const YAML::Node& node,
                                              const Context& ctx) const {
  if (const auto m = user_method(name)) return m->declaration();
  if (const Declaration* d = find_integrator_declaration(name)) return *d;
  std::string known;
  for (const auto& d : integrator_declarations())
    known += (known.empty() ? "" : ", ") + std::string(d.name);
  for (std::size_t i = 0; i < spec_.methods.size() && i < 20; ++i)
    known += ", " + spec_.methods[i]->name();
  if (spec_.methods.size() > 20)
    known += " and " + std::to_string(spec_.methods.size() - 20) + " more of the spec's";
  ctx.fail(node, "unknown integrator " + quote(name) + " (known: " + known + ")");
}

}  // namespace geomint::spec_reading
