#pragma once
// An integrator type behind the run-time interface of catalogue/integrator_on_model.hpp.

#include <limits>
#include <stdexcept>
#include <string>

#include "catalogue/integrator_on_model.hpp"
#include "integrators/integrate.hpp"

namespace geomint {

/// The integrator type I on M behind the run-time interface. `method...` follows the model and
/// the options in I's constructor (a user method's coefficients: studies/user_method_runner.hpp).
template <class I, Model M>
class IntegratorAdapter final : public IntegratorOnModel<M> {
 public:
  using typename IntegratorOnModel<M>::State;
  using typename IntegratorOnModel<M>::Observer;
  using typename IntegratorOnModel<M>::CotangentPoint;

  template <class... Method>
  IntegratorAdapter(const M& model, const IntegratorOptions& opt, const Method&... method)
      : integrator_(model, opt, method...) {}

  void step(double t, State& y, double h) override {
    if constexpr (requires { integrator_.step(t, y, h); })
      integrator_.step(t, y, h);
    else
      refuse("step");
  }
  void advance(double& t, State& y, double T, const Observer& observe) override {
    if constexpr (requires { integrator_.advance(t, y, T, observe); })
      integrator_.advance(t, y, T, observe);
    else
      refuse("advance");
  }
  void integrate(State& y, double t0, double T, const Observer& observe, double max_steps) override {
    geomint::integrate(integrator_, y, t0, T, observe, max_steps);
  }
  void integrate(State& y, double t0, double T, double max_steps) override {
    geomint::integrate(integrator_, y, t0, T, [](double, const State&) {}, max_steps);
  }
  Work work() const override { return integrator_.work(); }
  double last_step() const override {
    if constexpr (requires { integrator_.last_step(); })
      return integrator_.last_step();
    else
      return std::numeric_limits<double>::quiet_NaN();
  }
  void step_point(double t, CotangentPoint& z, double h) override {
    if constexpr (requires { integrator_.step_point(t, z, h); })
      integrator_.step_point(t, z, h);
    else
      refuse("step_point");
  }

 private:
  [[noreturn]] void refuse(const char* what) const {
    throw std::logic_error(std::string(integrator_.declaration.name) + " has no " + what);
  }

  I integrator_;
};

}  // namespace geomint
