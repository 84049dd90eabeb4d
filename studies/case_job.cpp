#include "studies/case_job.hpp"

#include <limits>
#include <optional>

#include "studies/atomic_file.hpp"
#include "studies/case_evocation.hpp"
#include "studies/case_keys.hpp"
#include "studies/component_plan.hpp"
#include "studies/evocation_positions.hpp"
#include "studies/long_time_record.hpp"
#include "studies/long_time_statistics.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/output_recorder.hpp"
#include "studies/result_files.hpp"
#include "studies/result_records.hpp"

namespace geomint {

namespace fs = std::filesystem;

namespace {


/// The record's long-time fields: each quantity's summary (its bins are in the series file), the
/// energy's growth exponent and that of the manifold defect of largest error (cases.csv).
void record_long_time(const std::vector<LongTimeSummary>& summaries, const nlohmann::json& full,
                      nlohmann::json& record) {
  nlohmann::json quantities = full["quantities"];
  for (auto& q : quantities) q.erase("bins");
  record["long_time"] = quantities;
  const LongTimeSummary* worst_defect = nullptr;
  for (const LongTimeSummary& s : summaries) {
    if (s.quantity.kind == InvariantKind::Energy) record["energy_alpha"] = json_number(s.alpha);
    if (s.quantity.kind == InvariantKind::ManifoldDefect && (!worst_defect || !(s.abs_max <= worst_defect->abs_max)))
      worst_defect = &s;
  }
  if (worst_defect) record["defect_alpha"] = json_number(worst_defect->alpha);
}

/// Writes one of a case's files into DIR/series and keeps its checksum, for resuming.
void write_series_file(const fs::path& dir, const std::string& name, const std::string& text,
                       nlohmann::json& checksums) {
  write_file_atomically(dir / "series" / name, text);
  checksums[name] = hash_hex(text);
}

/// The `components` plot's recorder of a case: its columns resolved against the model with the
/// case's parameters, sampled finely in the zoom window if the experiment has one.
ComponentRecorder component_recorder(const CaseSpec& spec, const ExperimentSpec& ex) {
  const ModelFace& model = find_model(spec.model);
  const auto [layout, invariants] = model.check_initial_state(spec);
  ComponentRecorder rec{resolve_components(ex.components, offered_components(model, layout, invariants)),
                        ex.zoom ? BinnedCsv(spec.T, ex.zoom->first, ex.zoom->second) : BinnedCsv(spec.T)};
  rec.csv.start(ex.components);
  return rec;
}

}  // namespace

std::vector<Job> spec_jobs(const StudySpec& spec, const std::map<std::string, ExperimentReference>& references,
                           double timed_seconds) {
  std::vector<Job> jobs;
  for (const auto& ex : spec.experiments)
    for (const auto& c : ex.cases) {
      jobs.push_back({&ex, c, &references.at(ex.name), "", "", jobs.size()});
      // A long run is timed once, as it is observed (its statistics included), not repeated.
      jobs.back().spec.timed_seconds = ex.long_time ? -1.0 : timed_seconds;
    }
  return jobs;
}

nlohmann::json run_job(const Job& job, const fs::path& dir, bool added_step) {
  nlohmann::json checksums = nlohmann::json::object();  // of the series files, for resuming
  const ExperimentSpec& ex = *job.experiment;
  const auto& ref = job.reference->solution;
  std::optional<SeriesDecimator> series;
  if (ex.series) series.emplace(0.0, job.spec.T);
  SnapshotRecorder snapshots{ex.snapshots};
  CaseHooks hooks;
  hooks.reference = ref ? &*ref : nullptr;
  hooks.series = series ? &*series : nullptr;
  hooks.snapshots = ex.snapshots.empty() ? nullptr : &snapshots;
  BinnedCsv curves(job.spec.T);
  hooks.curves = ex.draws_curves() ? &curves : nullptr;
  std::optional<ComponentRecorder> components;
  if (!ex.components.empty()) components.emplace(component_recorder(job.spec, ex));
  hooks.components = components ? &*components : nullptr;
  BinnedCsv paths(job.spec.T);
  hooks.paths = ex.has_plot("paths") ? &paths : nullptr;
  OutputRecorder outputs(job.spec.T);
  hooks.outputs = ex.draws_outputs() ? &outputs : nullptr;
  std::optional<PositionRecorder> positions;
  if (ex.evokes(job.spec)) positions.emplace(fixed_step_count(job.spec.T, job.spec.h));
  hooks.positions = positions ? &*positions : nullptr;
  LongTimeStatistics long_time;
  hooks.long_time = ex.long_time ? &long_time : nullptr;
  const CaseResult result = run_case(job.spec, hooks);
  const bool ran = result.status != "n/a";
  if (hooks.snapshots && ran) write_series_file(dir, job.id + "-snapshots.csv", snapshots.csv, checksums);
  if (hooks.curves && ran) write_series_file(dir, job.id + "-curves.csv", curves.text(), checksums);
  if (hooks.components && ran) write_series_file(dir, job.id + "-components.csv", components->csv.text(), checksums);
  if (hooks.paths && ran) write_series_file(dir, job.id + "-paths.csv", paths.text(), checksums);
  if (hooks.outputs && ran) write_series_file(dir, job.id + "-outputs.csv", outputs.csv(), checksums);
  const double ref_err = ref ? ref->error_estimate : kNaN;
  const bool below = ref && result.status == "ok" && result.global_err < kReferenceMargin * ref_err;
  if (series && ran) write_series_file(dir, job.id + ".csv", series_csv(series->rows()), checksums);
  nlohmann::json record = case_record(job.id, job.spec, result, ref_err, below);
  if (hooks.long_time && ran) {
    const auto summaries = long_time.summaries();
    const nlohmann::json full = long_time_json(summaries, long_time.points(), long_time.samples());
    write_series_file(dir, job.id + "-long-time.json", full.dump(), checksums);
    record_long_time(summaries, full, record);
  }
  record["series_files"] = checksums;
  record["added_step"] = added_step;
  if (positions && ran) record["evocation"] = evoke_case(dir, job.id, result, *positions, ex.evoke->scan);
  write_file_atomically(dir / "cases" / (job.id + ".json"), sealed_record_text(record));
  return record;
}

RunCase job_runner(const std::vector<Job>& jobs, const fs::path& dir) {
  return [&jobs, dir](const CaseTask& task) {
    Job job = jobs[task.of];  // a copy: rank 0's threads run several cases of one spec case
    job.spec.h = task.h;
    job.id = case_id(job.spec, *job.experiment);
    return run_job(job, dir, task.index != task.of);
  };
}

}  // namespace geomint
