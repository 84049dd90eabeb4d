#pragma once
// What the case runner does alike for the integrator a case names, a catalogued one
// (studies/case_runner.hpp) or one its spec defines (studies/user_method_runner.hpp): record
// its declared promises, check its settings, and record a model that
// lacks the view it needs as "n/a".

#include <cmath>
#include <string>
#include <string_view>

#include "errors/exit_status_errors.hpp"
#include "integrators/compensated_sum.hpp"
#include "integrators/declaration.hpp"
#include "studies/case.hpp"
#include "studies/run_limits.hpp"
#include "integrators/step_control.hpp"

namespace geomint::detail {

/// The integrator's declared promises, which the matrix reads from the result.
inline void record_declaration(const Declaration& d, CaseResult& result) {
  result.family = std::string(to_string(d.family));
  result.nominal_order = d.order;
  result.adaptive = d.adaptive;
  result.symplectic = d.symplectic;
  result.symmetric = d.symmetric;
  result.stays_on_manifold = d.stays_on_manifold;
}

/// The case's step control: the settings the method uses (h of a fixed-step one; rtol and atol
/// of an adaptive one, ode45's where the case gives none), checked once
/// (integrators/step_control.hpp), and a fixed-step run within the step cap
/// (studies/run_limits.hpp); else an InputError naming the setting.
inline StepControl checked_step_control(const Declaration& d, const CaseSpec& spec) {
  if (!(spec.T > 0.0 && std::isfinite(spec.T)))
    throw InputError("T must be a positive finite number");
  if (d.adaptive) {
    if (!std::isnan(spec.h))
      throw InputError(spec.integrator + " is adaptive: a step size h does not apply (give rtol/atol)");
    Tolerances tolerances;
    if (!std::isnan(spec.rtol)) tolerances.rtol = spec.rtol;
    if (!std::isnan(spec.atol)) tolerances.atol = spec.atol;
    return checked(tolerances);
  }
  if (!std::isnan(spec.rtol) || !std::isnan(spec.atol))
    throw InputError(spec.integrator + " is a fixed-step method: rtol and atol do not apply (give h)");
  if (std::isnan(spec.h))
    throw InputError(spec.integrator + " is a fixed-step method: give a step size h");
  const StepControl control = checked(FixedStep{spec.h, spec.compensated});
  if (const auto why = step_count_problem(spec.T, spec.h, spec.max_steps))
    throw InputError(spec.integrator + ": " + *why);
  return control;
}

inline void record_not_applicable(const CaseSpec& spec, std::string_view needs,
                                  CaseResult& result) {
  result.status = "n/a";
  result.detail = "n/a: " + spec.model + " has no " + std::string(needs) + " view";
}

/// A case that asks for compensated summation (CaseSpec::compensated) of an integrator without
/// it: an adaptive one, or one whose update is not a sum (a group action exp(sigma) . y).
inline void record_not_compensable(const CaseSpec& spec, CaseResult& result) {
  result.status = "n/a";
  result.detail = "n/a: " + spec.integrator + " has no compensated summation (integrators/compensated_sum.hpp lists which do)";
}

}  // namespace geomint::detail
