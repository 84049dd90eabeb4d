#pragma once
// Catalogue entries of the variational integrators (see catalogue/catalogue_entry.hpp for what
// an entry is).

#include "catalogue/catalogue_entry.hpp"
#include "catalogue/families/composition.hpp"
#include "integrators/variational_compositions.hpp"
#include "integrators/variational_explicit.hpp"
#include "integrators/variational_implicit.hpp"

namespace geomint {

struct ExplicitVariationalEntry {
  static constexpr const Declaration& declaration = kExplicitVariationalDeclaration;
  using View = view::DiagonalSphereLagrangian;
  template <class M>
  using type = ExplicitVariational<M>;
};

struct ImplicitVariationalEntry {
  static constexpr const Declaration& declaration = kImplicitVariationalDeclaration;
  using View = view::SphereLagrangian;
  template <class M>
  using type = ImplicitVariational<M>;
};

using VariationalEntries =
    CatalogueList<ExplicitVariationalEntry, ImplicitVariationalEntry,
                  CompositionEntry<ExplicitVariationalEntry, ExplicitVariationalYoshida4>,
                  CompositionEntry<ExplicitVariationalEntry, ExplicitVariationalYoshida6>,
                  CompositionEntry<ImplicitVariationalEntry, ImplicitVariationalYoshida4>,
                  CompositionEntry<ImplicitVariationalEntry, ImplicitVariationalYoshida6>>;

}  // namespace geomint
