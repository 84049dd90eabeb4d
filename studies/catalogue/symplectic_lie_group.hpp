#pragma once
// Catalogue entries of the symplectic Lie group integrators on T*G (see
// studies/integrator_catalogue.hpp for what an entry is).

#include <string_view>
#include <tuple>

#include "integrators/symplectic_lie_group.hpp"
#include "integrators/symplectic_lie_group_compositions.hpp"
#include "models/views.hpp"
#include "studies/catalogue/composition.hpp"

namespace geomint {

template <class Method>
struct SymplecticLieGroupEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr std::string_view needs = view::kCotangentLieGroup;
  template <class M>
  static constexpr bool runs_on = CotangentLieGroup<M>;
  template <class M>
  using type = SymplecticLieGroup<M, Method>;
};

using SymplecticLieGroupEntries =
    std::tuple<SymplecticLieGroupEntry<SlgiTheta0>, SymplecticLieGroupEntry<SlgiThetaHalf>,
               SymplecticLieGroupEntry<SlgiTheta1>,
               CompositionEntry<SymplecticLieGroupEntry<SlgiThetaHalf>, SlgiThetaHalfYoshida4>,
               CompositionEntry<SymplecticLieGroupEntry<SlgiThetaHalf>, SlgiThetaHalfYoshida6>>;

}  // namespace geomint
