#pragma once
// The catalogue suites (tests/support/catalogue_cases.hpp), each a compiled source of its own in
// the promise-suites library (tests/catalogue/CMakeLists.txt): each registers its cases on every
// registry model for the integrators it covers. geomint's catalogue program
// (tests/catalogue/catalogue_main.cpp) covers the whole catalogue; a project outside geomint
// covers the integrators it added (tests/catalogue/added_integrators_main.cpp).

#include "support/catalogue_cases.hpp"

namespace geomint::testing {

void register_declared_order_suite(Covered covered);       // tests/order/test_order.cpp
void register_declared_structure_suite(Covered covered);   // tests/conservation/test_declared_structure.cpp
void register_energy_drift_suite(Covered covered);         // tests/conservation/test_energy_drift.cpp
void register_momentum_maps_suite(Covered covered);        // tests/conservation/test_momentum_maps.cpp
void register_stays_on_manifold_suite(Covered covered);    // tests/manifold/test_stays_on_manifold.cpp
void register_long_time_promises_suite(Covered covered);   // tests/conservation/test_long_time_promises.cpp

/// Every suite's cases for the integrators `covered`, between gtest's initialisation and its run.
inline void register_promise_suites(Covered covered) {
  register_declared_order_suite(covered);
  register_declared_structure_suite(covered);
  register_energy_drift_suite(covered);
  register_momentum_maps_suite(covered);
  register_stays_on_manifold_suite(covered);
  register_long_time_promises_suite(covered);
}

}  // namespace geomint::testing
