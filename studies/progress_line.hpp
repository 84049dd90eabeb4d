#pragma once
// A study's progress on stderr: cases done of all, cases failed, and the time left.
//
// On a terminal it is one line, rewritten in place as cases finish; a failed case also leaves
// a line of its own above it, so that no failure scrolls away. Anywhere else (a log, CI, a pipe)
// it is one line per finished case, carrying the same counts.
//
// The time left is the wall time since the cases started times the ratio of the expected cost
// of the cases still to run to that of the cases run (the schedule's expected costs,
// studies/case_schedule.hpp). The schedule starts the longest cases first, so an early
// estimate errs long. Resumed cases count as done and cost nothing; cases not yet scheduled
// (those that take their step count from another case) are expected at the mean cost of the
// cases run.

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>

namespace geomint {

class ProgressLine {
 public:
  /// `total` cases; `enabled` false prints nothing (--quiet, worker ranks).
  ProgressLine(std::size_t total, bool enabled, std::FILE* out = stderr);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// More cases than the study first had: the window search added them (studies/order_window.hpp).
  void add_cases(std::size_t n) { total_ += n; }
  /// A case is scheduled to run, at this expected cost.
  void expect(double cost) {
    expected_left_ += cost;
    ++pending_;
  }
  /// A case finished: `line` says which and how, `status` is its record's status ("ok", "n/a",
  /// or a failure); `ran_at` the expected cost it was scheduled with, none if it did not run
  /// (resumed, or skipped).
  void finished(const std::string& line, const std::string& status, std::optional<double> ran_at);

  /// The time left as text ("about 3 min 05 s left"), or "" before a case has run.
  std::string time_left() const;

 private:
  std::string counts() const;
  void print_in_place(const std::string& line);

  std::FILE* out_;
  bool enabled_, terminal_;
  std::size_t total_, done_ = 0, failed_ = 0, pending_ = 0, ran_ = 0;
  double expected_left_ = 0.0, expected_done_ = 0.0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool line_open_ = false;
};

/// "3 min 05 s", "1 h 02 min", "42 s".
std::string duration_text(double seconds);

}  // namespace geomint
