#pragma once
// Every integrator the bench can run, as a compile-time list of entries. An entry names the
// view it needs and whether a model type offers it, so the integrator x model matrix follows
// from the concepts: a pair that cannot run is reported "n/a: <model> has no <view> view".

#include <string_view>
#include <tuple>

#include "integrators/classical_methods.hpp"
#include "integrators/declaration.hpp"
#include "integrators/dormand_prince.hpp"
#include "integrators/lie_group_methods.hpp"
#include "integrators/variational_explicit.hpp"
#include "integrators/variational_implicit.hpp"
#include "models/views.hpp"
#include "reference/cvode.hpp"

namespace geomint {

template <class Method>
struct ExplicitRkEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr std::string_view needs = view::kAmbientOde;
  template <class M>
  static constexpr bool runs_on = AmbientOde<M>;
  template <class M>
  using type = ExplicitRk<Method, M>;
};

template <bool Reproject>
struct Dopri45Entry {
  static constexpr const Declaration& declaration =
      Reproject ? kDopri45ProjectedDeclaration : kDopri45Declaration;
  static constexpr std::string_view needs = view::kAmbientOde;
  template <class M>
  static constexpr bool runs_on = AmbientOde<M>;
  template <class M>
  using type = DormandPrince45<M, Reproject>;
};

struct ExplicitVariationalEntry {
  static constexpr const Declaration& declaration = kExplicitVariationalDeclaration;
  static constexpr std::string_view needs = view::kDiagonalSphereLagrangian;
  template <class M>
  static constexpr bool runs_on = DiagonalSphereLagrangian<M>;
  template <class M>
  using type = ExplicitVariational<M>;
};

struct ImplicitVariationalEntry {
  static constexpr const Declaration& declaration = kImplicitVariationalDeclaration;
  static constexpr std::string_view needs = view::kSphereLagrangian;
  template <class M>
  static constexpr bool runs_on = SphereLagrangian<M>;
  template <class M>
  using type = ImplicitVariational<M>;
};

template <class Method>
struct RkmkEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr std::string_view needs = view::kLieGroupOde;
  template <class M>
  static constexpr bool runs_on = LieGroupOde<M>;
  template <class M>
  using type = Rkmk<Method, M>;
};

struct CvodeEntry {
  static constexpr const Declaration& declaration = kCvodeBdfDeclaration;
  static constexpr std::string_view needs = view::kAmbientOde;
  template <class M>
  static constexpr bool runs_on = AmbientOde<M>;
  template <class M>
  using type = Cvode<M>;
};

using IntegratorCatalogue =
    std::tuple<ExplicitRkEntry<Rk2Method>, ExplicitRkEntry<Rk2ProjectedMethod>,
               ExplicitRkEntry<Rk4Method>, ExplicitRkEntry<Rk4ProjectedMethod>, Dopri45Entry<false>,
               Dopri45Entry<true>, ExplicitVariationalEntry, ImplicitVariationalEntry,
               RkmkEntry<Rkmk4Method>, CvodeEntry>;

/// Calls f.template operator()<Entry>() for every entry, in catalogue order.
template <class F>
void for_each_integrator(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<std::tuple_element_t<I, IntegratorCatalogue>>(), ...);
  }(std::make_index_sequence<std::tuple_size_v<IntegratorCatalogue>>{});
}

}  // namespace geomint
