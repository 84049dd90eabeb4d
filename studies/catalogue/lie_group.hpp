#pragma once
// Catalogue entries of the Lie group integrators (see studies/integrator_catalogue.hpp for what
// an entry is).

#include <string_view>
#include <tuple>

#include "integrators/lie_group_methods.hpp"
#include "models/views.hpp"

namespace geomint {

template <class Method>
struct RkmkEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr std::string_view needs = view::kLieGroupOde;
  template <class M>
  static constexpr bool runs_on = LieGroupOde<M>;
  template <class M>
  using type = Rkmk<Method, M>;
};

using LieGroupEntries = std::tuple<RkmkEntry<Rkmk4Method>>;

}  // namespace geomint
