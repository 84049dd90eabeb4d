#pragma once
// Catalogue entries of the constrained variational integrators (see
// catalogue/catalogue_entry.hpp for what an entry is).

#include "catalogue/catalogue_entry.hpp"
#include "integrators/constrained_variational.hpp"

namespace geomint {

template <class Method>
struct ConstrainedVariationalEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  using View = view::ConstrainedLagrangian;
  template <class M>
  using type = ConstrainedVariational<M, Method>;
};

using ConstrainedVariationalEntries =
    CatalogueList<ConstrainedVariationalEntry<ConstrainedVi>, ConstrainedVariationalEntry<Rattle>>;

}  // namespace geomint
