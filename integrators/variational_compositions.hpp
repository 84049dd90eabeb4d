#pragma once
// Higher-order variational integrators on (S^2)^n: Yoshida's compositions of the explicit and
// implicit VIs (LLM Section 3.4: "higher-order integrators can be easily constructed by applying
// a symmetric composition method").

#include "integrators/composition.hpp"
#include "integrators/variational_explicit.hpp"
#include "integrators/variational_implicit.hpp"

namespace geomint {

struct ImplicitVariationalYoshida4 {
  using Scheme = Yoshida4;
  static constexpr Declaration declaration{
      .name = "vi_implicit_y4",
      .description = "implicit VI (LLM Cor. 2) composed by Yoshida's triple jump, order 4",
      .family = Family::Variational, .order = 4,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};
struct ImplicitVariationalYoshida6 {
  using Scheme = Yoshida6;
  static constexpr Declaration declaration{
      .name = "vi_implicit_y6",
      .description = "implicit VI (LLM Cor. 2) composed by Yoshida's 7-stage scheme, order 6",
      .family = Family::Variational, .order = 6,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};
struct ExplicitVariationalYoshida4 {
  using Scheme = Yoshida4;
  static constexpr Declaration declaration{
      .name = "vi_explicit_y4",
      .description = "explicit VI (LLM Cor. 3) composed by Yoshida's triple jump, order 4",
      .family = Family::Variational, .order = 4,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};
struct ExplicitVariationalYoshida6 {
  using Scheme = Yoshida6;
  static constexpr Declaration declaration{
      .name = "vi_explicit_y6",
      .description = "explicit VI (LLM Cor. 3) composed by Yoshida's 7-stage scheme, order 6",
      .family = Family::Variational, .order = 6,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};

}  // namespace geomint
