#pragma once
// What the case runner does alike for the integrator a case names, a catalogued one
// (studies/case_runner.hpp) or one its spec defines (studies/user_method_runner.hpp): record
// its declared promises, require a step size of a fixed-step method, and record a model that
// lacks the view it needs as "n/a".

#include <cmath>
#include <string>
#include <string_view>

#include "integrators/declaration.hpp"
#include "models/parameters.hpp"
#include "studies/case.hpp"

namespace geomint::detail {

/// The integrator's declared promises, which the matrix reads from the result.
inline void record_declaration(const Declaration& d, CaseResult& result) {
  result.family = std::string(to_string(d.family));
  result.nominal_order = d.order;
  result.adaptive = d.adaptive;
  result.symplectic = d.symplectic;
  result.stays_on_manifold = d.stays_on_manifold;
}

inline void require_step_size(const Declaration& d, const CaseSpec& spec) {
  if (!d.adaptive && std::isnan(spec.h))
    throw InputError(spec.integrator + " is a fixed-step method: give a step size h");
}

inline void record_not_applicable(const CaseSpec& spec, std::string_view needs,
                                  CaseResult& result) {
  result.status = "n/a";
  result.detail = "n/a: " + spec.model + " has no " + std::string(needs) + " view";
}

}  // namespace geomint::detail
