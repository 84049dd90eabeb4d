// An experiment's cases: its `runs:` (integrators at steps h, at tolerances, or at the steps
// of another run), or `all_integrators:`, every integrator the spec knows; each case checked
// against max_steps and given once.

#include <cmath>
#include <limits>

#include "studies/spec_reader.hpp"
#include "integrators/step_control.hpp"

namespace geomint::spec_reading {

namespace {

/// The node of a run's i-th integrator: the entry of its list, or the one name given.
YAML::Node entry(const YAML::Node& list, std::size_t i) { return list.IsSequence() ? list[i] : list; }

}  // namespace

std::string setting_text(const CaseSpec& c) {
  if (c.same_steps_as)
    return "same_steps_as " + c.same_steps_as->integrator +
           " at rtol = " + number_text(c.same_steps_as->rtol) +
           ", atol = " + number_text(c.same_steps_as->atol);
  if (!std::isnan(c.h)) return "h = " + number_text(c.h);
  return "rtol = " + number_text(c.rtol) + ", atol = " + number_text(c.atol);
}

/// Adds a case to the experiment; a fixed-step case's steps T / h are checked against
/// max_steps first, and a case given twice is refused.
void SpecReader::add_case(ExperimentSpec& ex, CaseSpec c, const YAML::Node& node, const Context& ctx) {
  if (!std::isnan(c.h)) {
    if (c.h > c.T)
      ctx.fail(node, c.integrator + ": h = " + number_text(c.h) +
                         " is longer than T = " + number_text(c.T));
    if (const auto p = step_count_problem(c.T, c.h, spec_.limits.max_steps))
      ctx.fail(node, c.integrator + ": " + *p);
  }
  if (!case_settings_.insert(c.integrator + " at " + setting_text(c)).second)
    ctx.fail(node,
             c.integrator + " at " + setting_text(c) + " is given twice in this experiment");
  c.max_steps = spec_.limits.max_steps;  // an adaptive run stops there
  if (++cases_ > SpecLimits::kCases)
    ctx.fail(node,
             "more than " + std::to_string(SpecLimits::kCases) + " cases, the limit for a spec");
  run_settings_.insert(run_key(c.integrator, c.h, c.rtol, c.atol));
  ex.cases.push_back(std::move(c));
}

/// A case's integrator and the h, rtol and atol it runs at (NaN where none), as a key.
std::string SpecReader::run_key(const std::string& integrator, double h, double rtol, double atol) {
  return integrator + " " + number_text(h) + " " + number_text(rtol) + " " + number_text(atol);
}

bool SpecReader::has_run(const std::string& integrator, double h, double rtol, double atol) const {
  return run_settings_.contains(run_key(integrator, h, rtol, atol));
}

/// The rtol and atol lists of a run: atol one number, as many as rtol, or none (rtol * 1e-3).
std::vector<std::pair<double, double>> SpecReader::tolerances(const YAML::Node& run,
                                                              const Context& ctx) const {
  std::vector<Read> rtols, atols;
  if (has(run, "rtol")) rtols = number_list(get(run, "rtol"), ctx, "rtol", rtol_problem);
  if (has(run, "atol")) atols = number_list(get(run, "atol"), ctx, "atol", atol_problem);
  if (rtols.empty() && !atols.empty()) ctx.fail(key_node(run, "atol"), "'atol' without 'rtol'");
  if (atols.size() > 1 && atols.size() != rtols.size())
    ctx.fail(get(run, "atol"), "'atol' must be one number or a list as long as 'rtol' (" +
                                   std::to_string(rtols.size()) + "), got " +
                                   std::to_string(atols.size()));
  std::vector<std::pair<double, double>> out;
  for (std::size_t i = 0; i < rtols.size(); ++i)
    out.emplace_back(rtols[i].value, atols.empty()       ? rtols[i].value * 1e-3
                                     : atols.size() == 1 ? atols[0].value
                                                         : atols[i].value);
  return out;
}

void SpecReader::read_runs(const YAML::Node& runs, const Context& ctx, ExperimentSpec& ex,
                           const CaseSpec& base) {
  if (!runs.IsSequence()) ctx.fail(runs, "'runs' must be a list of runs, got " + describe(runs));
  if (runs.size() == 0) ctx.fail(runs, "'runs' is an empty list: give at least one run");
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const YAML::Node run = runs[k];
    const Context rc = ctx.at("runs[" + std::to_string(k) + "]", run);
    require_map(run, rc, "a run must be a map {integrators, h | rtol, atol | same_steps_as}");
    reject_unknown_keys(run, rc, {"integrators", "h", "rtol", "atol", "same_steps_as"});
    if (!has(run, "integrators")) rc.fail(run, "missing 'integrators'");
    if (get(run, "same_steps_as").IsDefined()) read_same_steps_run(run, rc, ex, base);
    else read_setting_run(run, rc, ex, base);
  }
}

/// A run of fixed-step methods at the steps another run of the experiment took.
void SpecReader::read_same_steps_run(const YAML::Node& run, const Context& rc, ExperimentSpec& ex,
                                     const CaseSpec& base) {
  const YAML::Node list = get(run, "integrators");
  const auto integrators = names(list, rc, "integrators");
  const YAML::Node source = get(run, "same_steps_as");
  require_map(source, rc, "'same_steps_as' must be a map {integrator, rtol, atol}");
  const Context sc = rc.at("same_steps_as", source);
  reject_unknown_keys(source, sc, {"integrator", "rtol", "atol"});
  CaseSpec::StepsOf of{text(source, sc, "integrator"), 1e-3, 1e-6};
  if (has(source, "rtol"))
    of.rtol = number_in(get(source, "rtol"), sc, "'rtol'", rtol_problem);
  if (has(source, "atol"))
    of.atol = number_in(get(source, "atol"), sc, "'atol'", atol_problem);
  for (const char* key : {"h", "rtol", "atol"})
    if (has(run, key))
      rc.fail(key_node(run, key),
              std::string("give either h/rtol/atol or same_steps_as, not '") + key + "'");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!has_run(of.integrator, nan, of.rtol, of.atol))
    sc.fail(source, "no earlier run of this experiment is " + quote(of.integrator) +
                        " at rtol = " + number_text(of.rtol) +
                        ", atol = " + number_text(of.atol));
  for (std::size_t i = 0; i < integrators.size(); ++i) {
    const auto& name = integrators[i];
    if (declaration_of(name, entry(list, i), rc).adaptive)
      rc.fail(entry(list, i), name + " is adaptive: same_steps_as is for fixed-step methods");
    CaseSpec c = base;
    c.integrator = name;
    c.user_method = user_method(name);
    c.same_steps_as = of;
    add_case(ex, std::move(c), entry(list, i), rc);
  }
}

/// A run of its integrators at its steps h (fixed-step methods) or tolerances (adaptive ones).
void SpecReader::read_setting_run(const YAML::Node& run, const Context& rc, ExperimentSpec& ex,
                                  const CaseSpec& base) {
  const YAML::Node list = get(run, "integrators");
  const auto integrators = names(list, rc, "integrators");
  std::vector<Read> hs;
  if (has(run, "h")) hs = number_list(get(run, "h"), rc, "h", positive_problem);
  const auto tols = tolerances(run, rc);
  for (std::size_t i = 0; i < integrators.size(); ++i) {
    const auto& name = integrators[i];
    const Declaration& d = declaration_of(name, entry(list, i), rc);
    CaseSpec c = base;
    c.integrator = name;
    c.user_method = user_method(name);
    if (d.adaptive) {
      if (!hs.empty())
        rc.fail(key_node(run, "h"), name + " is adaptive: give rtol/atol, not h");
      if (tols.empty()) {  // MATLAB ode45's defaults
        c.rtol = 1e-3;
        c.atol = 1e-6;
        add_case(ex, c, entry(list, i), rc);
      }
      for (const auto& [rtol, atol] : tols) {
        c.rtol = rtol;
        c.atol = atol;
        add_case(ex, c, entry(list, i), rc);
      }
    } else {
      if (hs.empty()) rc.fail(entry(list, i), name + " is a fixed-step method: give h");
      if (!tols.empty())
        rc.fail(key_node(run, has(run, "rtol") ? "rtol" : "atol"),
                name + " is a fixed-step method: rtol/atol do not apply");
      for (const auto& h : hs) {
        c.h = h.value;
        add_case(ex, c, h.node, rc);
      }
    }
  }
}

/// `all_integrators`: every catalogued integrator and every method of the spec, fixed-step
/// ones at h (at h_high_order from order 5 up, if given), adaptive ones at the tolerances.
/// Under `every_model`, the steps are factors of the model's Exercise h (`exercise_h`).
void SpecReader::read_all_integrators(const YAML::Node& all, const Context& ac, ExperimentSpec& ex,
                                      const CaseSpec& base, std::optional<double> exercise_h) {
  const std::string h_key = exercise_h ? "h_factors" : "h",
                    high_key = exercise_h ? "h_high_order_factors" : "h_high_order";
  reject_unknown_keys(all, ac, {h_key, high_key, "rtol", "atol"});
  if (!has(all, h_key) || !has(all, "rtol"))
    ac.fail(all, "needs " + h_key + " (for fixed-step methods) and rtol (for adaptive ones)");
  const auto steps = [&](const std::string& key) {
    std::vector<Read> hs = number_list(get(all, key), ac, key, positive_problem);
    if (exercise_h)
      for (auto& h : hs) {
        h.value *= *exercise_h;
        if (!(h.value > 0.0 && std::isfinite(h.value)))
          ac.fail(h.node, key_text(key) +
                              " entry times the Exercise's h = " + number_text(*exercise_h) +
                              " is not a positive finite step: " + number_text(h.value));
      }
    return hs;
  };
  const std::vector<Read> fixed = steps(h_key);
  const std::vector<Read> high = has(all, high_key) ? steps(high_key) : fixed;
  const auto tols = tolerances(all, ac);
  std::vector<Declaration> declarations = integrator_declarations();
  for (const auto& m : spec_.methods) declarations.push_back(m->declaration());  // the spec's own
  for (const auto& d : declarations) {
    CaseSpec c = base;
    c.integrator = std::string(d.name);
    c.user_method = user_method(c.integrator);
    if (d.adaptive) {
      for (const auto& [rtol, atol] : tols) {
        c.rtol = rtol;
        c.atol = atol;
        add_case(ex, c, get(all, "rtol"), ac);
      }
    } else {
      for (const auto& h : d.order >= 5 ? high : fixed) {
        c.h = h.value;
        add_case(ex, c, h.node, ac);
      }
    }
  }
}

}  // namespace geomint::spec_reading
