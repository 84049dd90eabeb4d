#pragma once
// Runs a study's cases: on a pool of threads in this process, or, in an MPI job
// (studies/process_group.hpp), on every rank's threads with rank 0 handing out the cases.
//
// Scheduling is dynamic: a thread takes the next case when it is free, in the order given
// (longest expected first, studies/case_schedule.hpp), so the long cases start at once and
// the short ones fill in around them. Under MPI a worker rank's thread asks rank 0 for its
// next case and sends back the finished case's record; the case's files it writes itself, to
// the result folder every rank sees (docs/cluster.md). Only rank 0 keeps the records.

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

namespace geomint {

/// A case to run: its index among the study's cases (as rank 0 counts them), the index of the
/// spec's case it runs (every rank expands the spec the same way), and the step size it takes:
/// a same_steps_as case gets its own only once its source has run, and a case the order window
/// search adds (studies/order_window.hpp) is a spec case at a step the spec does not list.
struct CaseTask {
  std::size_t index;
  std::size_t of;
  double h;
};

/// Runs one case and returns its record; the same function on every rank.
using RunCase = std::function<nlohmann::json(const CaseTask&)>;
/// Called on rank 0 (from any of its threads, one call at a time) as each case ends, with its
/// record and the CPU time its thread spent on it.
using CaseFinished = std::function<void(std::size_t index, const nlohmann::json& record, double cpu_s)>;

class CasePool {
 public:
  virtual ~CasePool() = default;
  /// Runs the tasks, started in the order given, and returns when all have finished; after a
  /// case throws, starts no other, lets the running ones finish and rethrows the first error.
  virtual void run(const std::vector<CaseTask>& tasks, const CaseFinished& finished) = 0;
};

/// On rank 0 (or alone): `threads` threads of this process, plus every other rank's.
/// Destroying it lets the other ranks' serve_cases return.
std::unique_ptr<CasePool> make_case_pool(int threads, RunCase run);

/// On a rank other than 0: runs the cases rank 0 hands out, on `threads` threads, until rank 0
/// destroys its pool.
void serve_cases(int threads, const RunCase& run);

}  // namespace geomint
