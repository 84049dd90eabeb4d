#include "studies/engine.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "models/kernel_threads.hpp"
#include "studies/case_job.hpp"
#include "studies/case_pool.hpp"
#include "studies/output_estimate.hpp"
#include "studies/process_group.hpp"
#include "studies/result_folder.hpp"
#include "studies/study_manifest.hpp"
#include "studies/study_phases.hpp"
#include "studies/study_references.hpp"
#include "studies/study_tables.hpp"

namespace geomint {

namespace fs = std::filesystem;

namespace {

/// The case threads of this process: --jobs, or its share of this machine's cores; and the
/// kernels' threads (models/kernel_threads.hpp): the cores left to each case, at least one.
/// Together they never ask for more threads than the machine has cores (unless --jobs does).
int share_cores(const StudyOptions& options) {
  if (options.jobs < 0 || options.jobs > kMaxJobs)
    throw InputError("jobs = " + std::to_string(options.jobs) + " is outside 0 to " + std::to_string(kMaxJobs) +
                     " worker threads (--jobs; 0: one per hardware thread)");
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  const int processes = processes_on_this_machine();  // on every rank: it asks them all
  const int threads = options.jobs > 0 ? options.jobs : std::max(1, cores / processes);
  set_kernel_threads(std::max(1, cores / (threads * processes)));
  return threads;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

StudySummary run_study(const StudySpec& spec, const StudyOptions& options) {
  const int threads = share_cores(options);
  // Rank 0 takes the folder; if it cannot (bad input, an unwritable --out), every rank stops
  // with it instead of waiting for cases that never come.
  std::optional<ResultFolder> folder;
  on_every_rank([&] {
    if (process_rank() == 0) {
      check_output_estimate(spec);
      folder.emplace(options.out_dir);
    }
    return true;
  });
  const fs::path dir = options.out_dir;
  StudyRunFacts facts;
  facts.started = utc_now();
  facts.wall_start = std::chrono::steady_clock::now();
  const std::map<std::string, ExperimentReference> references =
      shared_references(spec, options, folder ? &*folder : nullptr);
  facts.references_s = seconds_since(facts.wall_start);

  std::vector<Job> jobs = spec_jobs(spec, references, options.timed_seconds);
  const RunCase run_one = job_runner(jobs, dir);
  if (!folder) {  // a worker rank
    serve_cases(threads, run_one);
    return {};
  }
  const std::map<std::string, ErrorScale> error_scales = experiment_error_scales(spec, references);
  StudyPhases phases(spec, error_scales, jobs, *folder, make_case_pool(threads, run_one), options.progress);
  phases.run();

  write_study_tables(dir, spec, phases.records(), error_scales);
  facts.cases_cpu_s = phases.cases_cpu_s();
  facts.threads_per_rank = threads;
  write_manifest(dir, spec, references, phases.records(), phases.summary(), facts);
  return phases.summary();
}

}  // namespace geomint
