#include "studies/command_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include "errors/exit_status_errors.hpp"

extern char** environ;

namespace geomint {

namespace {

double seconds(const timeval& tv) { return static_cast<double>(tv.tv_sec) + 1e-6 * static_cast<double>(tv.tv_usec); }

/// The last non-empty line of a file, control characters as blanks, at most 200 characters.
std::string last_line(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return {};
  const std::streamoff size = in.tellg();
  const std::streamoff from = std::max<std::streamoff>(0, size - 4096);
  in.seekg(from);
  std::string tail((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r' || tail.back() == ' ')) tail.pop_back();
  const std::size_t newline = tail.find_last_of('\n');
  std::string line = newline == std::string::npos ? tail : tail.substr(newline + 1);
  for (char& c : line)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  if (line.size() > 200) line = line.substr(0, 197) + "...";
  return line;
}

int open_or_throw(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error("open", path.string());
  return fd;
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", s);
  return buf;
}

}  // namespace

std::string CommandOutcome::failure() const {
  std::string what;
  if (timed_out) what = "ran longer than its timeout of " + format_seconds(timeout_s) + " s and was killed";
  else if (signal == SIGXFSZ) what = "was killed by SIGXFSZ: it wrote past the limit on a file's size";
  else if (signal != 0) what = "was killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  else what = "exited with status " + std::to_string(exit_status);
  if (!stderr_tail.empty()) what += "; its last words on stderr: " + stderr_tail;
  return what;
}

CommandOutcome run_command(const std::string& command, const std::filesystem::path& directory,
                           const std::filesystem::path& capture, const CommandLimits& limits) {
  // Everything the child needs is made before fork(): after it, in a threaded process, the
  // child may only make system calls until it execs.
  const int in = open_or_throw("/dev/null", O_RDONLY);
  const int out = open_or_throw(capture / "stdout", O_WRONLY | O_CREAT | O_TRUNC);
  const int err = open_or_throw(capture / "stderr", O_WRONLY | O_CREAT | O_TRUNC);
  const std::string dir = directory.string();
  const char* argv[] = {"sh", "-c", command.c_str(), nullptr};
  rlimit fsize{};
  fsize.rlim_cur = fsize.rlim_max = static_cast<rlim_t>(limits.max_file_bytes);
  sigset_t none;
  sigemptyset(&none);

  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(in), ::close(out), ::close(err);
    throw io_error("start the command in", dir, error);
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // its own process group, so that a timeout kills what it started too
    ::signal(SIGPIPE, SIG_DFL);  // geomint ignores it; the command should not inherit that
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::setrlimit(RLIMIT_FSIZE, &fsize);
    if (::chdir(dir.c_str()) != 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(err, 2) < 0) ::_exit(126);
    ::execve("/bin/sh", const_cast<char* const*>(argv), environ);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: the kill below must not race the child's own setpgid
  ::close(in), ::close(out), ::close(err);

  CommandOutcome outcome;
  outcome.timeout_s = limits.timeout_s;
  int status = 0;
  rusage usage{};
  const auto deadline = start + std::chrono::duration<double>(limits.timeout_s);
  auto pause = std::chrono::microseconds(200);
  for (;;) {
    const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) throw io_error("wait for the command in", dir);
    if (std::chrono::steady_clock::now() >= deadline) {
      ::kill(-pid, SIGKILL);
      while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
      }
      outcome.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  ::kill(-pid, SIGKILL);  // what it left running in the background
  outcome.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  outcome.cpu_s = seconds(usage.ru_utime) + seconds(usage.ru_stime);
  if (!outcome.timed_out) {
    if (WIFEXITED(status)) outcome.exit_status = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) outcome.signal = WTERMSIG(status);
  }
  outcome.stderr_tail = last_line(capture / "stderr");
  return outcome;
}

}  // namespace geomint
