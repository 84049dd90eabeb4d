// An experiment's `claims:`: a paper's checkable claims about it (studies/claims.hpp).

#include <algorithm>

#include "studies/note_template.hpp"
#include "studies/spec_reader.hpp"

namespace geomint::spec_reading {

/// `claims`: a paper's checkable claims about the experiment (studies/claims.hpp).
void SpecReader::read_claims(const YAML::Node& list, const Context& ctx, ExperimentSpec& ex) {
  if (!list.IsDefined()) return;
  if (!list.IsSequence()) ctx.fail(list, "'claims' must be a list of claims, got " + describe(list));
  for (std::size_t k = 0; k < list.size(); ++k) {
    const YAML::Node node = list[k];
    const Context cc = ctx.at("claims[" + std::to_string(k) + "]", node);
    require_map(node, cc, "a claim is a map {claim, where, metric, integrators, at_most or at_least}");
    reject_unknown_keys(node, cc, {"claim", "where", "metric", "integrators", "at_most", "at_least"});
    ClaimSpec c;
    c.claim = trimmed(text(node, cc, "claim"));  // a folded '>' keeps a final newline
    c.where = trimmed(text(node, cc, "where"));
    if (c.claim.empty()) cc.fail(get(node, "claim"), "'claim' is empty: quote what the paper says");
    c.metric = text(node, cc, "metric");
    if (!kNoteMetrics.contains(c.metric)) {
      std::string known;
      for (const auto& m : kNoteMetrics) known += (known.empty() ? "" : ", ") + m;
      cc.fail(get(node, "metric"), "unknown metric " + quote(c.metric) + " (known: " + known + ")");
    }
    if (has(node, "integrators")) {
      c.integrators = names(get(node, "integrators"), cc, "integrators", true);
      for (std::size_t i = 0; i < c.integrators.size(); ++i)
        if (std::none_of(ex.cases.begin(), ex.cases.end(),
                         [&](const CaseSpec& cs) { return cs.integrator == c.integrators[i]; }))
          cc.fail(get(node, "integrators")[i], "no case of this experiment runs " + quote(c.integrators[i]));
    }
    const bool most = has(node, "at_most"), least = has(node, "at_least");
    if (most == least) cc.fail(node, "give the claim's bound as 'at_most' or 'at_least' (one of them)");
    c.at_most = most;
    c.bound = number(get(node, most ? "at_most" : "at_least"), cc, most ? "'at_most'" : "'at_least'");
    ex.claims.push_back(std::move(c));
  }
}

}  // namespace geomint::spec_reading
