#pragma once
// The catalogue on a model as a list of run-time integrators (catalogue/integrator_on_model.hpp).
// Included only by the units that compile them: catalogue/integrators_on_model.cpp.in, one per
// registry model.

#include <memory>
#include <vector>

#include "catalogue/integrator_adapter.hpp"
#include "catalogue/integrator_catalogue.hpp"
#include "integrators/integrate.hpp"

namespace geomint {

namespace detail {

template <class I, Model M>
std::unique_ptr<IntegratorOnModel<M>> make_adapter(const M& model, const StepControl& control,
                                                   double t0, double T) {
  return std::make_unique<IntegratorAdapter<I, M>>(model, control, t0, T);
}

template <class I, Model M>
Work run_fresh(const M& model, const StepControl& control, double t0, double T,
               typename M::State& y) {
  // I itself on the stack, not its adapter: integrate()'s loop is then compiled into this
  // function on a local I. Through the adapter it became an out-of-line clone working on the
  // adapter's member (free_rigid_body/elliptic/rk4: 5,363 instructions in it against 3,304).
  I integrator = integrator_for<I>(model, control, t0, T);
  apply_compensation(integrator, control);
  drive(integrator, driven_by<I>(control), y, t0, T, [](double, const typename M::State&) {});
  return integrator.work();
}

}  // namespace detail

template <Model M>
std::span<const CompiledIntegrator<M>> compiled_integrators() {
  static const std::vector<CompiledIntegrator<M>> list = [] {
    std::vector<CompiledIntegrator<M>> out;
    for_each_integrator([&]<class Entry>() {
      if constexpr (runs_on<Entry, M>) {
        using I = typename Entry::template type<M>;
        out.push_back({&Entry::declaration, &I::declaration, Entry::View::name, true,
                       HasCotangentMap<I, M>, CompensatedUpdate<I>,
                       &detail::make_adapter<I, M>, &detail::run_fresh<I, M>});
      } else {
        out.push_back({&Entry::declaration, &Entry::declaration, Entry::View::name, false, false,
                       false, nullptr, nullptr});
      }
    });
    return out;
  }();
  return list;
}

}  // namespace geomint
