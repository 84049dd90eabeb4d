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
  IntegratorAdapter<I, M> integrator(model, control, t0, T);
  integrator.integrate(y, t0, T, kNoStepCap);
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
                       HasCotangentMap<I, M>,
                       &detail::make_adapter<I, M>, &detail::run_fresh<I, M>});
      } else {
        out.push_back({&Entry::declaration, &Entry::declaration, Entry::View::name, false, false,
                       nullptr, nullptr});
      }
    });
    return out;
  }();
  return list;
}

}  // namespace geomint
