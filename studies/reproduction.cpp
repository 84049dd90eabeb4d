#include "studies/reproduction.hpp"

#include <cmath>

#include "studies/note_template.hpp"
#include "studies/result_files.hpp"

namespace geomint {

namespace {

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

/// The record of the published row's case: its integrator with its settings, or with no setting
/// given, the adaptive defaults (ode45's rtol 1e-3, atol 1e-6) too.
const nlohmann::json* matching_record(const ExperimentSpec& ex, const PublishedRow& p,
                                      const std::vector<nlohmann::json>& records) {
  const bool defaults = std::isnan(p.h) && std::isnan(p.rtol);
  for (const auto& r : records) {
    if (r["experiment"] != ex.name || r["integrator"] != p.integrator || r.value("added_step", false)) continue;
    const double h = number_from_json(r["h"]), rtol = number_from_json(r["rtol"]), atol = number_from_json(r["atol"]);
    if ((defaults && rtol == 1e-3 && atol == 1e-6) || (same(h, p.h) && same(rtol, p.rtol) && same(atol, p.atol)))
      return &r;
  }
  return nullptr;
}

std::string setting_text(const nlohmann::json& r) {
  char buf[96];
  if (r["adaptive"].get<bool>())
    std::snprintf(buf, sizeof buf, "rtol = %g, atol = %g", number_from_json(r["rtol"]), number_from_json(r["atol"]));
  else
    std::snprintf(buf, sizeof buf, "h = %g", number_from_json(r["h"]));
  return buf;
}

bool dimensionless(const std::string& metric) {
  return metric == "unit_length_err_mean" || metric == "energy_rel_err_max";
}

}  // namespace

std::string reproduction_csv(const StudySpec& spec, const std::vector<nlohmann::json>& records) {
  std::string s = "study,experiment,example,method,setting,role,metric,published,ours,ratio,case_id,note,round_off,in_band\n";
  for (const auto& ex : spec.experiments)
    for (const auto& p : ex.published) {
      const nlohmann::json* match = matching_record(ex, p, records);
      if (!match) continue;
      const nlohmann::json& r = *match;
      const std::string note = expand_note(p.note, [&](const std::string& kind, const std::string& name) {
        if (kind == "setting") return name == "T" ? r["T"].get<double>() : number_from_json(r[name]);
        if (kind == "ours") return number_from_json(r[name]);
        const double published = p.values.at(name);
        return kind == "published" ? published : number_from_json(r[name]) / published;
      });
      const std::string setting = p.setting.empty() ? setting_text(r) : p.setting;
      for (const auto& [metric, published] : p.values) {
        const double ours = number_from_json(r[metric]), ratio = ours / published;
        const bool round_off = dimensionless(metric) && ours <= kRoundOffLevel && published <= kRoundOffLevel;
        const bool in_band = ratio >= kBandLow && ratio <= kBandHigh;
        s += csv_text(spec.name) + "," + csv_text(ex.name) + "," + csv_text(p.example) + "," + csv_text(p.method) + "," +
             csv_text(setting) + "," + p.role + "," + metric + "," + csv_number(published) + "," + csv_number(ours) + "," +
             csv_number(ratio) + "," + r["case_id"].get<std::string>() + "," + csv_text(note) + "," +
             (round_off ? "1" : "0") + "," + (round_off ? "" : in_band ? "1" : "0") + "\n";
      }
    }
  return s;
}

}  // namespace geomint
