#include "models/kernel_threads.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>

#include "models/parameters.hpp"

namespace geomint {

namespace {

std::atomic<int>& setting() {
  static std::atomic<int> threads{
      std::max(1, static_cast<int>(std::thread::hardware_concurrency()))};
  return threads;
}

}  // namespace

int kernel_threads() { return setting().load(std::memory_order_relaxed); }

void set_kernel_threads(int threads) {
  if (threads < 1)
    throw InputError("set_kernel_threads: at least 1 thread, got " + std::to_string(threads));
  setting().store(threads, std::memory_order_relaxed);
}

}  // namespace geomint
