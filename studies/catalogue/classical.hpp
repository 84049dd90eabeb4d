#pragma once
// Catalogue entries of the classical integrators (see studies/integrator_catalogue.hpp for what
// an entry is).

#include <string_view>
#include <tuple>

#include "integrators/classical_methods.hpp"
#include "integrators/dormand_prince.hpp"
#include "models/views.hpp"

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

using ClassicalEntries = std::tuple<ExplicitRkEntry<Rk2Method>, ExplicitRkEntry<Rk2ProjectedMethod>,
                                    ExplicitRkEntry<Rk4Method>, ExplicitRkEntry<Rk4ProjectedMethod>,
                                    Dopri45Entry<false>, Dopri45Entry<true>>;

}  // namespace geomint
