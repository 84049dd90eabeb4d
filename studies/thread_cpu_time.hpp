#pragma once
// The CPU time the calling thread has used: what one case costs, whatever else runs beside it.

#include <ctime>

namespace geomint {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace geomint
