#pragma once
// Catalogue entries of the symplectic Lie group integrators on T*G (see
// catalogue/catalogue_entry.hpp for what an entry is).

#include "catalogue/catalogue_entry.hpp"
#include "catalogue/families/composition.hpp"
#include "integrators/symplectic_lie_group.hpp"
#include "integrators/symplectic_lie_group_compositions.hpp"

namespace geomint {

template <class Method>
struct SymplecticLieGroupEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  using View = view::CotangentLieGroup;
  template <class M>
  using type = SymplecticLieGroup<M, Method>;
};

using SymplecticLieGroupEntries =
    CatalogueList<SymplecticLieGroupEntry<SlgiTheta0>, SymplecticLieGroupEntry<SlgiThetaHalf>,
                  SymplecticLieGroupEntry<SlgiTheta1>,
                  CompositionEntry<SymplecticLieGroupEntry<SlgiThetaHalf>, SlgiThetaHalfYoshida4>,
                  CompositionEntry<SymplecticLieGroupEntry<SlgiThetaHalf>, SlgiThetaHalfYoshida6>>;

}  // namespace geomint
