#pragma once
// The classical order conditions of an explicit Runge-Kutta tableau, generated from rooted trees
// rather than typed: the method has order p iff for every rooted tree t with |t| <= p
//   sum_i b_i Phi_i(t) = 1 / gamma(t)
// (Butcher 1963; Hairer, Norsett & Wanner I, Theorem II.2.13), where the elementary weight
// Phi(t) of t = [t_1, ..., t_m] is the componentwise product Phi(t) = (A Phi(t_1)) ... (A
// Phi(t_m)), Phi(tau) = (1, ..., 1), and the density gamma(t) = |t| gamma(t_1) ... gamma(t_m),
// gamma(tau) = 1. With c = A 1 (row-sum consistency, checked first) this is the familiar form, e.g.
// for [tau, [tau]]: sum b_i c_i a_ij c_j = 1/8.
//
// The same conditions serve RKMK methods: with an exact dexpinv, RKMK has the order of its
// tableau (Munthe-Kaas 1999; Celledoni Section 2.2). A commutator-free method reduces on a
// commutative group, where its exponentials commute, to the classical method with
// a_r^k = sum_j alpha_{r,j}^k and b_k = sum_j beta_j^k (Celledoni 2.2), whose conditions are
// therefore necessary; the further conditions of the non-commutative case (Owren 2006) are not
// checked here (integrators/runtime_commutator_free.hpp).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "integrators/butcher_tableau.hpp"

namespace geomint {

/// The highest order whose conditions are generated (200 trees; 37 up to order 6).
inline constexpr int kMaxCheckedOrder = 8;

/// A condition holds when |computed - required| <= kOrderConditionTolerance * scale, the scale
/// being max(1, the same sum with every coefficient replaced by its absolute value).
inline constexpr double kOrderConditionTolerance = 1e-12;

/// A rooted tree as the multiset of its root's subtrees (indices of earlier trees of a forest,
/// non-decreasing); the one-vertex tree tau has none.
struct RootedTree {
  std::vector<std::size_t> children;
  int order = 1;       // |t|, the number of vertices
  double gamma = 1.0;  // the density gamma(t)
};

namespace detail {

/// Appends every tree whose children, in non-decreasing index order from `first`, have orders
/// summing to `remaining` (with `chosen` already among the children) to `out`.
inline void append_trees(const std::vector<RootedTree>& forest, int order, std::size_t first,
                         int remaining, std::vector<std::size_t>& chosen,
                         std::vector<RootedTree>& out) {
  if (remaining == 0) {
    RootedTree t{chosen, order, static_cast<double>(order)};
    for (std::size_t c : chosen) t.gamma *= forest[c].gamma;
    out.push_back(std::move(t));
    return;
  }
  for (std::size_t i = first; i < forest.size() && forest[i].order <= remaining; ++i) {
    chosen.push_back(i);
    append_trees(forest, order, i, remaining - forest[i].order, chosen, out);
    chosen.pop_back();
  }
}

/// The shortest text that reads back as v.
inline std::string number_text(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

}  // namespace detail

/// Every rooted tree of order 1 to max_order: by increasing order, and within an order by the
/// sequence of its children's indices, lexicographically, which is the order of Hairer, Norsett
/// & Wanner I, Table II.2.1 (order 4: [tau,tau,tau], [tau,[tau]], [[tau,tau]], [[[tau]]]).
/// Trees are only ever appended, so children come before their parents.
inline std::vector<RootedTree> rooted_trees(int max_order) {
  std::vector<RootedTree> forest;
  if (max_order >= 1) forest.push_back({});
  std::vector<std::size_t> chosen;
  for (int n = 2; n <= max_order; ++n) {
    std::vector<RootedTree> of_order;
    detail::append_trees(forest, n, 0, n - 1, chosen, of_order);
    forest.insert(forest.end(), of_order.begin(), of_order.end());
  }
  return forest;
}

/// Butcher's bracket notation: tau, [tau], [tau,[tau]], ...
inline std::string bracket_notation(const std::vector<RootedTree>& forest, std::size_t t) {
  if (forest[t].children.empty()) return "τ";
  std::string s = "[";
  for (std::size_t k = 0; k < forest[t].children.size(); ++k) {
    if (k > 0) s += ',';
    s += bracket_notation(forest, forest[t].children[k]);
  }
  s += ']';
  return s;
}

/// The condition's left-hand side with c_i = sum_j a_ij, e.g. "sum b_i c_i a_ij c_j".
inline std::string elementary_weight_text(const std::vector<RootedTree>& forest, std::size_t t) {
  static constexpr std::string_view kIndices = "ijklmnpqrs";
  std::size_t next = 0;
  const auto factors = [&](const auto& self, std::size_t tree, char index) -> std::string {
    std::string s;
    int leaves = 0;
    for (std::size_t c : forest[tree].children) leaves += forest[c].children.empty();
    if (leaves > 0)
      s += std::string(" c_") + index + (leaves > 1 ? "^" + std::to_string(leaves) : "");
    for (std::size_t c : forest[tree].children) {
      if (forest[c].children.empty()) continue;
      const char inner = kIndices[++next];
      s += std::string(" a_") + index + inner + self(self, c, inner);
    }
    return s;
  };
  return "sum b_i" + factors(factors, t, kIndices[0]);
}

/// The first way a tableau fails to be an explicit Runge-Kutta method of the declared order.
struct TableauDefect {
  std::string what;  // one line: the condition, the computed and the required value
  std::string tree;  // the violated order condition's tree (bracket notation), else empty
  int tree_order = 0;
};

/// Checks, in this order, and reports the first failure: s >= 1 stages with A s x s and b, c
/// of length s; finite entries; A strictly lower triangular (explicit); c_i = sum_j a_ij; then
/// the order conditions of every rooted tree up to `order` (1 <= order <= kMaxCheckedOrder),
/// in the order of rooted_trees().
inline std::optional<TableauDefect> tableau_defect(const ButcherTableau<kDynamicStages>& tab,
                                                   int order) {
  const auto fail = [](std::string what) { return TableauDefect{std::move(what), {}, 0}; };
  const std::size_t s = tab.b.size();
  if (s == 0) return fail("b is empty: a method has at least one stage");
  if (tab.a.size() != s)
    return fail("a has " + std::to_string(tab.a.size()) + " rows but b has " + std::to_string(s) +
                " weights");
  for (std::size_t i = 0; i < s; ++i)
    if (tab.a[i].size() != s)
      return fail("row " + std::to_string(i + 1) + " of a has " + std::to_string(tab.a[i].size()) +
                  " entries, not " + std::to_string(s));
  if (tab.c.size() != s)
    return fail("c has " + std::to_string(tab.c.size()) + " nodes but b has " + std::to_string(s) +
                " weights");
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t j = 0; j < s; ++j)
      if (!std::isfinite(tab.a[i][j]))
        return fail("a_" + std::to_string(i + 1) + "," + std::to_string(j + 1) + " is not finite");
  for (std::size_t i = 0; i < s; ++i)
    if (!std::isfinite(tab.b[i])) return fail("b_" + std::to_string(i + 1) + " is not finite");
  for (std::size_t i = 0; i < s; ++i)
    if (!std::isfinite(tab.c[i])) return fail("c_" + std::to_string(i + 1) + " is not finite");
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t j = i; j < s; ++j)
      if (tab.a[i][j] != 0.0)
        return fail("a_" + std::to_string(i + 1) + "," + std::to_string(j + 1) + " = " +
                    detail::number_text(tab.a[i][j]) +
                    " on or above the diagonal: an explicit method has a strictly lower "
                    "triangular a");
  for (std::size_t i = 0; i < s; ++i) {
    double sum = 0.0, scale = 1.0;
    for (std::size_t j = 0; j < i; ++j) {
      sum += tab.a[i][j];
      scale += std::abs(tab.a[i][j]);
    }
    if (std::abs(tab.c[i] - sum) > kOrderConditionTolerance * scale)
      return fail("c_" + std::to_string(i + 1) + " = " + detail::number_text(tab.c[i]) +
                  " is not the row sum of a, sum_j a_" + std::to_string(i + 1) +
                  "j = " + detail::number_text(sum));
  }
  if (order < 1 || order > kMaxCheckedOrder)
    return fail("order " + std::to_string(order) +
                ": the order conditions are checked for "
                "orders 1 to " +
                std::to_string(kMaxCheckedOrder));

  // Per tree: Phi(t), and the same with |a_ij| (for the scale of the condition's sum), and
  // A Phi(t) for its parents.
  const std::vector<RootedTree> forest = rooted_trees(order);
  std::vector<std::vector<double>> a_phi(forest.size()), a_phi_abs(forest.size());
  for (std::size_t t = 0; t < forest.size(); ++t) {
    std::vector<double> phi(s, 1.0), phi_abs(s, 1.0);
    for (std::size_t child : forest[t].children)
      for (std::size_t i = 0; i < s; ++i) {
        phi[i] *= a_phi[child][i];
        phi_abs[i] *= a_phi_abs[child][i];
      }
    double value = 0.0, scale = 0.0;
    for (std::size_t i = 0; i < s; ++i) {
      value += tab.b[i] * phi[i];
      scale += std::abs(tab.b[i]) * phi_abs[i];
    }
    const double required = 1.0 / forest[t].gamma;
    if (std::abs(value - required) > kOrderConditionTolerance * std::max(1.0, scale)) {
      const std::string tree = bracket_notation(forest, t);
      const std::string required_text =
          forest[t].gamma == 1.0 ? "1" : "1/" + detail::number_text(forest[t].gamma);
      return TableauDefect{"order condition '" + elementary_weight_text(forest, t) + " = " +
                               required_text + "' (order " + std::to_string(forest[t].order) +
                               ", tree " + tree + ") violated: " + detail::number_text(value) +
                               " != " + detail::number_text(required),
                           tree, forest[t].order};
    }
    a_phi[t].assign(s, 0.0);
    a_phi_abs[t].assign(s, 0.0);
    for (std::size_t i = 0; i < s; ++i)
      for (std::size_t j = 0; j < i; ++j) {
        a_phi[t][i] += tab.a[i][j] * phi[j];
        a_phi_abs[t][i] += std::abs(tab.a[i][j]) * phi_abs[j];
      }
  }
  return std::nullopt;
}

}  // namespace geomint
