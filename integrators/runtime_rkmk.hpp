#pragma once
// An RKMK method whose Butcher tableau is data given at run time (a method a study spec defines
// by its coefficients, studies/README.md), with the group's own dexpinv (exact where the
// algebra has a closed form), so that it has the classical order of its tableau (Munthe-Kaas
// 1999; Celledoni Section 2.2). Rkmk<RuntimeRkmkMethod, M> (integrators/rkmk.hpp) steps it
// with the stages of the built-in RKMK methods; only the coefficients and the declaration are
// per object. The spec reader checks the tableau's order conditions where it reads it
// (studies/spec_methods.cpp).

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/rkmk.hpp"

namespace geomint {

/// What a built-in RKMK method struct (integrators/lie_group_methods.hpp) gives as constants.
/// The declaration's strings are owned by whoever owns the method (studies/user_method.hpp).
struct RuntimeRkmkMethod {
  static constexpr int kDexpinvPower = kGroupDexpinv;
  Declaration declaration;
  ButcherTableau<kDynamicStages> tableau;
};

}  // namespace geomint
