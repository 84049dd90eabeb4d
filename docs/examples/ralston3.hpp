#pragma once
// The example of docs/adding-an-integrator.md: Ralston's third-order Runge-Kutta method
// (Ralston 1962, the one of least error bound), as a tableau and a declaration. To put it on
// the bench, move it to integrators/classical_methods.hpp and add the line
//   ExplicitRkEntry<Ralston3Method>,
// to ClassicalEntries in catalogue/families/classical.hpp.
// tests/unit/studies/test_documented_examples.cpp compiles it and fits its order, as the typed
// suites would.
//
//   0   |
//   1/2 | 1/2
//   3/4 | 0    3/4
//   ----+---------------
//       | 2/9  1/3  4/9

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"

namespace geomint {

inline constexpr ButcherTableau<3> kRalston3Tableau{
    .a = {{{0, 0, 0}, {0.5, 0, 0}, {0, 0.75, 0}}},
    .b = {2.0 / 9, 1.0 / 3, 4.0 / 9},
    .c = {0.0, 0.5, 0.75}};

struct Ralston3Method {
  static constexpr auto& tableau = kRalston3Tableau;
  static constexpr bool kReproject = false;
  static constexpr Declaration declaration{
      .name = "ralston3",
      .description = "Ralston's third-order Runge-Kutta method",
      .family = Family::Classical, .order = 3};
};

}  // namespace geomint
