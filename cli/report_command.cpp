// geomint report DIR --out DIR: runs the Python report generator (reports/make_report.py).
#include <filesystem>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/python_script.hpp"
#include "errors/exit_status_errors.hpp"

namespace geomint::cli {

namespace {
struct ReportOptions {
  std::string results, out;
};

int run_report(const ReportOptions& o) {
  if (!std::filesystem::exists(o.results)) throw InputError(o.results + " does not exist");
  // 0, 2 or 4, with its one line on stderr (reports/make_report.py)
  return run_report_script("make_report.py", {o.results, "--out", o.out});
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
