#pragma once
// The catalogue entry of a Yoshida composition of another entry's method (see
// catalogue/catalogue_entry.hpp for what an entry is): it runs where its base runs.

#include "catalogue/catalogue_entry.hpp"
#include "integrators/composition.hpp"

namespace geomint {

template <CatalogueEntry BaseEntry, class Method>
struct CompositionEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  using View = typename BaseEntry::View;
  template <class M>
  using type = Composition<typename BaseEntry::template type<M>, Method>;
};

}  // namespace geomint
