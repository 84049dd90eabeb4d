#include "cli/program.hpp"

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "errors/exit_status_errors.hpp"
#include "studies/process_group.hpp"

namespace {

/// CLI11's message for a parse error, as one line, with the subcommand's --help named; when
/// no subcommand was recognised, the word that should have been one.
std::string parse_error_line(const CLI::ParseError& e, const CLI::App& app, int argc, char** argv) {
  std::string what = e.what();
  if (app.get_subcommands().empty() && argc > 1) {
    std::string known;
    for (const auto* sub : app.get_subcommands({})) known += (known.empty() ? "" : ", ") + sub->get_name();
    what = std::string(argv[1][0] == '-' ? "unknown option '" : "unknown subcommand '") + argv[1] +
           "' (the subcommands are " + known + ")";
  }
  for (char& c : what)
    if (c == '\n') c = ' ';
  std::string help = "geomint --help";
  for (const auto* sub : app.get_subcommands()) help = "geomint " + sub->get_name() + " --help";
  return what + " (see " + help + ")";
}

int fail(int status, const char* what) {
  std::fprintf(stderr, "geomint: %s\n", what);
  return status;
}

}  // namespace

int geomint::cli::run_program(int argc, char** argv) {
  const geomint::ProcessGroup processes(argc, argv);  // MPI, under mpirun or srun
  // A closed pipe on standard output is then a failed write (exit 4), not a silent death.
  std::signal(SIGPIPE, SIG_IGN);
  CLI::App app{"geomint: geometric integrators on spheres and Lie groups, verified and compared"};
  app.footer(
      "Exit status: 0 done, every number written; 2 bad input (one line naming it; nothing "
      "written or truncated); 3 an integration failure (one line with its type, time and step; "
      "the output up to it kept); 4 an input/output failure (disk full, unwritable path); 5 (verify) a "
      "declared promise broken.");
  app.require_subcommand(1);
  std::vector<geomint::cli::Subcommand> commands;
  for (auto add : {geomint::cli::add_list_command, geomint::cli::add_run_command,
                   geomint::cli::add_study_command, geomint::cli::add_matrix_command,
                   geomint::cli::add_report_command, geomint::cli::add_evoke_command,
                   geomint::cli::add_verify_command})
    commands.push_back(add(app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(2, parse_error_line(e, app, argc, argv).c_str());
  }
  try {
    for (const auto& c : commands)
      if (c.app->parsed()) {
        const int status = c.run();
        // What `list` (or `run` without --out) printed must have reached its destination.
        if (std::fflush(stdout) != 0 || std::ferror(stdout))
          throw geomint::io_error("write", "standard output");
        return status;
      }
  } catch (const geomint::ReportedElsewhere& e) {
    return e.status;
  } catch (const geomint::InputError& e) {
    return fail(2, e.what());
  } catch (const geomint::IntegrationFailure& e) {
    return fail(3, e.what());
  } catch (const geomint::IoError& e) {
    return fail(4, e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    return fail(4, e.what());
  } catch (const std::bad_alloc&) {
    return fail(4, "out of memory");
  } catch (const std::exception& e) {
    return fail(1, (std::string("internal error (a bug in geomint, please report it): ") + e.what()).c_str());
  }
  return 0;
}
