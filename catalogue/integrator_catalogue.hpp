#pragma once
// Every integrator the bench can run, as a compile-time list of entries
// (catalogue/catalogue_entry.hpp), one file per family in catalogue/families/. Adding an
// integrator to a family is its method struct plus one line in that family's list.

#include <tuple>
#include <utility>

#include "catalogue/families/classical.hpp"
#include "catalogue/families/constrained_variational.hpp"
#include "catalogue/families/lie_group.hpp"
#include "catalogue/families/reference.hpp"
#include "catalogue/families/symplectic_lie_group.hpp"
#include "catalogue/families/variational.hpp"

namespace geomint {

using IntegratorCatalogue =
    decltype(std::tuple_cat(std::declval<ClassicalEntries>(), std::declval<VariationalEntries>(),
                            std::declval<LieGroupEntries>(), std::declval<SymplecticLieGroupEntries>(),
                            std::declval<ConstrainedVariationalEntries>(),
                            std::declval<ReferenceEntries>()));

/// Calls f.template operator()<Entry>() for every entry, in catalogue order.
template <class F>
void for_each_integrator(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<std::tuple_element_t<I, IntegratorCatalogue>>(), ...);
  }(std::make_index_sequence<std::tuple_size_v<IntegratorCatalogue>>{});
}

}  // namespace geomint
