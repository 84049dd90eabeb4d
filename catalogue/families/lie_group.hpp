#pragma once
// Catalogue entries of the Lie group integrators (see catalogue/catalogue_entry.hpp for what
// an entry is). Each method struct (integrators/lie_group_methods.hpp) names its integrator.

#include <string_view>

#include "catalogue/catalogue_entry.hpp"
#include "integrators/lie_group_methods.hpp"

namespace geomint {

/// The view a commutator-free pair needs: the group action and a distance on the manifold.
struct LieGroupOdeWithDistanceView {
  static constexpr std::string_view name = "LieGroupOde with a distance on the manifold";
  template <class M>
  static constexpr bool offered_by = LieGroupOdeWithDistance<M>;
};

template <class Method>
struct LieGroupEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  using View = view::LieGroupOde;
  template <class M>
  using type = typename Method::template Integrator<M>;
};

/// The commutator-free pairs measure their local error with M::Group::distance.
template <class Method>
struct LieGroupDistanceEntry : LieGroupEntry<Method> {
  using View = LieGroupOdeWithDistanceView;
};

using LieGroupEntries = CatalogueList<
    LieGroupEntry<LieEulerMethod>, LieGroupEntry<LieEulerHeunMethod>, LieGroupEntry<Rkmk2Method>,
    LieGroupEntry<Rkmk3Method>, LieGroupEntry<Rkmk4Method>, LieGroupEntry<Rkmk4SeriesMethod>,
    LieGroupEntry<Rkmk4TwoCommutatorsMethod>, LieGroupEntry<Rkmk5Method>, LieGroupEntry<Cf3Method>,
    LieGroupEntry<Cf4Method>, LieGroupEntry<CrouchGrossman3Method>, LieGroupEntry<Rkmk54Method>,
    LieGroupDistanceEntry<Cf32aMethod>, LieGroupDistanceEntry<Cf32bMethod>,
    LieGroupDistanceEntry<Cf43Method>>;

}  // namespace geomint
