#include "studies/process_group.hpp"

#include <cstdlib>

#include "errors/exit_status_errors.hpp"

#if GEOMINT_MPI
#include <mpi.h>
#endif

namespace geomint {

namespace {

#if GEOMINT_MPI
bool launched_by_mpi() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"})
    if (std::getenv(name)) return true;
  return false;
}

bool mpi_running() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}
#endif

}  // namespace

int exit_status(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const InputError&) {
    return 2;
  } catch (const IoError&) {
    return 4;
  } catch (const ReportedElsewhere& e) {
    return e.status;
  } catch (...) {
    return 1;
  }
}

#if GEOMINT_MPI

ProcessGroup::ProcessGroup(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  int provided = 0;
  // Only the thread that started MPI calls it (studies/case_pool.cpp).
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
}

ProcessGroup::~ProcessGroup() {
  if (mpi_running()) MPI_Finalize();
}

int process_rank() {
  int rank = 0;
  if (mpi_running()) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int process_count() {
  int size = 1;
  if (mpi_running()) MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int processes_on_this_machine() {
  if (!mpi_running()) return 1;
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int size = 1;
  MPI_Comm_size(node, &size);
  MPI_Comm_free(&node);
  return size;
}

void abort_process_group(int status) {
  if (process_count() > 1) MPI_Abort(MPI_COMM_WORLD, status);
}

void broadcast_from_coordinator(std::string& text) {
  if (process_count() == 1) return;
  unsigned long long size = text.size();
  MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  text.resize(size);
  MPI_Bcast(text.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD);
}

bool any_process(bool flag) {
  if (process_count() == 1) return flag;
  int mine = flag, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  return any != 0;
}

#else

ProcessGroup::ProcessGroup(int&, char**&) {}
ProcessGroup::~ProcessGroup() = default;
int process_rank() { return 0; }
int process_count() { return 1; }
int processes_on_this_machine() { return 1; }
void abort_process_group(int) {}
void broadcast_from_coordinator(std::string&) {}
bool any_process(bool flag) { return flag; }

#endif

}  // namespace geomint
