#pragma once
// The Lie group methods: tableau + declaration + dexpinv variant.

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/rkmk.hpp"

namespace geomint {

struct Rkmk4Method {
  static constexpr auto& tableau = kRk4Tableau;
  static constexpr int kDexpinvPower = -1;  // exact dexpinv
  static constexpr Declaration declaration{
      "rkmk4", "RKMK with the classical RK4 tableau and the exact dexpinv (Celledoni 2.2-2.3)",
      Family::LieGroup, 4, false, false, false, true};
};

template <LieGroupOde M>
using Rkmk4 = Rkmk<Rkmk4Method, M>;

}  // namespace geomint
