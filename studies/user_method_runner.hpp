#pragma once
// Running a case of a method the spec defines by its coefficients (studies/user_method.hpp):
// the runtime-coefficient integrator of its kind, through the same detail::run_integrator as
// the catalogue's (studies/case_runner.hpp passes it in), when the model offers the view it
// needs, else "n/a" with the view named.

#include <string_view>
#include <variant>

#include "integrators/explicit_rk.hpp"
#include "integrators/runtime_commutator_free.hpp"
#include "integrators/runtime_explicit_rk.hpp"
#include "integrators/runtime_rkmk.hpp"
#include "models/views.hpp"
#include "studies/case.hpp"
#include "studies/external_integrator.hpp"
#include "studies/integrator_dispatch.hpp"
#include "studies/user_method.hpp"

namespace geomint {

namespace detail {

/// Per kind, what a catalogue entry says (catalogue/catalogue_entry.hpp): the view it needs
/// (which says whether a model type offers it) and the integrator on that model.
template <class Coefficients>
struct UserMethodEntry;

template <>
struct UserMethodEntry<RuntimeRkMethod> {
  using View = view::AmbientOde;
  template <class M>
  using type = ExplicitRk<RuntimeRkMethod, M>;
};

template <>
struct UserMethodEntry<RuntimeRkmkMethod> {
  using View = view::LieGroupOde;
  template <class M>
  using type = Rkmk<RuntimeRkmkMethod, M>;
};

template <>
struct UserMethodEntry<RuntimeCfMethod> {
  using View = view::LieGroupOde;
  template <class M>
  using type = CommutatorFree<RuntimeCfMethod, M>;
};

/// A command integrates the model's equations itself, as an ODE on its state.
template <>
struct UserMethodEntry<ExternalCommand> {
  using View = view::AmbientOde;
  template <class M>
  using type = ExternalIntegrator<M>;
};

/// Sets the declared properties of the case's user method (spec.user_method) in `result` and
/// calls run.template operator()<I>(coefficients, control) with the runtime integrator I of its
/// kind on Model and the case's checked step control, which runs it as run_case_for runs a
/// catalogued integrator; or, when the model lacks the view the kind needs or the case asks for
/// compensated summation that I has not, records the case "n/a" saying which.
template <class Model, class Run>
void run_user_method(const CaseSpec& spec, CaseResult& result, Run&& run) {
  const UserMethod& method = *spec.user_method;
  const Declaration& d = method.declaration();
  record_declaration(d, result);
  std::visit(
      [&]<class Coefficients>(const Coefficients& coefficients) {
        using Entry = UserMethodEntry<Coefficients>;
        const StepControl control = checked_step_control(d, spec);
        if constexpr (Entry::View::template offered_by<Model>) {
          using I = typename Entry::template type<Model>;
          if (spec.compensated && !CompensatedUpdate<I>)
            record_not_compensable(spec, result);
          else
            run.template operator()<I>(coefficients, control);
        } else {
          record_not_applicable(spec, Entry::View::name, result);
        }
      },
      method.coefficients());
}

}  // namespace detail

}  // namespace geomint
