#pragma once
// The study engine: expands a spec into cases, computes each experiment's reference, runs the
// cases on a thread pool, and writes the result directory (docs/result-files.md).
//
// A finished case is written atomically to DIR/cases/<case_id>.json, keyed by a hash of its
// inputs and the code revision, so an interrupted study resumes without redoing or losing
// work; references are cached the same way in DIR/references/.

#include <string>

#include "studies/spec.hpp"

namespace geomint {

/// The most worker threads a study takes: more gain nothing on any machine it runs on, and far
/// more cannot be started (--jobs 100000 ran out of threads); beyond it run_study refuses.
inline constexpr int kMaxJobs = 1024;

struct StudyOptions {
  std::string out_dir;
  int jobs = 0;        // worker threads, 0 to kMaxJobs; 0 = one per hardware thread
  bool progress = true;  // the progress line on stderr (studies/progress_line.hpp)
  /// How long each case's timing repetitions last together (CaseSpec::timed_seconds); the perf
  /// gate sets 0, one timed run, so that its instruction count does not depend on the clock.
  double timed_seconds = 0.01;
};

struct StudySummary {
  int cases = 0, failed = 0, resumed = 0, not_applicable = 0;
  int added = 0;  // of the cases, those the window search added (studies/order_window.hpp)
  std::string first_failure;  // the progress line of the first case that failed, if one did
};

StudySummary run_study(const StudySpec& spec, const StudyOptions& options);

/// A case with global_err < kReferenceMargin * reference_err is flagged below_reference and
/// left out of order fits. The estimate is the difference from a run at ten times looser
/// tolerances, about that run's error and so already some ten times the reference's own.
inline constexpr double kReferenceMargin = 1.0;

}  // namespace geomint
