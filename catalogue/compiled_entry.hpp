#pragma once
// One catalogue entry (catalogue/catalogue_entry.hpp) compiled on a model as a run-time value
// (catalogue/integrator_on_model.hpp). Included only by the units that compile entries: geomint's
// own catalogue on each registry model (catalogue/compiled_integrators.hpp) and a project's added
// entry on each (catalogue/add_integrator.hpp), so that both build their entries one way.

#include <memory>

#include "catalogue/catalogue_entry.hpp"
#include "catalogue/integrator_adapter.hpp"
#include "catalogue/integrator_on_model.hpp"
#include "integrators/compensated_sum.hpp"
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

/// Entry on M: its integrator behind the run-time interface where M offers the view it needs,
/// else the entry's declaration with `runs` false (the matrix's "n/a").
template <CatalogueEntry Entry, Model M>
CompiledIntegrator<M> compiled_entry() {
  if constexpr (runs_on<Entry, M>) {
    using I = typename Entry::template type<M>;
    return {&Entry::declaration, &I::declaration, Entry::View::name, true, HasCotangentMap<I, M>,
            CompensatedUpdate<I>, &detail::make_adapter<I, M>, &detail::run_fresh<I, M>};
  } else {
    return {&Entry::declaration, &Entry::declaration, Entry::View::name, false, false, false,
            nullptr, nullptr};
  }
}

}  // namespace geomint
