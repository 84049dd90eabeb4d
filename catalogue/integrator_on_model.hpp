#pragma once
// A catalogue integrator on a model type as a run-time value, so that what runs every
// integrator on a model (the case runner, the catalogue suites, the benchmarks, the gates) is
// compiled once per model and not once per (integrator, model) pair, which is most of
// a build's time (docs/build-time.md). The integrators themselves are compiled once per model, at
// -O3 with the model's vector field inlined into their steps, in a unit of their own per model
// (catalogue/integrators_on_model.cpp.in, through catalogue/compiled_integrators.hpp); this header
// is all a harness includes. A step or an integration is one virtual call into that code, and a
// silent integration (no observer) runs the same loop as integrate() on the concrete type.
//
// The catalogue on a model is geomint's own integrators followed by those a project outside
// geomint added to it when its program started (catalogue/add_integrator.hpp: an installed
// geomint's geomint_add_integrator(), docs/adding-an-integrator.md), so that everything that lists
// or runs integrators runs them too.

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "catalogue/added_list.hpp"
#include "integrators/declaration.hpp"
#include "integrators/step_control.hpp"
#include "integrators/work.hpp"
#include "models/model_contract.hpp"

namespace geomint {

/// A point of T*G on a model that offers the CotangentLieGroup view; nothing on another.
template <class M>
struct CotangentPointOf {
  using type = std::monostate;
};
template <CotangentLieGroup M>
struct CotangentPointOf<M> {
  using type = typename M::Cotangent::Point;
};

/// Integrator type I has a map of its own on T*G of model M (the symplectic Lie group
/// integrators, integrators/symplectic_lie_group.hpp), beside its steps on M's state.
template <class I, class M>
concept HasCotangentMap = requires(I& i, typename CotangentPointOf<M>::type& z) {
  i.step_point(0.0, z, 0.0);
};

/// The facet of a running integrator that has a map of its own on T*G: one step of it from
/// (t, z), of size h (negative: backwards).
template <Model M>
class CotangentMapFacet {
 public:
  using Point = typename CotangentPointOf<M>::type;
  virtual void step_point(double t, Point& z, double h) = 0;

 protected:
  ~CotangentMapFacet() = default;
};

/// A running integrator on M (integrators/integrate.hpp for what each call does).
template <Model M>
class IntegratorOnModel {
 public:
  using State = typename M::State;
  using Observer = std::function<void(double, const State&)>;

  virtual ~IntegratorOnModel() = default;
  /// One step of size h (negative: backwards) from (t, y): fixed-step methods.
  virtual void step(double t, State& y, double h) = 0;
  /// n steps of size h from (t, y), step k from t + k h: fixed-step methods. An external
  /// command (studies/external_integrator.hpp) runs them as one integration.
  virtual void steps(double t, State& y, double h, std::int64_t n) {
    for (std::int64_t k = 0; k < n; ++k) step(t + static_cast<double>(k) * h, y, h);
  }
  /// One accepted step from (t, y) towards T, observing its output points: adaptive methods.
  virtual void advance(double& t, State& y, double T, const Observer& observe) = 0;
  /// integrate(y, t0, T, observe, max_steps) of integrators/integrate.hpp, with the step
  /// control the integrator was made with.
  virtual void integrate(State& y, double t0, double T, const Observer& observe,
                         double max_steps) = 0;
  /// The same with nothing observed: the loop integrate() compiles for an empty observer.
  virtual void integrate(State& y, double t0, double T, double max_steps) = 0;
  virtual Work work() const = 0;
  /// The CPU seconds the latest integration took outside this process (an external command's,
  /// as it reported or as measured), which are its cost; NaN for one that runs in it.
  virtual double cpu_seconds_outside() const { return std::numeric_limits<double>::quiet_NaN(); }
  /// The step in which the latest output point lies, where the method says (ode45's Refine
  /// puts several points in one step); NaN where it does not.
  virtual double last_step() const = 0;
  /// Its map on T*G, or null where it has none (CompiledIntegrator::has_cotangent_map).
  virtual CotangentMapFacet<M>* cotangent_map() { return nullptr; }
};

/// One catalogue entry (catalogue/integrator_catalogue.hpp) on M.
template <Model M>
struct CompiledIntegrator {
  const Declaration* entry;     // the catalogue's declaration
  const Declaration* on_model;  // its promises on M (the theta family on a left-invariant
                                // Hamiltonian: integrators/symplectic_lie_group.hpp)
  std::string_view needs;       // the view it needs
  bool runs;                    // M offers that view; else `make` and `run` are null
  bool has_cotangent_map;       // a map on T*G of its own (IntegratorOnModel::cotangent_map)
  bool compensable;             // offers compensated summation (FixedStep::compensated)
  /// The integrator on a model, driven by `control` (of its kind: control_for) over [t0, T].
  std::unique_ptr<IntegratorOnModel<M>> (*make)(const M&, const StepControl& control, double t0,
                                                double T);
  /// A fresh integrator, constructed on the stack, from (t0, y) to T with nothing observed: a
  /// run whose set-up is part of it (the benchmarks' integrate_ entries).
  Work (*run)(const M&, const StepControl& control, double t0, double T, typename M::State& y);

  std::string_view name() const { return entry->name; }
};

/// The step control of the kind `d` needs: `fixed` for a fixed-step method, `tolerances` for an
/// adaptive one (a harness that runs every integrator at one setting of each).
inline StepControl control_for(const Declaration& d, FixedStep fixed, Tolerances tolerances) {
  if (d.adaptive) return tolerances;
  return fixed;
}

/// geomint's own catalogue on M, in catalogue order (explicitly instantiated for each registry
/// model from catalogue/integrators_on_model.cpp.in).
template <Model M>
std::span<const CompiledIntegrator<M>> builtin_integrators();

/// The entries on M that projects outside geomint add while their program starts
/// (catalogue/add_integrator.hpp).
template <Model M>
AddedList<CompiledIntegrator<M>>& added_integrators_on() {
  static AddedList<CompiledIntegrator<M>> list;
  return list;
}

/// Every catalogue entry on M: geomint's own in catalogue order, then the added ones by name.
template <Model M>
std::span<const CompiledIntegrator<M>> compiled_integrators() {
  static const std::vector<CompiledIntegrator<M>> list =
      with_added(builtin_integrators<M>(), added_integrators_on<M>().read(),
                 [](const CompiledIntegrator<M>& c) { return c.name(); });
  return list;
}

/// The entries on M that a project outside geomint added: the tail of compiled_integrators().
template <Model M>
std::span<const CompiledIntegrator<M>> added_compiled_integrators() {
  return compiled_integrators<M>().subspan(builtin_integrators<M>().size());
}

/// The entry named `name`, or null.
template <Model M>
const CompiledIntegrator<M>* find_compiled_integrator(std::string_view name) {
  for (const auto& c : compiled_integrators<M>())
    if (c.name() == name) return &c;
  return nullptr;
}

/// The entry named `name`, which the caller knows is in the catalogue.
template <Model M>
const CompiledIntegrator<M>& compiled_integrator(std::string_view name) {
  if (const CompiledIntegrator<M>* c = find_compiled_integrator<M>(name)) return *c;
  throw std::logic_error("no integrator '" + std::string(name) + "' in the catalogue");
}

}  // namespace geomint
