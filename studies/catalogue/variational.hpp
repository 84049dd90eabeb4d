#pragma once
// Catalogue entries of the variational integrators (see studies/integrator_catalogue.hpp for what
// an entry is).

#include <string_view>
#include <tuple>

#include "integrators/variational_compositions.hpp"
#include "integrators/variational_explicit.hpp"
#include "integrators/variational_implicit.hpp"
#include "models/views.hpp"
#include "studies/catalogue/composition.hpp"

namespace geomint {

struct ExplicitVariationalEntry {
  static constexpr const Declaration& declaration = kExplicitVariationalDeclaration;
  static constexpr std::string_view needs = view::kDiagonalSphereLagrangian;
  template <class M>
  static constexpr bool runs_on = DiagonalSphereLagrangian<M>;
  template <class M>
  using type = ExplicitVariational<M>;
};

struct ImplicitVariationalEntry {
  static constexpr const Declaration& declaration = kImplicitVariationalDeclaration;
  static constexpr std::string_view needs = view::kSphereLagrangian;
  template <class M>
  static constexpr bool runs_on = SphereLagrangian<M>;
  template <class M>
  using type = ImplicitVariational<M>;
};

using VariationalEntries =
    std::tuple<ExplicitVariationalEntry, ImplicitVariationalEntry,
               CompositionEntry<ExplicitVariationalEntry, ExplicitVariationalYoshida4>,
               CompositionEntry<ExplicitVariationalEntry, ExplicitVariationalYoshida6>,
               CompositionEntry<ImplicitVariationalEntry, ImplicitVariationalYoshida4>,
               CompositionEntry<ImplicitVariationalEntry, ImplicitVariationalYoshida6>>;

}  // namespace geomint
