#pragma once
// The phases in which rank 0 runs a study's cases: first the cases with a step size of their
// own, then those whose step count comes from another case (same_steps_as), then, a round at
// a time, the steps the order window search adds (studies/order_window.hpp). In each, the
// cases an earlier run finished are resumed (studies/case_resume.hpp) and the others run on
// the pool, longest expected first (studies/case_schedule.hpp).

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/case_job.hpp"
#include "studies/case_pool.hpp"
#include "studies/case_schedule.hpp"
#include "studies/convergence.hpp"
#include "studies/engine.hpp"
#include "studies/progress_line.hpp"
#include "studies/result_folder.hpp"

namespace geomint {

class StudyPhases {
 public:
  /// Runs `jobs` (the spec's, to which the window search adds its own) on `pool`; `jobs` is
  /// the vector the pool's RunCase reads the spec's cases from.
  StudyPhases(const StudySpec& spec, const std::map<std::string, ErrorScale>& error_scales,
              std::vector<Job>& jobs, const ResultFolder& folder, std::unique_ptr<CasePool> pool,
              bool progress);

  /// Runs every phase; what the finished cases cost is written to DIR/costs.json either way,
  /// for the run that resumes.
  void run();

  /// Each case's record, in the order of the jobs.
  const std::vector<nlohmann::json>& records() const { return records_; }
  const StudySummary& summary() const { return summary_; }
  /// The CPU time of the cases this run ran (not resumed ones).
  double cases_cpu_s() const { return cases_cpu_s_; }

 private:
  void finish(std::size_t i, const nlohmann::json& record, bool ran, bool resumed);
  void ran(std::size_t i, const nlohmann::json& record, double cpu_s);
  void run_cases(const std::vector<std::size_t>& todo);
  std::vector<CaseTask> scheduled(const std::vector<std::size_t>& to_run);
  void run_phases();
  void take_source_steps(const std::vector<std::size_t>& second, const std::vector<std::size_t>& first);
  void run_window_search();
  std::vector<std::size_t> add_window_steps();

  const StudySpec& spec_;
  const std::map<std::string, ErrorScale>& error_scales_;
  std::vector<Job>& jobs_;
  const ResultFolder& folder_;
  std::unique_ptr<CasePool> pool_;
  std::vector<nlohmann::json> records_;
  StudySummary summary_;
  RecordedCosts costs_;
  double cases_cpu_s_ = 0.0;
  std::mutex mutex_;
  ProgressLine progress_;
  std::vector<double> expected_cost_;  // of the cases that run, as scheduled
  std::vector<double> scales_;         // per experiment, for the expected costs
};

}  // namespace geomint
