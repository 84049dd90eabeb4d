#include "studies/case_keys.hpp"

#include <cmath>
#include <vector>

#include "studies/build_info.hpp"
#include "studies/result_files.hpp"
#include "studies/result_records.hpp"
#include "studies/user_method.hpp"

namespace geomint {

namespace {

/// The version of the records and metrics a result folder holds; a change of it (or of the
/// code revision) redoes every case.
constexpr int kResultsFormat = 5;

/// The reference a case is measured against, as the experiment asks for it.
nlohmann::json reference_inputs(const ExperimentSpec& ex) {
  if (!ex.reference) return nullptr;
  if (ex.reference->exact) return "exact";
  nlohmann::json j = {{"integrator", ex.reference->integrator}, {"rtol", ex.reference->rtol}, {"atol", ex.reference->atol}};
  if (!ex.reference->model.empty()) j["model"] = ex.reference->model;  // only when asked
  return j;
}

}  // namespace

nlohmann::json case_inputs(const CaseSpec& c) {
  nlohmann::json j;
  j["revision"] = build_info::kGitRevision;
  j["results_format"] = kResultsFormat;
  j["study"] = c.study;
  j["experiment"] = c.experiment;
  j["model"] = c.model;
  j["preset"] = c.preset;
  j["parameters"] = c.parameters;
  auto initial = nlohmann::json::array();
  for (const auto& [name, v] : c.initial)
    initial.push_back({name, std::vector<double>(v.data(), v.data() + v.size())});
  j["initial"] = initial;
  j["project_initial"] = c.project_initial;
  j["integrator"] = c.integrator;
  j["h"] = json_number(c.h);
  j["rtol"] = json_number(c.rtol);
  j["atol"] = json_number(c.atol);
  j["T"] = c.T;
  j["left_manifold_at"] = c.left_manifold_at;
  j["max_steps"] = c.max_steps;
  if (!std::isnan(c.reversibility_T)) j["reversibility_T"] = c.reversibility_T;
  if (c.compensated) j["compensated"] = true;  // only when asked: earlier cases keep their keys
  if (c.user_method) j["user_method"] = c.user_method->as_json();  // its coefficients
  return j;
}

std::string hash_of(const nlohmann::json& inputs) {
  return hash_hex(inputs.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

nlohmann::json scan_json(const EvocationScan& scan) {
  return {{"xi_min", scan.xi_min}, {"xi_max", scan.xi_max},        {"count", scan.count},
          {"best", scan.best},     {"lag_min", json_number(scan.lag_min)}, {"lag_max", json_number(scan.lag_max)}};
}

std::string case_id(const CaseSpec& c, const ExperimentSpec& ex) {
  nlohmann::json j = case_inputs(c);
  j["reference"] = reference_inputs(ex);
  j["series"] = ex.series;
  j["snapshots"] = ex.snapshots;
  // Only when asked: earlier cases keep their keys.
  if (ex.draws_curves()) j["curves"] = true;
  if (ex.draws_outputs()) j["outputs"] = true;
  if (!ex.components.empty()) {
    j["components"] = ex.components;
    if (ex.zoom) j["zoom"] = {ex.zoom->first, ex.zoom->second};
  }
  if (ex.has_plot("paths")) j["paths"] = true;
  if (ex.long_time) j["long_time"] = true;
  if (ex.evokes(c)) j["evoke"] = scan_json(ex.evoke->scan);
  return hash_of(j);
}

std::string cost_key(const CaseSpec& c) {
  nlohmann::json j = case_inputs(c);
  j.erase("revision");
  j.erase("results_format");
  return hash_of(j);
}

}  // namespace geomint
