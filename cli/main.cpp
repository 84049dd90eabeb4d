// geomint: a verification and benchmarking bench for geometric integrators (cli/program.hpp).
// Installed with geomint, for the program a project outside geomint builds with its own
// integrators added (geomint_add_integrator(), docs/adding-an-integrator.md).
#include "cli/program.hpp"

int main(int argc, char** argv) { return geomint::cli::run_program(argc, argv); }
