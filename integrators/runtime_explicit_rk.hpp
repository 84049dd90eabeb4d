#pragma once
// An explicit Runge-Kutta method whose tableau is data given at run time (a method a study spec
// defines by its coefficients, studies/README.md), optionally reprojected onto the manifold
// after every step. ExplicitRk<RuntimeRkMethod, M> (integrators/explicit_rk.hpp) steps it with
// the code of the built-in methods; only the coefficients and the declaration are per object.
// The spec reader checks the tableau's order conditions where it reads it
// (studies/spec_methods.cpp: tableau_defect, integrators/order_conditions.hpp).

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"

namespace geomint {

/// What a built-in method struct (integrators/classical_methods.hpp) gives as constants. The
/// declaration's strings are owned by whoever owns the method (studies/user_method.hpp).
struct RuntimeRkMethod {
  Declaration declaration;
  ButcherTableau<kDynamicStages> tableau;
  bool reproject = false;
};

}  // namespace geomint
