// An experiment's `published:` rows: a paper's numbers, each matched to a case of the
// experiment, set next to ours in reproduction.csv.

#include <cmath>

#include "studies/note_template.hpp"
#include "studies/spec_reader.hpp"
#include "integrators/step_control.hpp"

namespace geomint::spec_reading {

namespace {

const std::set<std::string> kPublishedMetrics = {"energy_err_mean", "unit_length_err_mean",
                                                 "energy_rel_err_max"};

}  // namespace

void SpecReader::read_published(const YAML::Node& list, const Context& ctx, ExperimentSpec& ex) {
  if (!list.IsDefined()) return;
  if (!list.IsSequence())
    ctx.fail(list, "'published' must be a list of rows, got " + describe(list));
  for (std::size_t k = 0; k < list.size(); ++k) {
    const YAML::Node row = list[k];
    const Context pc = ctx.at("published[" + std::to_string(k) + "]", row);
    require_map(
        row, pc,
        "a published row is a map {example, method, integrator, role, <metric>: value, ...}");
    std::set<std::string> known = {"example", "method", "integrator", "h",      "rtol",
                                   "atol",    "role",   "note",       "setting"};
    known.insert(kPublishedMetrics.begin(), kPublishedMetrics.end());
    reject_unknown_keys(row, pc, known);
    PublishedRow p;
    p.example = text(row, pc, "example");
    p.method = text(row, pc, "method");
    p.integrator = text(row, pc, "integrator");
    p.role = text(row, pc, "role");
    if (p.role != "printed" && p.role != "reproducing")
      pc.fail(get(row, "role"),
              "'role' must be 'printed' or 'reproducing', got " + quote(p.role));
    p.note = trimmed(text(row, pc, "note", false));
    p.setting = text(row, pc, "setting", false);
    if (has(row, "h")) p.h = positive(get(row, "h"), pc, "'h'");
    if (has(row, "rtol")) p.rtol = number_in(get(row, "rtol"), pc, "'rtol'", rtol_problem);
    if (has(row, "atol")) p.atol = number_in(get(row, "atol"), pc, "'atol'", atol_problem);
    for (const auto& m : kPublishedMetrics)
      if (has(row, m)) p.values[m] = positive(get(row, m), pc, key_text(m));
    if (p.values.empty())
      pc.fail(row,
              "no published value (energy_err_mean, unit_length_err_mean or energy_rel_err_max)");
    std::set<std::string> published;
    for (const auto& [metric, value] : p.values) published.insert(metric);
    if (const auto problem = note_template_problem(p.note, published))
      pc.fail(get(row, "note"), "'note': " + *problem);
    // No setting given also matches the adaptive defaults (ode45's rtol 1e-3, atol 1e-6).
    const bool no_setting = std::isnan(p.rtol) && std::isnan(p.atol) && std::isnan(p.h);
    const bool matched = has_run(p.integrator, p.h, p.rtol, p.atol) ||
                         (no_setting && has_run(p.integrator, p.h, 1e-3, 1e-6));
    if (!matched)
      pc.fail(row, "no case of this experiment has integrator " + quote(p.integrator) +
                       " with these settings");
    ex.published.push_back(p);
  }
}

}  // namespace geomint::spec_reading
