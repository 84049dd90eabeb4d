// The main() of the catalogue program (tests/catalogue/CMakeLists.txt): gtest's own, with the
// suites' generated cases registered between initialisation and the run.
#include <gtest/gtest.h>

#include "support/catalogue_suites.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  using namespace ::geomint::testing;
  register_declared_order_suite();
  register_declared_structure_suite();
  register_energy_drift_suite();
  register_momentum_maps_suite();
  register_stays_on_manifold_suite();
  return RUN_ALL_TESTS();
}
