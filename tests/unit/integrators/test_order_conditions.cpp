// Label `unit`: the order-condition checker (integrators/order_conditions.hpp) against published
// tableaus of known order (each passes at its order and fails at the next), the rooted trees
// against their known counts and densities, and the commutator-free consistency checks
// (integrators/runtime_commutator_free.hpp) against the schemes of Celledoni's paper. The
// conditions a wrong tableau violates are worked out by hand in each test's comment.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "integrators/butcher_tableau.hpp"
#include "integrators/lie_group_methods.hpp"
#include "integrators/order_conditions.hpp"
#include "integrators/runtime_commutator_free.hpp"

namespace geomint {
namespace {

using Tableau = ButcherTableau<kDynamicStages>;

/// Kutta's 3/8 rule (Hairer, Norsett & Wanner I, Table II.1.2), order 4.
Tableau rule38() {
  return {.a = {{0, 0, 0, 0}, {1.0 / 3, 0, 0, 0}, {-1.0 / 3, 1, 0, 0}, {1, -1, 1, 0}},
          .b = {1.0 / 8, 3.0 / 8, 3.0 / 8, 1.0 / 8},
          .c = {0, 1.0 / 3, 2.0 / 3, 1}};
}

/// Butcher's seven-stage method of order 6 (Butcher, Numerical Methods for ODEs, 2016,
/// Section 346).
Tableau butcher6() {
  Tableau t;
  t.a.assign(7, std::vector<double>(7, 0.0));
  t.a[1][0] = 1.0 / 3;
  t.a[2][1] = 2.0 / 3;
  t.a[3] = {1.0 / 12, 1.0 / 3, -1.0 / 12, 0, 0, 0, 0};
  t.a[4] = {-1.0 / 16, 9.0 / 8, -3.0 / 16, -3.0 / 8, 0, 0, 0};
  t.a[5] = {0, 9.0 / 8, -3.0 / 8, -3.0 / 4, 1.0 / 2, 0, 0};
  t.a[6] = {9.0 / 44, -9.0 / 11, 63.0 / 44, 18.0 / 11, 0, -16.0 / 11, 0};
  t.b = {11.0 / 120, 0, 27.0 / 40, 27.0 / 40, -4.0 / 15, -4.0 / 15, 11.0 / 120};
  t.c = {0, 1.0 / 3, 2.0 / 3, 1.0 / 3, 1.0 / 2, 1.0 / 2, 1};
  return t;
}

std::string what(const std::optional<TableauDefect>& d) { return d ? d->what : "(none)"; }

TEST(RootedTrees, CountsPerOrderAreTheKnownOnes) {
  // OEIS A000081: 1, 1, 2, 4, 9, 20, 48, 115 rooted trees with 1..8 vertices.
  const auto forest = rooted_trees(kMaxCheckedOrder);
  std::vector<int> count(kMaxCheckedOrder + 1, 0);
  for (const auto& t : forest) ++count[static_cast<std::size_t>(t.order)];
  EXPECT_EQ(count, (std::vector<int>{0, 1, 1, 2, 4, 9, 20, 48, 115}));
}

TEST(RootedTrees, OrderFourInTheOrderOfHairerNorsettWannerWithTheirDensities) {
  const auto forest = rooted_trees(4);
  std::vector<std::string> brackets;
  std::vector<double> gammas;
  for (std::size_t t = 4; t < forest.size(); ++t) {
    brackets.push_back(bracket_notation(forest, t));
    gammas.push_back(forest[t].gamma);
  }
  EXPECT_EQ(brackets, (std::vector<std::string>{"[τ,τ,τ]", "[τ,[τ]]", "[[τ,τ]]", "[[[τ]]]"}));
  EXPECT_EQ(gammas, (std::vector<double>{4, 8, 12, 24}));
  EXPECT_EQ(elementary_weight_text(forest, 5), "sum b_i c_i a_ij c_j");
  EXPECT_EQ(elementary_weight_text(forest, 7), "sum b_i a_ij a_jk c_k");
}

TEST(OrderConditions, PublishedTableausPassAtTheirOrderAndFailAtTheNext) {
  const struct {
    const char* name;
    Tableau tableau;
    int order;
  } cases[] = {{"Heun", to_dynamic(kHeunTableau), 2},
               {"Kutta 3", to_dynamic(kKutta3Tableau), 3},
               {"RK4", to_dynamic(kRk4Tableau), 4},
               {"3/8 rule", rule38(), 4},
               {"Dormand-Prince 5th-order weights", to_dynamic(kDormandPrinceTableau), 5},
               {"Butcher 6", butcher6(), 6}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    for (int p = 1; p <= c.order; ++p)
      EXPECT_FALSE(tableau_defect(c.tableau, p)) << what(tableau_defect(c.tableau, p));
    const auto next = tableau_defect(c.tableau, c.order + 1);
    ASSERT_TRUE(next);
    EXPECT_EQ(next->tree_order, c.order + 1) << next->what;
  }
}

TEST(OrderConditions, APerturbedWeightFailsTheFirstConditionItBreaks) {
  // Kutta 3 with b = (1/6, 2/3 + d, 1/6 - d): sum b_i = 1 still, but
  // sum b_i c_i = (2/3 + d)/2 + 1/6 - d = 1/2 - d/2.
  Tableau t = to_dynamic(kKutta3Tableau);
  const double d = 1e-3;
  t.b[1] += d;
  t.b[2] -= d;
  const auto defect = tableau_defect(t, 3);
  ASSERT_TRUE(defect);
  EXPECT_EQ(defect->tree, "[τ]");
  EXPECT_EQ(defect->tree_order, 2);
  EXPECT_NE(
      defect->what.find(
          "order condition 'sum b_i c_i = 1/2' (order 2, tree [τ]) violated: 0.49949999999999994"),
      std::string::npos)
      << defect->what;
  EXPECT_NE(defect->what.find("0.49949999999999994 != 0.5"), std::string::npos) << defect->what;
}

TEST(OrderConditions, AnOverstatedOrderNamesTheFirstConditionOfTheNextOrderThatFails) {
  // Heun declared of order 3: sum b_i c_i^2 = 1/2 * 1 = 1/2, not 1/3.
  const auto heun = tableau_defect(to_dynamic(kHeunTableau), 3);
  ASSERT_TRUE(heun);
  EXPECT_EQ(heun->tree, "[τ,τ]");
  EXPECT_NE(heun->what.find("'sum b_i c_i^2 = 1/3' (order 3, tree [τ,τ]) violated: 0.5 != 0.333"),
            std::string::npos)
      << heun->what;
  // Kutta 3 declared of order 4: sum b_i c_i^3 = 2/3 * 1/8 + 1/6 = 1/4 holds (Simpson's rule),
  // sum b_i c_i a_ij c_j = b_3 c_3 (a_31 c_1 + a_32 c_2) = 1/6 * 1 * 1 = 1/6, not 1/8.
  const auto kutta = tableau_defect(to_dynamic(kKutta3Tableau), 4);
  ASSERT_TRUE(kutta);
  EXPECT_EQ(kutta->tree, "[τ,[τ]]");
  EXPECT_EQ(kutta->tree_order, 4);
  EXPECT_NE(kutta->what.find("'sum b_i c_i a_ij c_j = 1/8' (order 4, tree [τ,[τ]]) violated: "
                             "0.16666666666666666 != 0.125"),
            std::string::npos)
      << kutta->what;
  // RK4 declared of order 5: sum b_i c_i^4 = (2/16 + 2/16 + 1)/6 = 5/24, not 1/5.
  const auto rk4 = tableau_defect(to_dynamic(kRk4Tableau), 5);
  ASSERT_TRUE(rk4);
  EXPECT_EQ(rk4->tree, "[τ,τ,τ,τ]");
}

TEST(OrderConditions, DigitsMissingFromACoefficientAreNoticed) {
  // Dormand-Prince's weights to ten significant digits: off by ~1e-11, above the tolerance.
  Tableau t = to_dynamic(kDormandPrinceTableau);
  for (double& w : t.b) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%.10g", w);
    w = std::stod(digits);
  }
  EXPECT_TRUE(tableau_defect(t, 5));
}

TEST(OrderConditions, MalformedTableausAreRefusedBeforeAnyCondition) {
  Tableau t = to_dynamic(kRk4Tableau);
  t.a[1][1] = 0.25;  // implicit
  EXPECT_NE(what(tableau_defect(t, 1)).find("a_2,2 = 0.25 on or above the diagonal"),
            std::string::npos)
      << what(tableau_defect(t, 1));
  t = to_dynamic(kRk4Tableau);
  t.b.pop_back();
  EXPECT_NE(what(tableau_defect(t, 1)).find("a has 4 rows but b has 3 weights"), std::string::npos);
  t = to_dynamic(kRk4Tableau);
  t.a[2].pop_back();
  EXPECT_NE(what(tableau_defect(t, 1)).find("row 3 of a has 3 entries, not 4"), std::string::npos);
  t = to_dynamic(kRk4Tableau);
  t.a[3][2] = std::nan("");
  EXPECT_NE(what(tableau_defect(t, 1)).find("a_4,3 is not finite"), std::string::npos);
  t = to_dynamic(kRk4Tableau);
  t.c[2] = 0.6;
  EXPECT_NE(what(tableau_defect(t, 1)).find("c_3 = 0.6 is not the row sum of a, sum_j a_3j = 0.5"),
            std::string::npos)
      << what(tableau_defect(t, 1));
  EXPECT_NE(what(tableau_defect(to_dynamic(kRk4Tableau), 9)).find("orders 1 to 8"),
            std::string::npos);
  EXPECT_TRUE(tableau_defect(Tableau{}, 1));
}

TEST(CommutatorFreeConsistency, CelledonisSchemesPassAtTheirOrder) {
  EXPECT_FALSE(commutator_free_defect(to_dynamic(kCf32aScheme), {0, 1.0 / 3, 2.0 / 3}, 3));
  auto cf4 = to_dynamic(kCf43Scheme);
  cf4.stages.pop_back();  // CF4 alone: the first four stages of CF(4,3)
  for (auto* point : {&cf4.stages[0], &cf4.stages[1], &cf4.stages[2], &cf4.stages[3], &cf4.update})
    for (auto& row : point->alpha) row.pop_back();
  EXPECT_FALSE(commutator_free_defect(cf4, {0, 0.5, 0.5, 1}, 4))
      << what(commutator_free_defect(cf4, {}, 4));
  EXPECT_FALSE(commutator_free_defect(to_dynamic(kCrouchGrossman3Scheme), {}, 3));
  // On a commutative group CF4 is RK4 (its b: (3 - 1, 2 + 2, 2 + 2, -1 + 3)/12), so order 5 fails.
  EXPECT_TRUE(commutator_free_defect(cf4, {}, 5));
}

TEST(CommutatorFreeConsistency, InconsistentSchemesAreRefusedWithThePlaceNamed) {
  auto s = to_dynamic(kCf32aScheme);
  s.update.alpha[0][2] = 0.7;  // the update's weights now sum to 1/3 - 1/12 + 0.7
  EXPECT_NE(
      what(commutator_free_defect(s, {}, 3)).find("the update's weights (with its base's) sum to"),
      std::string::npos);
  s = to_dynamic(kCf32aScheme);
  s.stages[1].alpha[0][1] = 0.1;  // Y_2 would use f_2
  EXPECT_NE(
      what(commutator_free_defect(s, {}, 3)).find("stage 2, exponential 1: weight 0.1 of f_2"),
      std::string::npos);
  s = to_dynamic(kCf32aScheme);
  s.stages[2].base = 2;  // Y_3 built on itself
  EXPECT_NE(
      what(commutator_free_defect(s, {}, 3)).find("stage 3: its base 3 is not an earlier stage"),
      std::string::npos);
  s = to_dynamic(kCf32aScheme);
  EXPECT_NE(what(commutator_free_defect(s, {0, 0.5, 2.0 / 3}, 3)).find("stage 2: its weights"),
            std::string::npos);
  // CF3 with Y_3 = exp(h (1/10 f_1 + 17/30 f_2)) . y_n instead of exp(2/3 h f_2) . y_n: the same
  // node 2/3, so sum b_i c_i = 1/2 and sum b_i c_i^2 = 1/3 still hold (b = 1/4, 0, 3/4), but
  // sum b_i a_ij c_j = b_3 a_32 c_2 = 3/4 * 17/30 * 1/3 = 17/120, not 1/6.
  s = to_dynamic(kCf32aScheme);
  s.stages[2].alpha[0][0] = 0.1;
  s.stages[2].alpha[0][1] = 17.0 / 30;
  const auto d = commutator_free_defect(s, {}, 3);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->tree, "[[τ]]") << d->what;
}

}  // namespace
}  // namespace geomint
