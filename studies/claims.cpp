#include "studies/claims.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "studies/result_files.hpp"

namespace geomint {

namespace {

struct Measured {
  std::string state, reason;
  double value = std::numeric_limits<double>::quiet_NaN();
};

Measured measure(const ExperimentSpec& ex, const ClaimSpec& claim, const std::vector<nlohmann::json>& records) {
  Measured m;
  int selected = 0, finished = 0;
  bool any_nan = false;
  double extreme = claim.at_most ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  for (const auto& r : records) {
    if (r["experiment"] != ex.name) continue;
    if (!claim.integrators.empty() &&
        std::find(claim.integrators.begin(), claim.integrators.end(), r["integrator"].get<std::string>()) == claim.integrators.end())
      continue;
    ++selected;
    if (r["status"] != "ok") continue;
    const auto absent = r.value("absent", nlohmann::json::array());
    if (std::find(absent.begin(), absent.end(), claim.metric) != absent.end()) continue;
    ++finished;
    const double v = number_from_json(r[claim.metric]);
    if (std::isnan(v)) any_nan = true;
    else extreme = claim.at_most ? std::max(extreme, v) : std::min(extreme, v);
  }
  if (finished == 0) {
    m.state = "not_checked";
    m.reason = selected == 0 ? "no case of the experiment is selected"
                             : "none of the " + std::to_string(selected) + " selected cases finished with a value of " + claim.metric;
    return m;
  }
  const std::string over = std::string(claim.at_most ? "largest" : "smallest") + " " + claim.metric + " over " +
                           std::to_string(finished) + " finished case" + (finished == 1 ? "" : "s");
  if (any_nan) {
    m.state = "not_held";
    m.reason = "a value of " + claim.metric + " is not finite";
    return m;
  }
  m.value = extreme;
  const bool held = claim.at_most ? extreme <= claim.bound : extreme >= claim.bound;
  m.state = held ? "held" : "not_held";
  m.reason = over + ": " + short_number(extreme) + (claim.at_most ? (held ? " <= " : " > ") : (held ? " >= " : " < ")) + short_number(claim.bound);
  return m;
}

}  // namespace

std::string claims_csv(const StudySpec& spec, const std::vector<nlohmann::json>& records) {
  std::string s = "study,experiment,claim,where,metric,integrators,relation,bound,measured,state,reason\n";
  for (const auto& ex : spec.experiments)
    for (const auto& claim : ex.claims) {
      const Measured m = measure(ex, claim, records);
      std::string integrators;
      for (const auto& i : claim.integrators) integrators += (integrators.empty() ? "" : ";") + i;
      s += csv_text(spec.name) + "," + csv_text(ex.name) + "," + csv_text(claim.claim) + "," + csv_text(claim.where) +
           "," + claim.metric + "," + csv_text(integrators) + "," + (claim.at_most ? "<=" : ">=") + "," +
           csv_number(claim.bound) + "," + csv_number(m.value, std::isnan(m.value)) + "," + m.state + "," +
           csv_text(m.reason) + "\n";
    }
  return s;
}

}  // namespace geomint
