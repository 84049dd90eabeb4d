#pragma once
// Running one shell command as a child process with limits: a wall-clock timeout (the process
// group is killed when it passes), a cap on the size of any file it writes (RLIMIT_FSIZE: a
// command that writes more is killed by SIGXFSZ), standard input from /dev/null and its
// standard output and error kept in files; its CPU time measured by the kernel (wait4).

#include <cstdint>
#include <filesystem>
#include <string>

namespace geomint {

struct CommandLimits {
  double timeout_s = 600.0;
  std::uint64_t max_file_bytes = 1ull << 30;
};

struct CommandOutcome {
  bool timed_out = false;
  double timeout_s = 0.0;  // the limit it ran into
  int exit_status = -1;  // when it exited
  int signal = 0;        // when a signal killed it
  double cpu_s = 0.0;    // user + system time of the command and the children it waited for
  double wall_s = 0.0;
  std::string stderr_tail;  // the last line it wrote to standard error, on one line, shortened

  bool succeeded() const { return !timed_out && signal == 0 && exit_status == 0; }
  /// What went wrong, in words: "exited with status 1", "was killed by SIGXFSZ (...)", ...
  std::string failure() const;
};

/// Runs `/bin/sh -c command` in `directory`, its standard output and error written to
/// `capture`/stdout and `capture`/stderr; an IoError when it cannot be started.
CommandOutcome run_command(const std::string& command, const std::filesystem::path& directory,
                           const std::filesystem::path& capture, const CommandLimits& limits);

}  // namespace geomint
