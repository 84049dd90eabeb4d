// geomint: a verification and benchmarking bench for geometric integrators.
#include <cstdio>
#include <vector>

#include "cli/commands.hpp"
#include "integrators/failure.hpp"
#include "models/parameters.hpp"

int main(int argc, char** argv) {
  CLI::App app{"geomint: geometric integrators on spheres and Lie groups, verified and compared"};
  app.require_subcommand(1);
  std::vector<geomint::cli::Subcommand> commands;
  for (auto add : {geomint::cli::add_list_command, geomint::cli::add_run_command,
                   geomint::cli::add_study_command, geomint::cli::add_matrix_command,
                   geomint::cli::add_report_command})
    commands.push_back(add(app));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    for (const auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const geomint::InputError& e) {
    std::fprintf(stderr, "geomint: %s\n", e.what());
    return 2;
  } catch (const geomint::IntegrationFailure& e) {
    std::fprintf(stderr, "geomint: %s\n", e.what());
    return 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "geomint: internal error: %s\n", e.what());
    return 1;
  }
  return 0;
}
