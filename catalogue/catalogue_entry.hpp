#pragma once
// What one line of the integrator catalogue is: an entry names the integrator's declaration, the
// view of a model it needs (a ViewDescriptor of models/views.hpp) and the integrator type on a
// model that offers it:
//
//   struct Entry {
//     static constexpr const Declaration& declaration;
//     using View = view::AmbientOde;             // the view it needs
//     template <class M> using type = ...;       // the integrator on M
//   };
//
// So the integrator x model matrix follows from the concepts: a pair that cannot run is reported
// "n/a: <model> has no <View::name> view".

#include <concepts>
#include <tuple>

#include "integrators/declaration.hpp"
#include "models/views.hpp"

namespace geomint {

template <class E>
concept CatalogueEntry = ViewDescriptor<typename E::View> && requires {
  { E::declaration } -> std::same_as<const Declaration&>;
};

/// Does model type M offer the view that entry E needs?
template <CatalogueEntry E, class M>
inline constexpr bool runs_on = E::View::template offered_by<M>;

/// A family's entries: a type that is not a CatalogueEntry is refused here, by name.
template <CatalogueEntry... E>
using CatalogueList = std::tuple<E...>;

}  // namespace geomint
