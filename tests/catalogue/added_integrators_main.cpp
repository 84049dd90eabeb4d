// The main() of the promise suites of a project outside geomint that adds integrators to its
// catalogue (geomint_add_integrator(), docs/adding-an-integrator.md): installed with geomint and
// compiled in that project, it registers the suites' cases for the added integrators alone, on
// every registry model they run on; geomint's own are checked by geomint's catalogue program.
#include <gtest/gtest.h>

#include "support/catalogue_suites.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::geomint::testing::register_promise_suites(::geomint::testing::Covered::Added);
  return RUN_ALL_TESTS();
}
