#pragma once
// Catalogue entries of the classical integrators (see catalogue/catalogue_entry.hpp for what
// an entry is).

#include "catalogue/catalogue_entry.hpp"
#include "integrators/classical_methods.hpp"
#include "integrators/dormand_prince.hpp"

namespace geomint {

template <class Method>
struct ExplicitRkEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  using View = view::AmbientOde;
  template <class M>
  using type = ExplicitRk<Method, M>;
};

template <bool Reproject>
struct Dopri45Entry {
  static constexpr const Declaration& declaration =
      Reproject ? kDopri45ProjectedDeclaration : kDopri45Declaration;
  using View = view::AmbientOde;
  template <class M>
  using type = DormandPrince45<M, Reproject>;
};

using ClassicalEntries =
    CatalogueList<ExplicitRkEntry<Rk2Method>, ExplicitRkEntry<Rk2ProjectedMethod>,
                  ExplicitRkEntry<Rk4Method>, ExplicitRkEntry<Rk4ProjectedMethod>,
                  Dopri45Entry<false>, Dopri45Entry<true>>;

}  // namespace geomint
