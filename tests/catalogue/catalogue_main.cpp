// The main() of the catalogue program (tests/catalogue/CMakeLists.txt): gtest's own, with the
// suites' generated cases registered, for every integrator of the catalogue, between
// initialisation and the run.
#include <gtest/gtest.h>

#include "support/catalogue_suites.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::geomint::testing::register_promise_suites(::geomint::testing::Covered::Catalogue);
  return RUN_ALL_TESTS();
}
