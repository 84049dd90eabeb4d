#pragma once
// How many threads one evaluation of a model's kernel may use (today: the Lennard-Jones pair
// sum, models/lennard_jones_pairs.hpp), one setting for the whole process.
//
// The contract: whoever runs several evaluations at once sets it so that the machine is not
// oversubscribed. The study engine, running cases on W worker threads of a machine with C
// cores, sets it to max(1, C / W) before starting them; a program that runs one case at a
// time leaves the default, all of the machine's cores (std::thread::hardware_concurrency()).
// With 1 a kernel starts no thread. A kernel may use fewer threads than this where the work is
// too small to share; its results never depend on the count (each kernel's decomposition into
// tasks and its order of summation are fixed, whatever runs them).
//
// Reading and setting are thread-safe; a kernel reads the setting once per evaluation, so a
// change applies to the evaluations that start after it.

namespace geomint {

/// The threads a kernel may use, >= 1.
int kernel_threads();

/// Sets kernel_threads() to `threads` (>= 1, else InputError).
void set_kernel_threads(int threads);

/// Sets kernel_threads() for one scope (a test, a benchmark entry), and restores it.
class ScopedKernelThreads {
 public:
  explicit ScopedKernelThreads(int threads) : saved_(kernel_threads()) { set_kernel_threads(threads); }
  ~ScopedKernelThreads() { set_kernel_threads(saved_); }
  ScopedKernelThreads(const ScopedKernelThreads&) = delete;
  ScopedKernelThreads& operator=(const ScopedKernelThreads&) = delete;

 private:
  int saved_;
};

}  // namespace geomint
