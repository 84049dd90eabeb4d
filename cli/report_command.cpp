// geomint report DIR --out DIR: runs the Python report generator (reports/make_report.py)
// on Debian's Python, which is where python3-matplotlib lives.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "cli/commands.hpp"
#include "models/parameters.hpp"
#include "studies/build_info.hpp"
#include "studies/io_error.hpp"

namespace geomint::cli {

namespace {
struct ReportOptions {
  std::string results, out;
};

int run_report(const ReportOptions& o) {
  const std::string script =
      (std::filesystem::path(build_info::kSourceDir) / "reports" / "make_report.py").string();
  if (!std::filesystem::exists(script)) throw InputError("report generator not found: " + script);
  if (!std::filesystem::exists(o.results)) throw InputError(o.results + " does not exist");
  const pid_t pid = fork();
  if (pid == 0) {
    execl(build_info::kPython, build_info::kPython, "-B", script.c_str(), o.results.c_str(),
          "--out", o.out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  if (pid < 0) throw IoError("cannot start the report generator: out of processes");
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status))
    throw std::runtime_error("the report generator was killed by signal " + std::to_string(WTERMSIG(status)));
  if (WEXITSTATUS(status) == 127) throw IoError(std::string("cannot run ") + build_info::kPython);
  return WEXITSTATUS(status);  // 0, 2 or 4, with its one line on stderr (reports/make_report.py)
}
}  // namespace

Subcommand add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand(
      "report", "Write figures (PNG, SVG), an HTML report (index.html) and a Markdown summary "
                "from one result directory or a directory of them");
  cmd->add_option("results", o->results, "a result directory, or a directory of them")->required();
  cmd->add_option("--out", o->out, "report directory")->required();
  return {cmd, [o] { return run_report(*o); }};
}

}  // namespace geomint::cli
