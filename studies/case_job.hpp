#pragma once
// A study's case as the engine runs it (a job): the case, its experiment and reference, its
// key; running one records what the experiment measures on it and writes its files and its
// record into the result folder.

#include <cstddef>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/case_pool.hpp"
#include "studies/spec.hpp"
#include "studies/study_references.hpp"

namespace geomint {

struct Job {
  const ExperimentSpec* experiment;
  CaseSpec spec;  // a same_steps_as case gets its h once its source case has run
  const ExperimentReference* reference;
  std::string id;
  std::string cost_key;  // in DIR/costs.json, once its h is known
  std::size_t of;        // the spec's case it runs: itself, or for a step the window search added,
                         // the spec's case of the same integrator and experiment
};

/// The spec's cases as jobs, in the spec's order, each timed for `timed_seconds`.
std::vector<Job> spec_jobs(const StudySpec& spec, const std::map<std::string, ExperimentReference>& references,
                           double timed_seconds);

/// Runs a job's case and writes its files and its record (DIR/cases/<id>.json); returns the
/// record.
nlohmann::json run_job(const Job& job, const std::filesystem::path& dir, bool added_step);

/// Runs a task (the same function on every rank): the spec's case it names at its step size.
RunCase job_runner(const std::vector<Job>& jobs, const std::filesystem::path& dir);

}  // namespace geomint
