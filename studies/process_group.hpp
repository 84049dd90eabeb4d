#pragma once
// The processes a study runs in: this one alone, or the ranks of an MPI job (`mpirun -np K
// geomint study ...`, or srun under SLURM; docs/cluster.md). Rank 0 coordinates: it holds
// the result folder, computes the references and writes every summary file; the other ranks
// run the cases it hands them (studies/case_pool.hpp).
//
// MPI is started only when a launcher started this process (it sets OMPI_COMM_WORLD_SIZE,
// PMIX_RANK or PMI_SIZE): without one, geomint runs as one process, as a build without MPI
// (-DGEOMINT_MPI=OFF) always does.

#include <exception>
#include <optional>
#include <string>

namespace geomint {

/// Starts MPI for the life of the object when a launcher started this process.
class ProcessGroup {
 public:
  ProcessGroup(int& argc, char**& argv);
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;
  ~ProcessGroup();
};

/// This process's rank (0 without MPI) and the number of processes (1 without MPI).
int process_rank();
int process_count();
/// The processes of this job on this machine, which share its cores.
int processes_on_this_machine();

/// Ends every process of the job at once with this exit status (after an error that leaves
/// the others waiting); returns normally when this process is alone.
void abort_process_group(int status);

/// Rank 0's text, on every rank.
void broadcast_from_coordinator(std::string& text);

/// Whether any rank passes true.
bool any_process(bool flag);

/// The exit status an error stands for (cli/main.cpp): 2 bad input, 4 input/output, 1 other.
int exit_status(std::exception_ptr error);

/// An error another rank has already reported: this rank ends with the same exit status and
/// prints nothing.
struct ReportedElsewhere {
  int status;
};

/// load() on every rank, which must all succeed: if one fails, every rank ends, and one
/// reports the error: rank 0's own (the others end with its exit status), else the failing
/// rank's (the others with status 2).
template <class Load>
auto on_every_rank(Load load) -> decltype(load()) {
  if (process_count() == 1) return load();
  std::optional<decltype(load())> value;
  std::exception_ptr error;
  try {
    value.emplace(load());
  } catch (...) {
    error = std::current_exception();
  }
  if (!any_process(error != nullptr)) return std::move(*value);
  std::string root_status = process_rank() == 0 && error ? std::to_string(exit_status(error)) : "0";
  broadcast_from_coordinator(root_status);
  if (error && (process_rank() == 0 || root_status == "0")) std::rethrow_exception(error);
  throw ReportedElsewhere{root_status == "0" ? 2 : std::stoi(root_status)};
}

}  // namespace geomint
