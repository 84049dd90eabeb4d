// The main() of the catalogue program (tests/catalogue/CMakeLists.txt): gtest's own, with the
// suites' generated cases registered between initialisation and the run.
#include <gtest/gtest.h>

#include "support/catalogue_cases.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (auto* register_suite : ::geomint::testing::catalogue_suites()) register_suite();
  return RUN_ALL_TESTS();
}
