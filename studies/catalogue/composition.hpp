#pragma once
// The catalogue entry of a Yoshida composition of another entry's method (see
// studies/integrator_catalogue.hpp for what an entry is): it runs where its base runs.

#include <string_view>

#include "integrators/composition.hpp"

namespace geomint {

template <class BaseEntry, class Method>
struct CompositionEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr std::string_view needs = BaseEntry::needs;
  template <class M>
  static constexpr bool runs_on = BaseEntry::template runs_on<M>;
  template <class M>
  using type = Composition<typename BaseEntry::template type<M>, Method>;
};

}  // namespace geomint
