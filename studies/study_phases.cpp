#include "studies/study_phases.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

#include "studies/case_keys.hpp"
#include "studies/case_resume.hpp"
#include "catalogue/integrator_declarations.hpp"
#include "studies/order_window.hpp"
#include "studies/result_files.hpp"

namespace geomint {

namespace {


std::string setting_text(const CaseSpec& c, bool adaptive) {
  char buf[96];
  if (adaptive) std::snprintf(buf, sizeof buf, "rtol = %g, atol = %g", c.rtol, c.atol);
  else std::snprintf(buf, sizeof buf, "h = %g", c.h);
  return buf;
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

}  // namespace

StudyPhases::StudyPhases(const StudySpec& spec, const std::map<std::string, ErrorScale>& error_scales,
                         std::vector<Job>& jobs, const ResultFolder& folder, std::unique_ptr<CasePool> pool,
                         bool progress)
    : spec_(spec),
      error_scales_(error_scales),
      jobs_(jobs),
      folder_(folder),
      pool_(std::move(pool)),
      records_(jobs.size()),
      costs_(folder),
      progress_(jobs.size(), progress),
      expected_cost_(jobs.size(), 0.0) {
  summary_.cases = static_cast<int>(jobs.size());
  for (const auto& ex : spec.experiments) scales_.push_back(step_scale(ex.cases));
}

void StudyPhases::run() {
  try {
    run_phases();
    run_window_search();
  } catch (...) {
    costs_.write(folder_);  // what the finished cases cost, for the run that resumes
    throw;
  }
  costs_.write(folder_);
}

void StudyPhases::finish(std::size_t i, const nlohmann::json& record, bool ran, bool resumed) {
  const std::lock_guard lock(mutex_);
  records_[i] = record;
  records_[i]["added_step"] = jobs_[i].of != i;  // a resumed record may have been added, or not
  summary_.resumed += resumed;
  summary_.failed += record["status"] != "ok" && record["status"] != "n/a";
  summary_.not_applicable += record["status"] == "n/a";
  const CaseSpec& c = jobs_[i].spec;
  char timing[32];
  std::snprintf(timing, sizeof timing, " (%.2f s)", record["cpu_s"].get<double>());
  const std::string status = record["status"].get<std::string>();
  const bool failed = status != "ok" && status != "n/a";  // its line says how: "NonFinite at t = ...: ..."
  const std::string line = c.experiment + " " + c.integrator + " " + setting_text(c, record["adaptive"].get<bool>()) +
                           ": " + (failed ? record["status_detail"].get<std::string>() : status);
  if (failed && summary_.first_failure.empty()) summary_.first_failure = line;
  progress_.finished(line + (resumed ? ", resumed" : ran ? timing : ""),
                     status, ran ? std::optional<double>(expected_cost_[i]) : std::nullopt);
}

void StudyPhases::ran(std::size_t i, const nlohmann::json& record, double cpu_s) {
  finish(i, record, true, false);
  const std::lock_guard lock(mutex_);
  cases_cpu_s_ += cpu_s;
  costs_.record(jobs_[i].cost_key, cpu_s);
}

// The cases of `todo` that an earlier run finished are taken from it; the others run,
// longest expected first.
void StudyPhases::run_cases(const std::vector<std::size_t>& todo) {
  std::vector<std::size_t> to_run;
  for (std::size_t i : todo) {
    Job& job = jobs_[i];
    job.id = case_id(job.spec, *job.experiment);
    if (const auto saved = resumed_record(job, folder_)) finish(i, *saved, false, true);
    else to_run.push_back(i);
  }
  pool_->run(scheduled(to_run),
             [this](std::size_t i, const nlohmann::json& record, double cpu_s) { ran(i, record, cpu_s); });
}

/// The tasks of the cases to run, longest expected first, each expected on the progress line.
std::vector<CaseTask> StudyPhases::scheduled(const std::vector<std::size_t>& to_run) {
  std::vector<double> expected;
  std::vector<std::optional<double>> recorded;
  for (std::size_t i : to_run) {
    Job& job = jobs_[i];
    const auto experiment = static_cast<std::size_t>(job.experiment - spec_.experiments.data());
    const Declaration* declaration = find_integrator_declaration(job.spec.integrator);
    expected.push_back(expected_steps(job.spec, scales_[experiment], declaration ? declaration->order : 2));
    job.cost_key = cost_key(job.spec);
    recorded.push_back(costs_.find(job.cost_key));
  }
  const std::vector<double> cost = expected_costs(expected, recorded);
  std::vector<CaseTask> tasks;
  for (std::size_t k : longest_first(cost)) {
    tasks.push_back({to_run[k], jobs_[to_run[k]].of, jobs_[to_run[k]].spec.h});
    expected_cost_[to_run[k]] = cost[k];
    progress_.expect(cost[k]);
  }
  return tasks;
}

// Cases whose step count comes from another case run after the others.
void StudyPhases::run_phases() {
  std::vector<std::size_t> first, second;
  for (std::size_t i = 0; i < jobs_.size(); ++i) (jobs_[i].spec.same_steps_as ? second : first).push_back(i);
  run_cases(first);
  take_source_steps(second, first);
  std::erase_if(second, [&](std::size_t i) { return std::isnan(jobs_[i].spec.h); });
  run_cases(second);
}

/// Each same_steps_as case of `second` takes its h from its source's steps among `first`; one
/// whose source did not finish is skipped.
void StudyPhases::take_source_steps(const std::vector<std::size_t>& second, const std::vector<std::size_t>& first) {
  for (std::size_t i : second) {
    CaseSpec& c = jobs_[i].spec;
    const auto& of = *c.same_steps_as;
    for (std::size_t j : first) {
      const CaseSpec& src = jobs_[j].spec;
      if (src.experiment != c.experiment || src.integrator != of.integrator || src.rtol != of.rtol ||
          src.atol != of.atol || records_[j]["status"] != "ok")
        continue;
      c.h = c.T / records_[j]["steps"].get<double>();
    }
    if (std::isnan(c.h)) {  // the source did not finish: nothing to take the step count from
      CaseResult skipped;
      skipped.status = "skipped";
      skipped.detail = "skipped: " + of.integrator + " (the source of its step count) did not finish";
      jobs_[i].id = case_id(c, *jobs_[i].experiment);
      finish(i, case_record(jobs_[i].id, c, skipped, kNaN, false), false, false);
    }
  }
}

// Where an order finds no asymptotic window, the step sizes the window search adds, a round
// at a time (each depends on the errors of the last), until none is wanted.
void StudyPhases::run_window_search() {
  for (;;) {
    const std::vector<std::size_t> added = add_window_steps();
    if (added.empty()) return;
    records_.resize(jobs_.size());
    expected_cost_.resize(jobs_.size(), 0.0);
    summary_.cases += static_cast<int>(added.size());
    summary_.added += static_cast<int>(added.size());
    progress_.add_cases(added.size());
    run_cases(added);
  }
}

/// The jobs of the window search's next round, added to the jobs; their indices.
std::vector<std::size_t> StudyPhases::add_window_steps() {
  const std::vector<PairConvergence> pairs = measure_convergence(spec_, records_, error_scales_);
  std::vector<std::size_t> added;
  for (const auto& pair : pairs) {
    const double h = next_step_to_add(pair, spec_);
    if (std::isnan(h)) continue;
    const auto source = std::find_if(jobs_.begin(), jobs_.end(), [&](const Job& j) {
      return j.experiment == pair.experiment && j.spec.integrator == pair.integrator && !std::isnan(j.spec.h);
    });
    Job job = *source;
    job.spec.h = h;
    job.of = static_cast<std::size_t>(source - jobs_.begin());
    added.push_back(jobs_.size());
    jobs_.push_back(job);
  }
  return added;
}

}  // namespace geomint
