// Label `manifold`: every Lie group method keeps the state on (TS^2)^n up to round-off, as its
// declaration (stays_on_manifold) promises: over 10^4 steps, max_i |‖q_i‖ - 1| and
// max_i |q_i . w_i| stay below 1e-13 at every step.
//
// The cases are every entry of the Lie group catalogue (studies/catalogue/lie_group.hpp) on the
// double spherical pendulum (LLM Example 1, h = 0.01) and on Celledoni's N = 5 chain (h = 0.001:
// Lie-Euler's energy grows until the state overflows at t = 16.7 with h = 0.01), so a new Lie
// group method joins this suite by being catalogued. Fixed-step methods take 10^4 steps of h;
// adaptive ones take 10^4 accepted steps at rtol = 1e-8, atol = 1e-10. Celledoni's initial
// condition for the chain, (q_i, w_i) = (sqrt2/2, 0, sqrt2/2, 0, 1, 0), moves in the x-z plane,
// where q_i . w_i = 0 holds exactly (q_i has no y, w_i only y); the test tilts every w_i by
// 0.5 e2 x q_i (still tangent) so that the motion is three-dimensional.
//
// Why 1e-13: each step applies one rotation (and, to w, one cross product) per body to the
// state, whose rounding moves ‖q_i‖ by ~1e-16 and q_i . w_i by ~1e-16 |w_i|; the action
// preserves both exactly, so over 10^4 steps these roundings add up like a random walk,
// ~1e-14 for |w_i| of a few rad/s. A method that left the manifold at its local error (as RK4
// does) would be off by 1e-8 or more here. The tangency defect q_i . w_i carries the units of
// w (rad/s) and its round-off scales with |w_i|: the bound is 1e-13 per rad/s of the largest
// speed reached, when that exceeds 1 rad/s. On the double pendulum (|w_i| <= 3.7) the measured
// defects are below 3e-14; on the tilted chain |w_i| reaches 26 rad/s and q_i . w_i 1.8e-13,
// i.e. 7e-15 per rad/s.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <string>
#include <tuple>

#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/pendulum_chain.hpp"
#include "studies/catalogue/lie_group.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

constexpr std::int64_t kSteps = 10000;
constexpr double kBound = 1e-13;

/// Per model: the preset, the fixed step, and the initial state.
template <class Model>
struct ManifoldProblem {
  static constexpr const char* kPreset = "lee2009";
  static constexpr double kStep = 0.01;
  static void adjust(typename Model::State&) {}
};
template <>
struct ManifoldProblem<PendulumChain> {
  static constexpr const char* kPreset = "celledoni2021_N5";
  static constexpr double kStep = 0.001;
  static void adjust(PendulumChain::State& y) {
    using Group = PendulumChain::Group;
    for (Eigen::Index i = 0; i < Group::count(y); ++i)
      Group::w(y, i) += 0.5 * Eigen::Vector3d::UnitY().cross(Eigen::Vector3d(Group::q(y, i)));
  }
};

template <class Entry, class Model>
struct ManifoldCase {
  using E = Entry;
  using M = Model;
};

template <class Tuple, class Model>
struct CasesOn;
template <class... Entries, class Model>
struct CasesOn<std::tuple<Entries...>, Model> {
  using type = std::tuple<ManifoldCase<Entries, Model>...>;
};
template <class Tuple>
struct AsTypes;
template <class... Cases>
struct AsTypes<std::tuple<Cases...>> {
  using type = ::testing::Types<Cases...>;
};
using ManifoldCases = AsTypes<decltype(std::tuple_cat(
    std::declval<CasesOn<LieGroupEntries, DoubleSphericalPendulum>::type>(),
    std::declval<CasesOn<LieGroupEntries, PendulumChain>::type>()))>::type;

class CaseNames {
 public:
  template <class C>
  static std::string GetName(int) {
    return std::string(C::E::declaration.name) + "_on_" + std::string(C::M::kName);
  }
};

template <class C>
class LieGroupManifoldTest : public ::testing::Test {};
TYPED_TEST_SUITE(LieGroupManifoldTest, ManifoldCases, CaseNames);

TYPED_TEST(LieGroupManifoldTest, StaysOnTheManifoldForTenThousandSteps) {
  using Model = typename TypeParam::M;
  using Integrator = typename TypeParam::E::template type<Model>;
  using State = typename Model::State;
  static_assert(Integrator::declaration.stays_on_manifold, "a Lie group method promises it");
  using Problem = ManifoldProblem<Model>;
  const auto setup = testing::make_setup<Model>(Problem::kPreset);
  double unit = 0.0, tangency = 0.0, w_max = 0.0, t = 0.0;
  State y = setup.initial;
  Problem::adjust(y);
  const auto record = [&](double, const State& s) {
    unit = std::max(unit, Model::unit_length_defect(s));
    tangency = std::max(tangency, Model::tangency_defect(s));
    w_max = std::max(w_max, Model::velocities(s).colwise().norm().maxCoeff());
  };
  IntegratorOptions opt;
  std::int64_t steps = 0;
  if constexpr (Integrator::declaration.adaptive) {
    opt.rtol = 1e-8;
    opt.atol = 1e-10;
    opt.T = 1e6;  // never reached: the loop stops after kSteps accepted steps
    Integrator integrator(setup.model, opt);
    while (integrator.work().steps < kSteps) integrator.advance(t, y, opt.T, record);
    steps = integrator.work().steps;
  } else {
    opt.h = Problem::kStep;
    opt.T = Problem::kStep * kSteps;
    Integrator integrator(setup.model, opt);
    integrate(integrator, y, 0.0, opt.T, record);
    steps = integrator.work().steps;
    t = opt.T;
  }
  SCOPED_TRACE("steps " + std::to_string(steps) + " to t = " + std::to_string(t) +
               ", largest |w_i| " + std::to_string(w_max));
  ASSERT_EQ(steps, kSteps);
  EXPECT_LT(unit, kBound);
  EXPECT_LT(tangency, kBound * std::max(1.0, w_max));
  std::printf("%s: max |‖q‖-1| = %.2e, max |q.w| = %.2e (max |w| %.3g, t = %.4g)\n",
              std::string(Integrator::declaration.name).c_str(), unit, tangency, w_max, t);
}

}  // namespace
}  // namespace geomint
