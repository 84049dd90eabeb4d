#include "studies/result_files.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>

#include "errors/exit_status_errors.hpp"
#include "models/parameter_domain.hpp"

namespace geomint {

std::string csv_number(double v, bool absent) {
  if (absent) return "";
  if (std::isnan(v)) return "nan";
  return number_text(v);  // the shortest text that reads back as v
}

std::string csv_text(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c == '\n' ? ' ' : c;
  }
  return q + "\"";
}

std::string short_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

nlohmann::json json_number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(); }

double number_from_json(const nlohmann::json& j) {
  return j.is_number() ? j.get<double>() : std::numeric_limits<double>::quiet_NaN();
}

nlohmann::json case_record(const std::string& case_id, const CaseSpec& spec,
                           const CaseResult& r, double reference_err, bool below_reference) {
  const Metrics& m = r.metrics;
  nlohmann::json j;
  j["case_id"] = case_id;
  j["study"] = spec.study;
  j["experiment"] = spec.experiment;
  j["model"] = spec.model;
  j["preset"] = spec.preset;
  j["integrator"] = spec.integrator;
  j["h"] = json_number(spec.h);
  j["rtol"] = json_number(r.adaptive ? spec.rtol : std::numeric_limits<double>::quiet_NaN());
  j["atol"] = json_number(r.adaptive ? spec.atol : std::numeric_limits<double>::quiet_NaN());
  j["T"] = spec.T;
  j["status"] = r.status;
  j["status_detail"] = r.detail;
  j["fail_time"] = json_number(r.fail_time);
  j["notes"] = r.notes;
  j["family"] = r.family;
  j["nominal_order"] = r.nominal_order;
  j["adaptive"] = r.adaptive;
  j["symplectic"] = r.symplectic;
  j["stays_on_manifold"] = r.stays_on_manifold;
  j["symmetric"] = r.symmetric;
  j["momentum"] = r.conserves_momentum;
  j["compensated"] = spec.compensated;
  j["energy_conserved"] = r.energy_conserved;
  j["reversibility_steps"] = r.reversibility_steps;
  j["reversibility_miss"] = json_number(r.reversibility_miss);
  j["reversibility_scale"] = json_number(r.reversibility_scale);
  j["energy_alpha"] = nullptr;  // set from the long-time statistics, where there are some
  j["defect_alpha"] = nullptr;
  j["steps"] = r.work.steps;
  j["rejected"] = r.work.rejected;
  j["f_evals"] = r.work.f_evals < 0 ? nlohmann::json() : nlohmann::json(r.work.f_evals);  // < 0: not reported
  j["exponentials"] = r.work.exponentials;
  j["nonlinear_iterations"] = r.work.nonlinear_iterations;
  j["cpu_s"] = r.cpu_s;
  j["cpu_repetitions"] = r.cpu_repetitions;
  j["cpu_timed_s"] = r.cpu_timed_s;
  j["global_err"] = json_number(r.global_err);
  j["global_err_ambient"] = json_number(r.global_err_ambient);
  j["energy_err_max"] = json_number(m.energy_err_max);
  j["energy_err_mean"] = json_number(m.energy_err_mean);
  j["energy_drift_per_time"] = json_number(m.energy_drift_per_time);
  j["energy_rel_err_max"] = json_number(m.energy_rel_err_max);
  j["momentum_err_max"] = json_number(m.momentum_err_max);
  j["momentum_rel_err_max"] = json_number(m.momentum_rel_err_max);
  j["manifold_err_max"] = json_number(m.manifold_err_max);
  j["tangency_err_max"] = json_number(m.tangency_err_max);
  j["unit_length_err_mean"] = json_number(m.unit_length_err_mean);
  j["casimir_err_max"] = json_number(m.casimir_err_max);
  j["manifold_defect_max"] = json_number(m.manifold_defect_max);
  j["constraint_err_max"] = json_number(m.constraint_err_max);
  j["absent"] = r.absent_metrics;
  j["output_points"] = m.output_points;
  j["mean_step"] = json_number(r.work.steps > 0 ? spec.T / static_cast<double>(r.work.steps)
                                                : std::numeric_limits<double>::quiet_NaN());
  j["reference_err"] = json_number(reference_err);
  j["below_reference"] = below_reference;
  return j;
}

std::string series_csv(const std::vector<SeriesDecimator::Row>& rows) {
  std::string s =
      "t,energy_err,energy_rel_err,unit_length_err,tangency_err,momentum_err,step,casimir_err,"
      "manifold_defect\n";
  for (const auto& r : rows) {
    for (double v : {r.t, r.energy_err, r.energy_rel_err, r.unit_length_err, r.tangency_err,
                     r.momentum_err, r.step, r.casimir_err})
      s += csv_number(v) + ",";
    s += csv_number(r.manifold_defect) + "\n";
  }
  return s;
}

namespace {
// The first 19 columns are fixed by DESIGN.md; later ones are only ever appended.
const std::vector<std::string> kColumns = {
    "study", "model", "integrator", "h", "rtol", "atol", "T", "status", "steps", "rejected",
    "f_evals", "cpu_s", "global_err", "energy_err_max", "energy_err_mean",
    "energy_drift_per_time", "momentum_err_max", "manifold_err_max", "tangency_err_max",
    "experiment", "case_id", "preset", "family", "nominal_order", "mean_step",
    "unit_length_err_mean", "energy_rel_err_max", "nonlinear_iterations", "exponentials",
    "output_points", "fail_time", "status_detail", "reference_err", "below_reference",
    "symplectic", "stays_on_manifold", "momentum_rel_err_max", "global_err_ambient",
    "casimir_err_max", "manifold_defect_max", "constraint_err_max", "cpu_repetitions", "added_step", "cpu_timed_s",
    "symmetric", "reversibility_steps", "reversibility_miss", "energy_alpha", "defect_alpha", "compensated"};

/// The columns whose null is "not measured here" (an empty cell), not "could not be computed".
bool empty_when_null(const std::string& c) {
  for (const char* name : {"h", "rtol", "atol", "f_evals", "fail_time", "reversibility_miss", "energy_alpha", "defect_alpha"})
    if (c == name) return true;
  return false;
}
}  // namespace

const std::vector<std::string>& cases_csv_columns() { return kColumns; }

std::string cases_csv_header() {
  std::string s;
  for (const auto& c : kColumns) s += (s.empty() ? "" : ",") + c;
  return s + "\n";
}

std::string cases_csv_row(const nlohmann::json& j) {
  std::string s;
  std::vector<std::string> absent;
  if (j.contains("absent")) absent = j["absent"].get<std::vector<std::string>>();
  for (const auto& c : kColumns) {
    if (!s.empty() || &c != &kColumns.front()) s += ",";
    if (std::find(absent.begin(), absent.end(), c) != absent.end()) continue;  // empty cell
    const auto& v = j.at(c);
    if (v.is_boolean()) s += v.get<bool>() ? "1" : "0";
    else if (v.is_string()) s += csv_text(v.get<std::string>());
    else if (v.is_number_integer()) s += std::to_string(v.get<long long>());
    else if (v.is_number()) s += csv_number(v.get<double>());
    else if (v.is_null()) s += empty_when_null(c) ? "" : "nan";
    else s += csv_text(v.dump());
  }
  return s + "\n";
}

}  // namespace geomint
