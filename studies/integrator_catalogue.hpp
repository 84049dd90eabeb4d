#pragma once
// Every integrator the bench can run, as a compile-time list of entries, one file per family
// in studies/catalogue/. An entry names its declaration, the view it needs and whether a model
// type offers it, and the integrator type for that model:
//
//   struct Entry {
//     static constexpr const Declaration& declaration;
//     static constexpr std::string_view needs;          // the view, e.g. "AmbientOde"
//     template <class M> static constexpr bool runs_on; // does M offer it?
//     template <class M> using type;                    // the integrator on M
//   };
//
// So the integrator x model matrix follows from the concepts: a pair that cannot run is
// reported "n/a: <model> has no <view> view".

#include <tuple>
#include <utility>

#include "studies/catalogue/classical.hpp"
#include "studies/catalogue/constrained_variational.hpp"
#include "studies/catalogue/lie_group.hpp"
#include "studies/catalogue/reference.hpp"
#include "studies/catalogue/symplectic_lie_group.hpp"
#include "studies/catalogue/variational.hpp"

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
