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
      "vi_implicit_y4", "implicit VI (LLM Cor. 2) composed by Yoshida's triple jump, order 4",
      Family::Variational, 4, false, true, true, true};
};
struct ImplicitVariationalYoshida6 {
  using Scheme = Yoshida6;
  static constexpr Declaration declaration{
      "vi_implicit_y6", "implicit VI (LLM Cor. 2) composed by Yoshida's 7-stage scheme, order 6",
      Family::Variational, 6, false, true, true, true};
};
struct ExplicitVariationalYoshida4 {
  using Scheme = Yoshida4;
  static constexpr Declaration declaration{
      "vi_explicit_y4", "explicit VI (LLM Cor. 3) composed by Yoshida's triple jump, order 4",
      Family::Variational, 4, false, true, true, true};
};
struct ExplicitVariationalYoshida6 {
  using Scheme = Yoshida6;
  static constexpr Declaration declaration{
      "vi_explicit_y6", "explicit VI (LLM Cor. 3) composed by Yoshida's 7-stage scheme, order 6",
      Family::Variational, 6, false, true, true, true};
};

}  // namespace geomint
