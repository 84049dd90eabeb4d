#include "studies/engine.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "catalogue/integrator_declarations.hpp"
#include "models/kernel_threads.hpp"
#include "models/parameters.hpp"
#include "reference/sundials_build.hpp"
#include "studies/atomic_file.hpp"
#include "studies/build_info.hpp"
#include "studies/case_evocation.hpp"
#include "studies/case_pool.hpp"
#include "studies/case_schedule.hpp"
#include "studies/claims.hpp"
#include "studies/convergence.hpp"
#include "studies/evocation_positions.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/output_recorder.hpp"
#include "studies/process_group.hpp"
#include "studies/progress_line.hpp"
#include "studies/reproduction.hpp"
#include "studies/result_files.hpp"
#include "studies/result_folder.hpp"
#include "studies/result_records.hpp"
#include "studies/user_method.hpp"
#include "studies/verdicts.hpp"

namespace geomint {

namespace fs = std::filesystem;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The version of the records and metrics a result folder holds; a change of it (or of the
/// code revision) redoes every case.
constexpr int kResultsFormat = 3;

/// Everything a run's numbers depend on, the code revision included.
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
  if (c.user_method) j["user_method"] = c.user_method->as_json();  // its coefficients
  return j;
}

/// The hash of inputs as JSON (text that is not UTF-8 replaced, so that hashing cannot throw).
std::string hash_of(const nlohmann::json& inputs) {
  return hash_hex(inputs.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

/// The reference a case is measured against, as the experiment asks for it.
nlohmann::json reference_inputs(const ExperimentSpec& ex) {
  if (!ex.reference) return nullptr;
  if (ex.reference->exact) return "exact";
  nlohmann::json j = {{"integrator", ex.reference->integrator}, {"rtol", ex.reference->rtol}, {"atol", ex.reference->atol}};
  if (!ex.reference->model.empty()) j["model"] = ex.reference->model;  // only when asked
  return j;
}

/// The scan of an evocation as JSON (lags null: the default).
nlohmann::json scan_json(const EvocationScan& scan) {
  return {{"xi_min", scan.xi_min}, {"xi_max", scan.xi_max},        {"count", scan.count},
          {"best", scan.best},     {"lag_min", json_number(scan.lag_min)}, {"lag_max", json_number(scan.lag_max)}};
}

/// A case's key: its run's inputs, and what the experiment measures on it (the reference, the
/// series, the snapshots, the curves, the outputs, the evocation).
std::string case_id(const CaseSpec& c, const ExperimentSpec& ex) {
  nlohmann::json j = case_inputs(c);
  j["reference"] = reference_inputs(ex);
  j["series"] = ex.series;
  j["snapshots"] = ex.snapshots;
  // Only when asked: earlier cases keep their keys.
  if (ex.draws_curves()) j["curves"] = true;
  if (ex.draws_outputs()) j["outputs"] = true;
  if (ex.evokes(c)) j["evoke"] = scan_json(ex.evoke->scan);
  return hash_of(j);
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

std::string setting_text(const CaseSpec& c, bool adaptive) {
  char buf[96];
  if (adaptive) std::snprintf(buf, sizeof buf, "rtol = %g, atol = %g", c.rtol, c.atol);
  else std::snprintf(buf, sizeof buf, "h = %g", c.h);
  return buf;
}

/// The experiment's model parameters as the cases run with them (defaults, then the preset's,
/// then the experiment's overrides).
nlohmann::json parameter_values(const ExperimentSpec& ex) {
  nlohmann::json j = nlohmann::json::object();
  const ParameterSet parameters = find_model(ex.model).parameters_for(ex.preset, ex.parameters);
  for (const auto& p : parameters.list()) j[p.name] = p.value;
  return j;
}

/// The reference's final state as the experiment's model holds it, and its error estimate
/// (the distance of the tight run from the loose one) in that model's distance: a reference
/// solved in another formulation (models/formulation.hpp) is mapped first.
ReferenceSolution in_experiment_model(const ExperimentSpec& ex, const CaseSpec& base,
                                      const CaseSpec& tight, const CaseResult& a,
                                      const CaseResult& b) {
  if (ex.reference->model.empty())
    return {a.final_state, a.layout.distance(a.final_state, b.final_state)};
  const ModelEntry& formulation = find_model(tight.model);
  const Eigen::VectorXd ya = formulation.state_in_other_formulation(tight, a.final_state);
  const Eigen::VectorXd yb = formulation.state_in_other_formulation(tight, b.final_state);
  const StateLayout layout = find_model(base.model).check_initial_state(base).first;
  return {ya, layout.distance(ya, yb)};
}

struct ExperimentReference {
  std::optional<ReferenceSolution> solution;
  std::string description;  // solver and tolerances, or why there is none
};

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
  CaseSpec tight = base;
  if (!ex.reference->model.empty()) tight.model = ex.reference->model;  // another formulation
  tight.integrator = ex.reference->integrator;
  tight.user_method = nullptr;  // the reference is a catalogued solver, whatever base runs
  tight.h = kNaN;
  tight.rtol = ex.reference->rtol;
  tight.atol = ex.reference->atol;
  tight.timed_seconds = 0.0;  // its CPU time is not reported: one timed run, not 10 ms of them
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

struct Job {
  const ExperimentSpec* experiment;
  CaseSpec spec;  // a same_steps_as case gets its h once its source case has run
  const ExperimentReference* reference;
  std::string id;
  std::string cost_key;  // in DIR/costs.json, once its h is known
  std::size_t of;        // the spec's case it runs: itself, or for a step the window search added,
                         // the spec's case of the same integrator and experiment
};

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
  CurveRecorder curves;
  curves.T = job.spec.T;
  hooks.curves = ex.draws_curves() ? &curves : nullptr;
  OutputRecorder outputs(job.spec.T);
  hooks.outputs = ex.draws_outputs() ? &outputs : nullptr;
  std::optional<PositionRecorder> positions;
  if (ex.evokes(job.spec)) positions.emplace(fixed_step_count(job.spec.T, job.spec.h));
  hooks.positions = positions ? &*positions : nullptr;
  const CaseResult result = run_case(job.spec, hooks);
  if (hooks.snapshots && result.status != "n/a") {
    write_file_atomically(dir / "series" / (job.id + "-snapshots.csv"), snapshots.csv);
    checksums[job.id + "-snapshots.csv"] = hash_hex(snapshots.csv);
  }
  if (hooks.curves && result.status != "n/a") {
    write_file_atomically(dir / "series" / (job.id + "-curves.csv"), curves.csv);
    checksums[job.id + "-curves.csv"] = hash_hex(curves.csv);
  }
  if (hooks.outputs && result.status != "n/a") {
    const std::string csv = outputs.csv();
    write_file_atomically(dir / "series" / (job.id + "-outputs.csv"), csv);
    checksums[job.id + "-outputs.csv"] = hash_hex(csv);
  }
  const double ref_err = ref ? ref->error_estimate : kNaN;
  const bool below = ref && result.status == "ok" && result.global_err < kReferenceMargin * ref_err;
  if (series && result.status != "n/a") {
    const std::string csv = series_csv(series->rows());
    write_file_atomically(dir / "series" / (job.id + ".csv"), csv);
    checksums[job.id + ".csv"] = hash_hex(csv);
  }
  nlohmann::json record = case_record(job.id, job.spec, result, ref_err, below);
  record["series_files"] = checksums;
  record["added_step"] = added_step;
  if (positions && result.status != "n/a") record["evocation"] = evoke_case(dir, job.id, result, *positions, ex.evoke->scan);
  write_file_atomically(dir / "cases" / (job.id + ".json"), sealed_record_text(record));
  return record;
}

/// The finished record of a job from an earlier run, if there is one and it and its series
/// files are whole; a damaged one is set aside (and the case is run again).
std::optional<nlohmann::json> resumed_record(const Job& job, const ResultFolder& folder) {
  const fs::path file = folder.path() / "cases" / (job.id + ".json");
  const auto text = folder.read(file);
  if (!text) return std::nullopt;
  std::string problem;
  auto record = parse_case_record(*text, job.id, problem);
  if (!record) {
    folder.set_aside(file, problem);
    return std::nullopt;
  }
  const auto files = record->find("series_files");
  if (files == record->end() || !files->is_object()) {
    folder.set_aside(file, "it does not list its series files");
    return std::nullopt;
  }
  const bool series_expected = job.experiment->series && (*record)["status"] != "n/a";
  if (series_expected != files->contains(job.id + ".csv")) {
    folder.set_aside(file, "its series files are not the experiment's");
    return std::nullopt;
  }
  const bool evocation_expected = job.experiment->evokes(job.spec) && (*record)["status"] != "n/a";
  const auto evocation = record->find("evocation");
  const bool has_evocation = evocation != record->end() && evocation->is_object() &&
                             evocation->contains("files") && (*evocation)["files"].is_object();
  if (evocation_expected != has_evocation) {
    folder.set_aside(file, "its evocation is not the experiment's");
    return std::nullopt;
  }
  std::vector<std::pair<fs::path, const nlohmann::json*>> checked;  // each file and its checksum
  for (const auto& [name, checksum] : files->items()) checked.emplace_back(fs::path("series") / name, &checksum);
  if (has_evocation)
    for (const auto& [name, checksum] : (*evocation)["files"].items()) checked.emplace_back(name, &checksum);
  for (const auto& [name, checksum] : checked) {
    const fs::path path = folder.path() / name;
    const auto content = folder.read(path);
    if (content && checksum->is_string() && hash_hex(*content) == checksum->get<std::string>()) continue;
    if (content) folder.set_aside(path, "its checksum does not match its case record");
    return std::nullopt;
  }
  return record;
}

/// The bytes a case's files can take at most: its record, its series (SeriesDecimator's
/// 2000 bins and the header, nine numbers a row), its curves (CurveRecorder's 2000 bins, the
/// time and three numbers per curve), its outputs (OutputRecorder's 2000 bins, the time and
/// one number per output) and its evocation (below); snapshots are left out of the estimate.
constexpr double kRecordBytes = 4096.0, kSeriesBytes = 2001.0 * 9.0 * 25.0, kBinnedColumnBytes = 2001.0 * 25.0;

/// An evoked case's files: scores.csv (three numbers a frame), evocation.json, and a frame
/// file per best frame holding every sample kept (the time and three numbers per body).
double evocation_bytes(const CaseSpec& c, const EvokeSpec& evoke) {
  const auto bodies = static_cast<double>(evoke.bodies);
  // A same_steps_as case's steps are known only once its source has run: the most it keeps.
  const double samples =
      std::isnan(c.h) ? static_cast<double>(kMaxEvocationPositions) / bodies
                      : static_cast<double>(evocation_samples(fixed_step_count(c.T, c.h), evoke.bodies));
  const double scan = (evoke.scan.count + 1.0) * 3.0 * 25.0, json = 4096.0 + 64.0 * bodies + 256.0 * evoke.scan.best;
  return scan + json + evoke.scan.best * (samples + 1.0) * (1.0 + 3.0 * bodies) * 25.0;
}

/// Refuses a study whose result files would be larger than its max_output, before it starts.
void check_output_estimate(const StudySpec& spec) {
  double bytes = 0.0;
  std::size_t cases = 0;
  for (const auto& ex : spec.experiments) {
    cases += ex.cases.size();
    const ModelEntry& model = find_model(ex.model);
    const double curves = ex.draws_curves() ? (1.0 + 3.0 * model.curves) * kBinnedColumnBytes : 0.0;
    const double outputs = ex.draws_outputs() ? (1.0 + model.outputs) * kBinnedColumnBytes : 0.0;
    bytes += static_cast<double>(ex.cases.size()) *
             (kRecordBytes + (ex.series ? kSeriesBytes : 0.0) + curves + outputs);
    for (const auto& c : ex.cases)
      if (ex.evokes(c)) bytes += evocation_bytes(c, *ex.evoke);
  }
  if (bytes <= spec.limits.max_output_bytes) return;
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: %zu cases write up to %.3g bytes of records, series and evocations, more than max_output = %.0f",
                spec.file.c_str(), cases, bytes, spec.limits.max_output_bytes);
  throw InputError(buf);
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

/// Rank 0 computes the references (each cached as soon as it is computed, so that a kill loses
/// at most the one being computed) and sends them to the other ranks, or, if it fails before
/// the cases start, its exit status, with which every rank then ends.
std::map<std::string, ExperimentReference> shared_references(const StudySpec& spec, const StudyOptions& options,
                                                             const ResultFolder* folder) {
  std::string text;
  std::exception_ptr error;
  if (folder) {
    try {
      std::map<std::string, ExperimentReference> references;
      for (const auto& ex : spec.experiments) {
        if (ex.cases.empty()) throw InputError(spec.file + ": experiment '" + ex.name + "' has no case");
        if (options.progress && ex.reference)
          std::fprintf(stderr, "%s/%s: computing the reference solution\n", spec.name.c_str(), ex.name.c_str());
        references[ex.name] = compute_reference(ex, ex.cases.front(), *folder);
      }
      text = references_text(references);
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

/// The errors each experiment's reference can resolve (studies/convergence.hpp): the floor is
/// the reference's own error estimate (kReferenceMargin of it) or round-off in |y_ref(T)|,
/// whichever is larger; the ceiling a tenth of |y_ref(T)|.
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

/// The step size the window search adds for a pair next, or NaN: only where an order is
/// measured, at most `window_search` of them, each within 2^window_search of the steps the spec
/// lists and under the spec's step cap.
double next_step_to_add(const PairConvergence& pair, const StudySpec& spec) {
  if (!pair.measures_order() || pair.added >= spec.window_search) return kNaN;
  const auto [smallest, largest] = std::minmax_element(pair.listed.begin(), pair.listed.end());
  const double scale = std::ldexp(1.0, spec.window_search);
  const double h = next_window_step(pair.window, pair.tried, *smallest / scale, *largest * scale);
  if (std::isnan(h) || step_count_problem(pair.experiment->T, h, spec.limits.max_steps)) return kNaN;
  return h;
}

/// Every catalogued integrator in catalogue order (families together), so that the report can
/// give each one colour in every figure of every study, whichever of them a figure shows.
nlohmann::json catalogue_json() {
  auto list = nlohmann::json::array();
  for (const auto& info : integrator_infos()) {
    const Declaration& d = info.declaration;
    list.push_back({{"name", d.name}, {"family", to_string(d.family)}, {"order", d.order}, {"adaptive", d.adaptive}});
  }
  return list;
}

/// A case's key in DIR/costs.json: its inputs without the code revision, so that the costs
/// outlive a rebuild.
std::string cost_key(const CaseSpec& c) {
  nlohmann::json j = case_inputs(c);
  j.erase("revision");
  j.erase("results_format");
  return hash_of(j);
}

/// The case threads of this process: --jobs, or its share of this machine's cores; and the
/// kernels' threads (models/kernel_threads.hpp): the cores left to each case, at least one.
/// Together they never ask for more threads than the machine has cores (unless --jobs does).
int share_cores(const StudyOptions& options) {
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int processes = processes_on_this_machine();  // on every rank: it asks them all
  const int threads = options.jobs > 0 ? options.jobs : std::max(1, cores / processes);
  set_kernel_threads(std::max(1, cores / (threads * processes)));
  return threads;
}

}  // namespace

StudySummary run_study(const StudySpec& spec, const StudyOptions& options) {
  const int threads = share_cores(options);
  std::optional<ResultFolder> folder;
  if (process_rank() == 0) {
    check_output_estimate(spec);
    folder.emplace(options.out_dir);
  }
  const fs::path dir = options.out_dir;
  const std::string started = utc_now();
  const auto wall_start = std::chrono::steady_clock::now();
  const std::map<std::string, ExperimentReference> references =
      shared_references(spec, options, folder ? &*folder : nullptr);
  const double references_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();

  std::vector<Job> jobs;
  for (const auto& ex : spec.experiments)
    for (const auto& c : ex.cases) {
      jobs.push_back({&ex, c, &references.at(ex.name), "", "", jobs.size()});
      jobs.back().spec.timed_seconds = options.timed_seconds;
    }
  const RunCase run_one = [&](const CaseTask& task) {
    Job job = jobs[task.of];  // a copy: rank 0's threads run several cases of one spec case
    job.spec.h = task.h;
    job.id = case_id(job.spec, *job.experiment);
    return run_job(job, dir, task.index != task.of);
  };
  if (!folder) {  // a worker rank
    serve_cases(threads, run_one);
    return {};
  }
  const auto pool = make_case_pool(threads, run_one);

  std::vector<nlohmann::json> records(jobs.size());
  StudySummary summary;
  summary.cases = static_cast<int>(jobs.size());
  RecordedCosts costs(*folder);
  double cases_cpu_s = 0.0;
  std::mutex mutex;
  ProgressLine progress(jobs.size(), options.progress);
  std::vector<double> expected_cost(jobs.size(), 0.0);  // of the cases that run, as scheduled
  const auto finish = [&](std::size_t i, const nlohmann::json& record, bool ran, bool resumed) {
    const std::lock_guard lock(mutex);
    records[i] = record;
    records[i]["added_step"] = jobs[i].of != i;  // a resumed record may have been added, or not
    summary.resumed += resumed;
    summary.failed += record["status"] != "ok" && record["status"] != "n/a";
    summary.not_applicable += record["status"] == "n/a";
    const CaseSpec& c = jobs[i].spec;
    char timing[32];
    std::snprintf(timing, sizeof timing, " (%.2f s)", record["cpu_s"].get<double>());
    const std::string status = record["status"].get<std::string>();
    progress.finished(c.experiment + " " + c.integrator + " " + setting_text(c, record["adaptive"].get<bool>()) +
                          ": " + status + (resumed ? ", resumed" : ran ? timing : ""),
                      status, ran ? std::optional<double>(expected_cost[i]) : std::nullopt);
  };
  const auto ran = [&](std::size_t i, const nlohmann::json& record, double cpu_s) {
    finish(i, record, true, false);
    const std::lock_guard lock(mutex);
    cases_cpu_s += cpu_s;
    costs.record(jobs[i].cost_key, cpu_s);
  };
  std::vector<double> scales;  // per experiment, for the expected costs
  for (const auto& ex : spec.experiments) scales.push_back(step_scale(ex.cases));
  // The cases of `todo` that an earlier run finished are taken from it; the others run,
  // longest expected first.
  const auto run_all = [&](const std::vector<std::size_t>& todo) {
    std::vector<std::size_t> to_run;
    std::vector<double> expected;
    std::vector<std::optional<double>> recorded;
    for (std::size_t i : todo) {
      Job& job = jobs[i];
      job.id = case_id(job.spec, *job.experiment);
      if (const auto saved = resumed_record(job, *folder)) {
        finish(i, *saved, false, true);
        continue;
      }
      const auto experiment = static_cast<std::size_t>(job.experiment - spec.experiments.data());
      const Declaration* declaration = find_integrator_declaration(job.spec.integrator);
      to_run.push_back(i);
      expected.push_back(expected_steps(job.spec, scales[experiment], declaration ? declaration->order : 2));
      job.cost_key = cost_key(job.spec);
      recorded.push_back(costs.find(job.cost_key));
    }
    const std::vector<double> cost = expected_costs(expected, recorded);
    std::vector<CaseTask> tasks;
    for (std::size_t k : longest_first(cost)) {
      tasks.push_back({to_run[k], jobs[to_run[k]].of, jobs[to_run[k]].spec.h});
      expected_cost[to_run[k]] = cost[k];
      progress.expect(cost[k]);
    }
    pool->run(tasks, ran);
  };

  // Cases whose step count comes from another case run after the others.
  const auto run_phases = [&] {
    std::vector<std::size_t> first, second;
    for (std::size_t i = 0; i < jobs.size(); ++i) (jobs[i].spec.same_steps_as ? second : first).push_back(i);
    run_all(first);
    for (std::size_t i : second) {
      CaseSpec& c = jobs[i].spec;
      const auto& of = *c.same_steps_as;
      for (std::size_t j : first) {
        const CaseSpec& src = jobs[j].spec;
        if (src.experiment != c.experiment || src.integrator != of.integrator || src.rtol != of.rtol ||
            src.atol != of.atol || records[j]["status"] != "ok")
          continue;
        c.h = c.T / records[j]["steps"].get<double>();
      }
      if (std::isnan(c.h)) {  // the source did not finish: nothing to take the step count from
        CaseResult skipped;
        skipped.status = "skipped";
        skipped.detail = "skipped: " + of.integrator + " (the source of its step count) did not finish";
        jobs[i].id = case_id(c, *jobs[i].experiment);
        finish(i, case_record(jobs[i].id, c, skipped, kNaN, false), false, false);
      }
    }
    std::erase_if(second, [&](std::size_t i) { return std::isnan(jobs[i].spec.h); });
    run_all(second);
  };
  // Where an order finds no asymptotic window, the step sizes the window search adds, a round
  // at a time (each depends on the errors of the last), until none is wanted.
  const std::map<std::string, ErrorScale> error_scales = experiment_error_scales(spec, references);
  const auto run_window_search = [&] {
    for (;;) {
      const std::vector<PairConvergence> pairs = measure_convergence(spec, records, error_scales);
      std::vector<std::size_t> added;
      for (const auto& pair : pairs) {
        const double h = next_step_to_add(pair, spec);
        if (std::isnan(h)) continue;
        const auto source = std::find_if(jobs.begin(), jobs.end(), [&](const Job& j) {
          return j.experiment == pair.experiment && j.spec.integrator == pair.integrator && !std::isnan(j.spec.h);
        });
        Job job = *source;
        job.spec.h = h;
        job.of = static_cast<std::size_t>(source - jobs.begin());
        added.push_back(jobs.size());
        jobs.push_back(job);
      }
      if (added.empty()) return;
      records.resize(jobs.size());
      expected_cost.resize(jobs.size(), 0.0);
      summary.cases += static_cast<int>(added.size());
      summary.added += static_cast<int>(added.size());
      progress.add_cases(added.size());
      run_all(added);
    }
  };
  try {
    run_phases();
    run_window_search();
  } catch (...) {
    costs.write(*folder);  // what the finished cases cost, for the run that resumes
    throw;
  }
  costs.write(*folder);

  std::string cases = cases_csv_header();
  for (const auto& r : records) cases += cases_csv_row(r);
  write_file_atomically(dir / "cases.csv", cases);
  const std::vector<PairConvergence> convergence = measure_convergence(spec, records, error_scales);
  write_file_atomically(dir / "orders.csv", orders_csv(spec.name, convergence));
  write_file_atomically(dir / "verdicts.csv", verdicts_csv(spec.name, judge_study(spec, records, convergence)));
  bool any_published = false, any_claims = false;
  for (const auto& ex : spec.experiments) {
    any_published |= !ex.published.empty();
    any_claims |= !ex.claims.empty();
  }
  if (any_published) write_file_atomically(dir / "reproduction.csv", reproduction_csv(spec, records));
  if (any_claims) write_file_atomically(dir / "claims.csv", claims_csv(spec, records));

  nlohmann::json m;
  m["study"] = spec.name;
  m["kind"] = spec.kind;
  m["title"] = spec.title;
  m["description"] = spec.description;
  m["spec_file"] = spec.file;
  m["spec"] = spec.as_json;
  m["git_revision"] = build_info::kGitRevision;
  m["compiler"] = build_info::kCompiler;
  m["build_type"] = build_info::kBuildType;
  m["flags"] = build_info::kCxxFlags;
  const SundialsBuild sundials = sundials_build();
  m["sundials"] = {{"version", sundials_version()},
                   {"build", sundials.description},
                   {"optimised", sundials.optimised}};
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  m["machine"] = {{"hostname", host}, {"cpu", cpu_model()}, {"cores", std::thread::hardware_concurrency()}};
  m["started"] = started;
  m["finished"] = utc_now();
  m["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  m["cases"] = summary.cases;
  m["failed"] = summary.failed;
  // The schedule's figures (studies/case_schedule.hpp): the CPU time of the cases this run
  // ran, over the processes and threads that ran them.
  m["cases_cpu_s"] = cases_cpu_s;
  m["references_s"] = references_s;  // the wall time before the first case: rank 0's references
  m["ranks"] = process_count();
  m["threads_per_rank"] = threads;
  m["resumed"] = summary.resumed;
  auto experiments = nlohmann::json::array();
  for (const auto& ex : spec.experiments) {
    const auto& ref = references.at(ex.name);
    auto evocations = nlohmann::json::array();
    for (const auto& r : records)
      if (r["experiment"] == ex.name && r.contains("evocation") && r["evocation"].is_object()) {
        const auto& e = r["evocation"];
        evocations.push_back({{"case_id", r["case_id"]}, {"integrator", r["integrator"]}, {"h", r["h"]},
                              {"status", e.value("status", "")}, {"detail", e.value("detail", "")},
                              {"dir", e.value("dir", "")}});
      }
    experiments.push_back({{"name", ex.name},
                           {"title", ex.title},
                           {"description", ex.description},
                           {"model", ex.model},
                           {"preset", ex.preset},
                           {"parameters", parameter_values(ex)},
                           {"T", ex.T},
                           {"reference", ref.description},
                           {"reference_err", json_number(ref.solution ? ref.solution->error_estimate : kNaN)},
                           {"plots", ex.plots},
                           {"evoke", ex.evoke ? scan_json(ex.evoke->scan) : nlohmann::json(nullptr)},
                           {"evocations", evocations}});
    if (ex.draws_formation()) {  // what the report draws at each time (models/formation.hpp)
      experiments.back()["formation_times"] = ex.formation_times;
      experiments.back()["curve_links"] = find_model(ex.model).curve_links;
    }
  }
  m["experiments"] = experiments;
  m["figures"] = spec.figures;
  m["catalogue"] = catalogue_json();
  write_file_atomically(dir / "manifest.json", m.dump(2));
  return summary;
}

}  // namespace geomint
