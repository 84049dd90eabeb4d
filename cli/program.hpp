#pragma once
// The geomint program: its subcommands (cli/commands.hpp) parsed from the command line and run.
// A library of its own (geomint_cli), so that a project that adds integrators to an installed
// geomint's catalogue builds the same program with them (docs/adding-an-integrator.md).
//
// Exit status (README "Exit status"): 0 done, every number written; 2 bad input, one line
// naming it, nothing written; 3 an integration failure, one line with its type, time and
// step, the output up to it kept; 4 an input/output failure, the path named; 5 (`verify`) a
// declared promise broken. Any other status is a bug in geomint (1: an unexpected exception,
// reported as such).

namespace geomint::cli {

/// The whole program on main()'s arguments; returns its exit status.
int run_program(int argc, char** argv);

}  // namespace geomint::cli
