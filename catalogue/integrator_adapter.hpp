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
class PlainIntegratorAdapter : public IntegratorOnModel<M> {
 public:
  using typename IntegratorOnModel<M>::State;
  using typename IntegratorOnModel<M>::Observer;

  template <class... Method>
  PlainIntegratorAdapter(const M& model, const IntegratorOptions& opt, const Method&... method)
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

 protected:
  I integrator_;

 private:
  [[noreturn]] void refuse(const char* what) const {
    throw std::logic_error(std::string(integrator_.declaration.name) + " has no " + what);
  }
};

/// The same for an integrator with a map of its own on T*G, offered as its cotangent facet.
template <class I, Model M>
  requires HasCotangentMap<I, M>
class CotangentIntegratorAdapter final : public PlainIntegratorAdapter<I, M>,
                                         public CotangentMapFacet<M> {
 public:
  using PlainIntegratorAdapter<I, M>::PlainIntegratorAdapter;

  CotangentMapFacet<M>* cotangent_map() override { return this; }
  void step_point(double t, typename CotangentMapFacet<M>::Point& z, double h) override {
    this->integrator_.step_point(t, z, h);
  }
};

/// The adapter of I on M: with the cotangent facet where I has a map on T*G.
template <class I, Model M>
struct AdapterOf {
  using type = PlainIntegratorAdapter<I, M>;
};
template <class I, Model M>
  requires HasCotangentMap<I, M>
struct AdapterOf<I, M> {
  using type = CotangentIntegratorAdapter<I, M>;
};
template <class I, Model M>
using IntegratorAdapter = typename AdapterOf<I, M>::type;

}  // namespace geomint
