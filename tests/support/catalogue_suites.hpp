#pragma once
// The catalogue suites (tests/support/catalogue_cases.hpp), each a compiled source of its own in
// the catalogue program (tests/catalogue/CMakeLists.txt): each registers its cases on every
// registry model; the program's main() (tests/catalogue/catalogue_main.cpp) calls them all.

namespace geomint::testing {

void register_declared_order_suite();       // tests/order/test_order.cpp
void register_declared_structure_suite();   // tests/conservation/test_declared_structure.cpp
void register_energy_drift_suite();         // tests/conservation/test_energy_drift.cpp
void register_momentum_maps_suite();        // tests/conservation/test_momentum_maps.cpp
void register_stays_on_manifold_suite();    // tests/manifold/test_stays_on_manifold.cpp

}  // namespace geomint::testing
