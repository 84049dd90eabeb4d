#pragma once
// Higher-order symplectic Lie group integrators: Yoshida's compositions of the symmetric
// theta = 1/2 method of Celledoni (15)-(17), the same schemes the variational integrators use
// (integrators/composition.hpp). Beyond the paper; composition keeps the method symplectic on
// T*G and symmetric.

#include "integrators/composition.hpp"
#include "integrators/symplectic_lie_group.hpp"

namespace geomint {

struct SlgiThetaHalfYoshida4 {
  using Scheme = Yoshida4;
  static constexpr Declaration declaration{
      .name = "slgi_theta_half_y4",
      .description =
          "symplectic Lie group integrator theta = 1/2 (Celledoni (15)-(17)) composed by Yoshida's "
          "triple jump, order 4",
      .family = Family::SymplecticLieGroup, .order = 4,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};
struct SlgiThetaHalfYoshida6 {
  using Scheme = Yoshida6;
  static constexpr Declaration declaration{
      .name = "slgi_theta_half_y6",
      .description =
          "symplectic Lie group integrator theta = 1/2 (Celledoni (15)-(17)) composed by Yoshida's "
          "7-stage scheme, order 6",
      .family = Family::SymplecticLieGroup, .order = 6,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};

}  // namespace geomint
