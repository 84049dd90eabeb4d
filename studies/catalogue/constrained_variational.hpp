#pragma once
// Catalogue entries of the constrained variational integrators (see
// studies/integrator_catalogue.hpp for what an entry is).

#include <string_view>
#include <tuple>

#include "integrators/constrained_variational.hpp"
#include "models/views.hpp"

namespace geomint {

template <class Method>
struct ConstrainedVariationalEntry {
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr std::string_view needs = view::kConstrainedLagrangian;
  template <class M>
  static constexpr bool runs_on = ConstrainedLagrangian<M>;
  template <class M>
  using type = ConstrainedVariational<M, Method>;
};

using ConstrainedVariationalEntries =
    std::tuple<ConstrainedVariationalEntry<ConstrainedVi>, ConstrainedVariationalEntry<Rattle>>;

}  // namespace geomint
