#include "studies/study_references.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <limits>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "studies/atomic_file.hpp"
#include "studies/case_keys.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/process_group.hpp"
#include "studies/result_records.hpp"

namespace geomint {

namespace fs = std::filesystem;

namespace {

/// The reference's final state as the experiment's model holds it, and its error estimate
/// (the distance of the tight run from the loose one) in that model's distance: a reference
/// solved in another formulation (models/formulation.hpp) is mapped first.
ReferenceSolution in_experiment_model(const ExperimentSpec& ex, const CaseSpec& base,
                                      const CaseSpec& tight, const CaseResult& a,
                                      const CaseResult& b) {
  if (ex.reference->model.empty())
    return {a.final_state, a.layout.distance(a.final_state, b.final_state)};
  const ModelFace& formulation = find_model(tight.model);
  const Eigen::VectorXd ya = formulation.state_in_other_formulation(tight, a.final_state);
  const Eigen::VectorXd yb = formulation.state_in_other_formulation(tight, b.final_state);
  const StateLayout layout = find_model(base.model).check_initial_state(base).first;
  return {ya, layout.distance(ya, yb)};
}

/// The reference run of an experiment at its tolerances, from the experiment's first case.
CaseSpec tight_reference_case(const ExperimentSpec& ex, const CaseSpec& base) {
  CaseSpec tight = base;
  if (!ex.reference->model.empty()) tight.model = ex.reference->model;  // another formulation
  tight.integrator = ex.reference->integrator;
  tight.user_method = nullptr;  // the reference is a catalogued solver, whatever base runs
  tight.h = std::numeric_limits<double>::quiet_NaN();  // no step: the reference is adaptive
  tight.rtol = ex.reference->rtol;
  tight.atol = ex.reference->atol;
  tight.timed_seconds = 0.0;  // its CPU time is not reported: one timed run, not 10 ms of them
  return tight;
}

/// The experiment's reference at its tolerances, self-checked against the same solver at
/// tolerances ten times looser: their difference is the error estimate (an upper bound on the
/// looser run's error, so a conservative one for the tighter run's). Cached by content hash.
ExperimentReference compute_reference(const ExperimentSpec& ex, const CaseSpec& base,
                                      const ResultFolder& folder) {
  ExperimentReference out;
  if (!ex.reference) {
    out.description = "none";
    return out;
  }
  if (ex.reference->exact) {
    out.description = "exact solution";
    out.solution = ReferenceSolution{find_model(ex.model).exact_final_state(base), 0.0};
    return out;
  }
  const CaseSpec tight = tight_reference_case(ex, base);
  CaseSpec loose = tight;
  loose.rtol *= 10.0;
  loose.atol *= 10.0;
  char desc[160];
  std::snprintf(desc, sizeof desc, "%s rtol=%g atol=%g (checked against rtol=%g atol=%g)",
                tight.integrator.c_str(), tight.rtol, tight.atol, loose.rtol, loose.atol);
  out.description = desc;
  if (!ex.reference->model.empty()) out.description += " on the formulation " + tight.model;
  const nlohmann::json inputs = case_inputs(tight);
  const fs::path cache = folder.path() / "references" /
                         (hash_of(inputs) + ".json");
  if (const auto text = folder.read(cache)) {
    std::string problem;
    if (auto r = parse_reference_record(*text, inputs, problem)) {
      out.solution = std::move(*r);
      return out;
    }
    folder.set_aside(cache, problem);
  }
  const CaseResult a = run_case(tight, {});
  const CaseResult b = run_case(loose, {});
  if (a.status != "ok" || b.status != "ok") {
    out.description += "; FAILED: " + (a.status != "ok" ? a.detail : b.detail);
    return out;
  }
  ReferenceSolution r = in_experiment_model(ex, base, tight, a, b);
  write_file_atomically(cache, reference_record_text(r, inputs, out.description));
  out.solution = r;
  return out;
}

/// The references as text, for the other ranks: each experiment's description, and its final
/// state and error estimate bit for bit.
std::string references_text(const std::map<std::string, ExperimentReference>& references) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, ref] : references) {
    nlohmann::json e = {{"description", ref.description}};
    if (ref.solution) {
      std::vector<std::uint64_t> bits;
      for (const double v : ref.solution->final_state) bits.push_back(std::bit_cast<std::uint64_t>(v));
      e["final_state"] = bits;
      e["error_estimate"] = std::bit_cast<std::uint64_t>(ref.solution->error_estimate);
    }
    j[name] = e;
  }
  return j.dump();
}

std::map<std::string, ExperimentReference> references_from_text(const std::string& text) {
  std::map<std::string, ExperimentReference> references;
  const nlohmann::json j = nlohmann::json::parse(text);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const nlohmann::json& e = it.value();
    ExperimentReference& ref = references[it.key()];
    ref.description = e["description"].get<std::string>();
    if (!e.contains("final_state")) continue;
    const auto bits = e["final_state"].get<std::vector<std::uint64_t>>();
    ReferenceSolution solution{Eigen::VectorXd(static_cast<Eigen::Index>(bits.size())),
                               std::bit_cast<double>(e["error_estimate"].get<std::uint64_t>())};
    for (std::size_t i = 0; i < bits.size(); ++i)
      solution.final_state[static_cast<Eigen::Index>(i)] = std::bit_cast<double>(bits[i]);
    ref.solution = std::move(solution);
  }
  return references;
}

/// Rank 0's references, as text for the other ranks.
std::string computed_references_text(const StudySpec& spec, const StudyOptions& options,
                                     const ResultFolder& folder) {
  std::map<std::string, ExperimentReference> references;
  for (const auto& ex : spec.experiments) {
    if (ex.cases.empty()) throw InputError(spec.file + ": experiment '" + ex.name + "' has no case");
    if (options.progress && ex.reference)
      std::fprintf(stderr, "%s/%s: computing the reference solution\n", spec.name.c_str(), ex.name.c_str());
    references[ex.name] = compute_reference(ex, ex.cases.front(), folder);
  }
  return references_text(references);
}

}  // namespace

std::map<std::string, ExperimentReference> shared_references(const StudySpec& spec, const StudyOptions& options,
                                                             const ResultFolder* folder) {
  std::string text;
  std::exception_ptr error;
  if (folder) {
    try {
      text = computed_references_text(spec, options, *folder);
    } catch (...) {
      error = std::current_exception();
      text = std::to_string(exit_status(error));
    }
  }
  broadcast_from_coordinator(text);
  if (error) std::rethrow_exception(error);
  if (text.empty() || text.front() != '{') throw ReportedElsewhere{std::stoi(text)};
  return references_from_text(text);
}

std::map<std::string, ErrorScale> experiment_error_scales(const StudySpec& spec,
                                                          const std::map<std::string, ExperimentReference>& references) {
  std::map<std::string, ErrorScale> scales;
  for (const auto& ex : spec.experiments) {
    const auto& ref = references.at(ex.name).solution;
    if (!ref) continue;
    const double size = ref->final_state.norm();
    scales[ex.name] = {std::max(kReferenceMargin * ref->error_estimate, 100.0 * std::numeric_limits<double>::epsilon() * size),
                       0.1 * size};
  }
  return scales;
}

}  // namespace geomint
