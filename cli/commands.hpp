#pragma once
// The geomint subcommands. Each registers its options on the CLI11 app and returns the
// function that runs it; a bad input is an InputError (one line, exit status 2).

#include <CLI/CLI.hpp>
#include <functional>

namespace geomint::cli {

struct Subcommand {
  CLI::App* app;            // the parsed options live in state the `run` closure owns
  std::function<int()> run;
};

Subcommand add_list_command(CLI::App& app);
Subcommand add_run_command(CLI::App& app);
Subcommand add_study_command(CLI::App& app);
Subcommand add_report_command(CLI::App& app);
Subcommand add_matrix_command(CLI::App& app);
Subcommand add_evoke_command(CLI::App& app);
Subcommand add_verify_command(CLI::App& app);

}  // namespace geomint::cli
