#pragma once
// Catalogue entries of the reference integrators (see studies/integrator_catalogue.hpp for what
// an entry is).

#include <string_view>
#include <tuple>

#include "reference/cvode.hpp"
#include "models/views.hpp"

namespace geomint {

struct CvodeEntry {
  static constexpr const Declaration& declaration = kCvodeBdfDeclaration;
  static constexpr std::string_view needs = view::kAmbientOde;
  template <class M>
  static constexpr bool runs_on = AmbientOde<M>;
  template <class M>
  using type = Cvode<M>;
};

using ReferenceEntries = std::tuple<CvodeEntry>;

}  // namespace geomint
