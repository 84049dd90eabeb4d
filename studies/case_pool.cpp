#include "studies/case_pool.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "errors/exit_status_errors.hpp"
#include "studies/process_group.hpp"
#include "studies/thread_cpu_time.hpp"

#if GEOMINT_MPI
#include <mpi.h>
#endif

namespace geomint {

namespace {

/// Hands out the tasks in order, to any thread; after an error, none.
class Dispenser {
 public:
  explicit Dispenser(const std::vector<CaseTask>& tasks) : tasks_(tasks) {}

  std::optional<CaseTask> take() {
    const std::lock_guard lock(mutex_);
    if (error_ || next_ == tasks_.size()) return std::nullopt;
    return tasks_[next_++];
  }

  /// Keeps the first error; no task is handed out after it.
  void fail(std::exception_ptr error) {
    const std::lock_guard lock(mutex_);
    if (!error_) error_ = std::move(error);
  }

  void rethrow_error() const {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  const std::vector<CaseTask>& tasks_;
  std::mutex mutex_;
  std::size_t next_ = 0;
  std::exception_ptr error_;
};

/// Runs tasks from the dispenser on this thread until there are none.
void work(Dispenser& dispenser, const RunCase& run, const CaseFinished& finished) {
  while (const auto task = dispenser.take()) {
    try {
      const double start = thread_cpu_seconds();
      const nlohmann::json record = run(*task);
      finished(task->index, record, thread_cpu_seconds() - start);
    } catch (...) {
      dispenser.fail(std::current_exception());
    }
  }
}

class ThreadPool final : public CasePool {
 public:
  ThreadPool(int threads, RunCase run) : threads_(threads), run_(std::move(run)) {}

  void run(const std::vector<CaseTask>& tasks, const CaseFinished& finished) override {
    Dispenser dispenser(tasks);
    {
      std::vector<std::jthread> pool;
      for (int t = 0; t < threads_; ++t) pool.emplace_back([&] { work(dispenser, run_, finished); });
    }
    dispenser.rethrow_error();
  }

 private:
  int threads_;
  RunCase run_;
};

#if GEOMINT_MPI

// ---- Under MPI ------------------------------------------------------------------------------
//
// Messages between a worker rank's thread and rank 0 (MPI_BYTE; only each rank's main thread
// calls MPI, MPI_THREAD_FUNNELED). Every message a worker sends asks for its next case, and
// rank 0 answers each with one case or with "stop": a worker sends one request per thread,
// then one result (or error) per case, and is done when each thread has had its stop.
enum Tag : int {
  kRequest = 1,  // (empty)
  kResult,       // index (8 bytes), CPU seconds (8 bytes), the record as JSON text
  kError,        // exit status (4 bytes), the message
  kAssign,       // index (8 bytes), the spec's case (8 bytes), h (8 bytes)
  kStop,         // (empty)
};

constexpr auto kPoll = std::chrono::microseconds(200);  // between looks at an idle channel

template <class T>
void append(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}
template <class T>
T read_at(const std::string& bytes, std::size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

void send(const std::string& bytes, int to, Tag tag) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

struct Message {
  int from, tag;
  std::string bytes;
};

/// The next message from `from` (MPI_ANY_SOURCE: anyone), if one has arrived.
std::optional<Message> poll(int from) {
  int arrived = 0;
  MPI_Status status;
  MPI_Iprobe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &arrived, &status);
  if (!arrived) return std::nullopt;
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  Message m{status.MPI_SOURCE, status.MPI_TAG, std::string(static_cast<std::size_t>(size), '\0')};
  MPI_Recv(m.bytes.data(), size, MPI_BYTE, m.from, m.tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

std::string message_of(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an unknown error";
  }
}

/// A worker rank's error, rethrown on rank 0 as the same kind.
std::exception_ptr error_from(const Message& m) {
  const int status = read_at<int>(m.bytes, 0);
  const std::string what = "rank " + std::to_string(m.from) + ": " + m.bytes.substr(sizeof(int));
  if (status == 2) return std::make_exception_ptr(InputError(what));
  if (status == 4) return std::make_exception_ptr(IoError(what));
  return std::make_exception_ptr(std::runtime_error(what));
}

/// Rank 0: its own threads take tasks from the dispenser, and its main thread hands them to
/// the other ranks' threads as they ask.
class CoordinatorPool final : public CasePool {
 public:
  CoordinatorPool(int threads, RunCase run) : threads_(threads), run_(std::move(run)) {
    std::vector<int> threads_of(static_cast<std::size_t>(process_count()));
    MPI_Gather(&threads, 1, MPI_INT, threads_of.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (std::size_t r = 1; r < threads_of.size(); ++r) remote_threads_ += threads_of[r];
  }

  /// Answers every request still to come with "stop".
  ~CoordinatorPool() override {
    while (stopped_ < remote_threads_) {
      if (!waiting_.empty()) {
        send({}, waiting_.front(), kStop);
        waiting_.pop_front();
        ++stopped_;
      } else if (const auto m = poll(MPI_ANY_SOURCE)) {
        waiting_.push_back(m->from);  // a first request: nothing runs any more
      } else {
        std::this_thread::sleep_for(kPoll);
      }
    }
  }

  void run(const std::vector<CaseTask>& tasks, const CaseFinished& finished) override {
    Dispenser dispenser(tasks);
    std::atomic<int> working{threads_};
    std::vector<std::jthread> pool;
    for (int t = 0; t < threads_; ++t)
      pool.emplace_back([&] {
        work(dispenser, run_, finished);
        --working;
      });
    int running_elsewhere = 0;
    const auto hand_out = [&](int to) {
      if (const auto task = dispenser.take()) {
        std::string bytes;
        append(bytes, static_cast<std::uint64_t>(task->index));
        append(bytes, static_cast<std::uint64_t>(task->of));
        append(bytes, task->h);
        send(bytes, to, kAssign);
        ++running_elsewhere;
      } else {
        waiting_.push_back(to);
      }
    };
    for (std::size_t n = waiting_.size(); n > 0; --n) {  // those that asked during the last run
      const int to = waiting_.front();
      waiting_.pop_front();
      hand_out(to);
    }
    while (working > 0 || running_elsewhere > 0) {
      const auto m = poll(MPI_ANY_SOURCE);
      if (!m) {
        std::this_thread::sleep_for(kPoll);
        continue;
      }
      if (m->tag == kResult) {
        --running_elsewhere;
        try {
          const auto index = static_cast<std::size_t>(read_at<std::uint64_t>(m->bytes, 0));
          finished(index, nlohmann::json::parse(m->bytes.substr(16)), read_at<double>(m->bytes, 8));
        } catch (...) {
          dispenser.fail(std::current_exception());
        }
      } else if (m->tag == kError) {
        --running_elsewhere;
        dispenser.fail(error_from(*m));
      }
      hand_out(m->from);
    }
    pool.clear();
    dispenser.rethrow_error();
  }

 private:
  int threads_;
  RunCase run_;
  int remote_threads_ = 0;
  int stopped_ = 0;
  std::deque<int> waiting_;  // ranks (one entry per thread) that asked and got nothing yet
};

/// What a worker rank's threads share with its main thread.
struct WorkerState {
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<std::optional<CaseTask>> inbox;  // nullopt: stop
  std::deque<std::pair<Tag, std::string>> outbox;
};

void worker_thread(WorkerState& s, const RunCase& run) {
  for (;;) {
    std::optional<CaseTask> task;
    {
      std::unique_lock lock(s.mutex);
      s.ready.wait(lock, [&] { return !s.inbox.empty(); });
      task = s.inbox.front();
      s.inbox.pop_front();
    }
    if (!task) return;
    std::string bytes;
    Tag tag = kResult;
    try {
      const double start = thread_cpu_seconds();
      const std::string record = run(*task).dump();
      append(bytes, static_cast<std::uint64_t>(task->index));
      append(bytes, thread_cpu_seconds() - start);
      bytes += record;
    } catch (...) {
      tag = kError;
      bytes.clear();
      append(bytes, exit_status(std::current_exception()));
      bytes += message_of(std::current_exception());
    }
    const std::lock_guard lock(s.mutex);
    s.outbox.emplace_back(tag, std::move(bytes));
  }
}

#endif

}  // namespace

std::unique_ptr<CasePool> make_case_pool(int threads, RunCase run) {
#if GEOMINT_MPI
  if (process_count() > 1) return std::make_unique<CoordinatorPool>(threads, std::move(run));
#endif
  return std::make_unique<ThreadPool>(threads, std::move(run));
}

void serve_cases([[maybe_unused]] int threads, [[maybe_unused]] const RunCase& run) {
#if GEOMINT_MPI
  MPI_Gather(&threads, 1, MPI_INT, nullptr, 0, MPI_INT, 0, MPI_COMM_WORLD);
  WorkerState s;
  std::vector<std::jthread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] { worker_thread(s, run); });
    send({}, 0, kRequest);
  }
  for (int alive = threads; alive > 0;) {
    std::deque<std::pair<Tag, std::string>> outgoing;
    {
      const std::lock_guard lock(s.mutex);
      outgoing.swap(s.outbox);
    }
    for (const auto& [tag, bytes] : outgoing) send(bytes, 0, tag);
    const auto m = poll(0);
    if (!m) {
      std::this_thread::sleep_for(kPoll);
      continue;
    }
    std::optional<CaseTask> task;
    if (m->tag == kAssign)
      task = CaseTask{static_cast<std::size_t>(read_at<std::uint64_t>(m->bytes, 0)),
                      static_cast<std::size_t>(read_at<std::uint64_t>(m->bytes, 8)), read_at<double>(m->bytes, 16)};
    else
      --alive;
    {
      const std::lock_guard lock(s.mutex);
      s.inbox.push_back(task);
    }
    s.ready.notify_one();
  }
#endif
}

}  // namespace geomint
