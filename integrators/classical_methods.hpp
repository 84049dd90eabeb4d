#pragma once
// The classical fixed-step methods: tableau + declaration + whether to reproject.

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"

namespace geomint {

struct Rk2Method {
  static constexpr auto& tableau = kMidpointTableau;
  static constexpr bool kReproject = false;
  static constexpr Declaration declaration{
      .name = "rk2",
      .description = "explicit midpoint rule (RK2) on the ambient ODE",
      .family = Family::Classical, .order = 2};
};

struct Rk2ProjectedMethod {
  static constexpr auto& tableau = kMidpointTableau;
  static constexpr bool kReproject = true;
  static constexpr Declaration declaration = reprojected(
      Rk2Method::declaration, "rk2_proj",
      "explicit midpoint rule (RK2), then q_i normalised and w_i projected on T_{q_i}S^2");
};

struct Rk4Method {
  static constexpr auto& tableau = kRk4Tableau;
  static constexpr bool kReproject = false;
  static constexpr Declaration declaration{
      .name = "rk4",
      .description = "classical Runge-Kutta 4 on the ambient ODE",
      .family = Family::Classical, .order = 4};
};

struct Rk4ProjectedMethod {
  static constexpr auto& tableau = kRk4Tableau;
  static constexpr bool kReproject = true;
  static constexpr Declaration declaration = reprojected(
      Rk4Method::declaration, "rk4_proj",
      "classical Runge-Kutta 4, then q_i normalised and w_i projected on T_{q_i}S^2");
};

template <AmbientOde M>
using Rk2 = ExplicitRk<Rk2Method, M>;
template <AmbientOde M>
using Rk2Projected = ExplicitRk<Rk2ProjectedMethod, M>;
template <AmbientOde M>
using Rk4 = ExplicitRk<Rk4Method, M>;
template <AmbientOde M>
using Rk4Projected = ExplicitRk<Rk4ProjectedMethod, M>;

}  // namespace geomint
