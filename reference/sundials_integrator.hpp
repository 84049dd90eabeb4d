#pragma once
// A model behind a SundialsCore, with the interface of an adaptive integrator
// (integrators/dormand_prince.hpp): the part of Cvode (reference/cvode.hpp) and ArkodeErk
// (reference/arkode.hpp) that does not depend on the SUNDIALS module.

#include <Eigen/Core>
#include <string_view>

#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"
#include "reference/model_callbacks.hpp"
#include "reference/options.hpp"
#include "reference/sundials_core.hpp"

namespace geomint::detail {

/// Builds a module's core for a problem (cvode_core, arkode_erk_core).
using MakeSundialsCore = SundialsCore (*)(const SundialsProblem& problem);

template <AmbientOde M>
class SundialsIntegrator {
 public:
  using Model = M;
  using State = typename M::State;

  // The core holds the address of callbacks_.
  SundialsIntegrator(const SundialsIntegrator&) = delete;
  SundialsIntegrator& operator=(const SundialsIntegrator&) = delete;

  const Work& work() const { return core_.work(); }

  /// One internal step of the module from (t, y) towards T (never past it); observe(t, y) at
  /// its end.
  template <class Observer>
  void advance(double& t, State& y, double T, Observer&& observe) {
    core_.step(t, y.data(), T);
    t = core_.time();
    y = Eigen::Map<const State>(core_.state(), y.size());
    observe(t, static_cast<const State&>(y));
  }

 protected:
  /// The core `make` builds for `model` under `name`, projecting onto the model's manifold
  /// after every step if `reproject`.
  SundialsIntegrator(const M& model, std::string_view name, bool reproject, MakeSundialsCore make,
                     const IntegratorOptions& opt, const ReferenceOptions& settings)
      : callbacks_(model),
        core_(make({name, model.dimension(), &Callbacks::rhs,
                    reproject ? &Callbacks::project : nullptr, &callbacks_, opt, settings})) {}
  ~SundialsIntegrator() = default;

  const SundialsCore& core() const { return core_; }

 private:
  using Callbacks = ModelCallbacks<M>;
  Callbacks callbacks_;
  SundialsCore core_;
};

}  // namespace geomint::detail
