#pragma once
// How the steps of a run are chosen, as one type from where it is read (the CLI's run options,
// a study spec) to where it is used (integrate(), an adaptive integrator's controller): a fixed
// step size h, or the tolerances of error control. odeint's do_step(system, x, t, dt) is the
// model for the fixed step: the integrator does not store h, each step is given it.

#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <variant>

#include "errors/exit_status_errors.hpp"

namespace geomint {

/// Every step h (the last one ends at T: integrators/integrate.hpp).
struct FixedStep {
  double h;
  bool compensated = false;  // compensated summation of the update (integrators/compensated_sum.hpp)
};

/// Error control's relative and absolute tolerances (what each adaptive method makes of them
/// is in its header: integrators/dormand_prince.hpp, embedded_pair.hpp, reference/).
struct Tolerances {
  double rtol = 1e-3;  // MATLAB ode45's defaults
  double atol = 1e-6;
};

using StepControl = std::variant<FixedStep, Tolerances>;

/// Below 100 machine epsilons a relative tolerance asks for more than double precision can
/// give (MATLAB's ode45 raises it to that floor; we refuse it, naming the floor, rather than
/// run at a tolerance the user did not ask for).
inline constexpr double kSmallestRtol = 100.0 * std::numeric_limits<double>::epsilon();

/// Why `rtol` is not a relative tolerance, or nothing.
inline std::optional<std::string> rtol_problem(double rtol) {
  if (!std::isfinite(rtol)) return "must be a finite number";
  if (!(rtol >= kSmallestRtol && rtol <= 1.0))
    return "must be from 100 machine epsilons (2.2e-14) to 1";
  return std::nullopt;
}

/// Why `atol` is not an absolute tolerance, or nothing.
inline std::optional<std::string> atol_problem(double atol) {
  if (!std::isfinite(atol)) return "must be a finite number";
  if (!(atol >= std::numeric_limits<double>::min())) return "must be a positive normal number";
  return std::nullopt;
}

/// The one check of a step control, where it enters (studies/integrator_dispatch.hpp for a
/// case of the CLI or a study spec): h a positive finite number, rtol and atol in the domains
/// above; else an InputError naming the setting. Integrators take it as checked.
inline StepControl checked(StepControl control) {
  if (const auto* fixed = std::get_if<FixedStep>(&control)) {
    if (!(fixed->h > 0.0 && std::isfinite(fixed->h)))
      throw InputError("h must be a positive finite number");
  } else {
    const auto& tol = std::get<Tolerances>(control);
    if (const auto why = rtol_problem(tol.rtol)) throw InputError("rtol " + *why);
    if (const auto why = atol_problem(tol.atol)) throw InputError("atol " + *why);
  }
  return control;
}

}  // namespace geomint
