#pragma once
// A commutator-free Lie group method whose scheme is data given at run time (a method a study
// spec defines by its coefficients, studies/README.md). CommutatorFree<RuntimeCfMethod, M>
// (integrators/commutator_free.hpp) steps it with the stages of the built-in commutator-free
// methods; only the coefficients and the declaration are per object.
//
// What the spec reader checks where it reads it (studies/spec_methods.cpp,
// commutator_free_defect): the scheme's shape and consistency
// (Celledoni 2.2: each stage's weights, with its base's, sum to its node c_r; the update's to 1)
// and the classical order conditions of the Runge-Kutta method it reduces to on a commutative
// group, which are necessary. The further order conditions of the non-commutative case (Owren
// 2006) are not checked: the order test (tests/order/test_user_method_order.cpp) verifies them.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "integrators/butcher_tableau.hpp"
#include "integrators/commutator_free.hpp"
#include "integrators/declaration.hpp"
#include "integrators/order_conditions.hpp"

namespace geomint {

/// What a built-in commutator-free method struct (integrators/lie_group_methods.hpp) gives as
/// constants (without an embedded update). The declaration's strings are owned by whoever owns
/// the method (studies/user_method.hpp).
struct RuntimeCfMethod {
  Declaration declaration;
  CommutatorFreeScheme<kDynamicStages> scheme;
};

/// The classical method the scheme is on a commutative group, where its exponentials commute
/// and combine: a_r^k = sum_j alpha_{r,j}^k over stage r's exponentials and its base's,
/// b_k = the same for the update, c = A 1 (Celledoni 2.2). The scheme must be well formed
/// (commutator_free_defect checks that first).
inline ButcherTableau<kDynamicStages> commutative_tableau(
    const CommutatorFreeScheme<kDynamicStages>& scheme) {
  const std::size_t s = scheme.stages.size();
  ButcherTableau<kDynamicStages> tab;
  tab.a.assign(s, std::vector<double>(s, 0.0));
  const auto total = [&](const CfPoint<kDynamicStages>& p) {
    std::vector<double> w = p.base == kFromStart ? std::vector<double>(s, 0.0)
                                                 : tab.a[static_cast<std::size_t>(p.base)];
    for (const auto& row : p.alpha)
      for (std::size_t k = 0; k < s; ++k) w[k] += row[k];
    return w;
  };
  for (std::size_t r = 0; r < s; ++r) tab.a[r] = total(scheme.stages[r]);
  tab.b = total(scheme.update);
  tab.c.assign(s, 0.0);
  for (std::size_t r = 0; r < s; ++r)
    for (std::size_t k = 0; k < r; ++k) tab.c[r] += tab.a[r][k];
  return tab;
}

/// The first way `scheme` fails to be an explicit commutator-free method of the declared order,
/// as far as that is checked: s >= 1 stages; every exponential has s finite weights; a stage's
/// base is an earlier stage, the update's any stage; stage r uses the fields f_k of earlier
/// stages only; the nodes, when given (else empty), are the stages' total weights; the update's
/// total weights sum to 1; and the method of commutative_tableau() has the declared classical
/// order. Stages are numbered from 1 in the messages, as Y_{n,r} in Celledoni (9).
inline std::optional<TableauDefect> commutator_free_defect(
    const CommutatorFreeScheme<kDynamicStages>& scheme, const std::vector<double>& nodes,
    int order) {
  const auto fail = [](std::string what) { return TableauDefect{std::move(what), {}, 0}; };
  const std::size_t s = scheme.stages.size();
  if (s == 0) return fail("no stages: a method has at least one");
  const auto point_defect = [&](const CfPoint<kDynamicStages>& p, const std::string& what,
                                std::size_t uses_below) -> std::optional<TableauDefect> {
    if (p.base != kFromStart && (p.base < 0 || static_cast<std::size_t>(p.base) >= uses_below))
      return fail(what + ": its base " + std::to_string(p.base + 1) + " is not " +
                  (uses_below == s ? "a stage" : "an earlier stage"));
    if (p.alpha.size() != p.exponentials)
      return fail(what + ": " + std::to_string(p.alpha.size()) + " rows of weights for " +
                  std::to_string(p.exponentials) + " exponentials");
    for (std::size_t j = 0; j < p.alpha.size(); ++j) {
      const std::string exp = what + ", exponential " + std::to_string(j + 1);
      if (p.alpha[j].size() != s)
        return fail(exp + ": " + std::to_string(p.alpha[j].size()) +
                    " weights, not one per stage (" + std::to_string(s) + ")");
      for (std::size_t k = 0; k < s; ++k) {
        if (!std::isfinite(p.alpha[j][k]))
          return fail(exp + ": the weight of f_" + std::to_string(k + 1) + " is not finite");
        if (k >= uses_below && p.alpha[j][k] != 0.0)
          return fail(exp + ": weight " + detail::number_text(p.alpha[j][k]) + " of f_" +
                      std::to_string(k + 1) +
                      ", but a stage can only use the fields of earlier stages");
      }
    }
    return std::nullopt;
  };
  for (std::size_t r = 0; r < s; ++r)
    if (auto d = point_defect(scheme.stages[r], "stage " + std::to_string(r + 1), r)) return d;
  if (auto d = point_defect(scheme.update, "the update", s)) return d;

  const ButcherTableau<kDynamicStages> tab = commutative_tableau(scheme);
  if (!nodes.empty()) {
    if (nodes.size() != s)
      return fail("c has " + std::to_string(nodes.size()) + " nodes for " + std::to_string(s) +
                  " stages");
    for (std::size_t r = 0; r < s; ++r) {
      double scale = 1.0;
      for (double a : tab.a[r]) scale += std::abs(a);
      if (!(std::abs(nodes[r] - tab.c[r]) <= kOrderConditionTolerance * scale))
        return fail("stage " + std::to_string(r + 1) + ": its weights (with its base's) sum to " +
                    detail::number_text(tab.c[r]) + ", not to its node c_" + std::to_string(r + 1) +
                    " = " + detail::number_text(nodes[r]));
    }
  }
  double sum = 0.0, scale = 1.0;
  for (double w : tab.b) {
    sum += w;
    scale += std::abs(w);
  }
  if (std::abs(sum - 1.0) > kOrderConditionTolerance * scale)
    return fail("the update's weights (with its base's) sum to " + detail::number_text(sum) +
                ", not 1");
  if (auto d = tableau_defect(tab, order)) {
    d->what =
        "on a commutative group it is the Runge-Kutta method with these total weights, "
        "and its " +
        d->what;
    return d;
  }
  return std::nullopt;
}

}  // namespace geomint
