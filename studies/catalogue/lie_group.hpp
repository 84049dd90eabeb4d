#pragma once
// Catalogue entries of the Lie group integrators (see studies/integrator_catalogue.hpp for what
// an entry is). Each method struct (integrators/lie_group_methods.hpp) names its integrator.

#include <string_view>
#include <tuple>

#include "integrators/lie_group_methods.hpp"
#include "models/views.hpp"

namespace geomint {

/// The view a commutator-free pair needs: the group action and a distance on the manifold.
inline constexpr std::string_view kLieGroupOdeWithDistanceView =
    "LieGroupOde with a distance on the manifold";

template <class Method>
struct LieGroupEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr std::string_view needs = view::kLieGroupOde;
  template <class M>
  static constexpr bool runs_on = LieGroupOde<M>;
  template <class M>
  using type = typename Method::template Integrator<M>;
};

/// The commutator-free pairs measure their local error with M::Group::distance.
template <class Method>
struct LieGroupDistanceEntry : LieGroupEntry<Method> {
  static constexpr std::string_view needs = kLieGroupOdeWithDistanceView;
  template <class M>
  static constexpr bool runs_on = LieGroupOdeWithDistance<M>;
};

using LieGroupEntries =
    std::tuple<LieGroupEntry<LieEulerMethod>, LieGroupEntry<LieEulerHeunMethod>,
               LieGroupEntry<Rkmk2Method>, LieGroupEntry<Rkmk3Method>, LieGroupEntry<Rkmk4Method>,
               LieGroupEntry<Rkmk4SeriesMethod>, LieGroupEntry<Rkmk4TwoCommutatorsMethod>,
               LieGroupEntry<Rkmk5Method>, LieGroupEntry<Cf3Method>, LieGroupEntry<Cf4Method>,
               LieGroupEntry<CrouchGrossman3Method>, LieGroupEntry<Rkmk54Method>,
               LieGroupDistanceEntry<Cf32aMethod>, LieGroupDistanceEntry<Cf32bMethod>,
               LieGroupDistanceEntry<Cf43Method>>;

}  // namespace geomint
