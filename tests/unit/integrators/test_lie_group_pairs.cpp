// Label `unit`: the embedded Lie group pairs (Celledoni Section 4) with their step-size control.
//
// 1. The local error estimate of a pair of orders (p, p^) behaves as C h^(p^+1) (Celledoni
//    Section 4: e_{n+1} = C h^(p^+1) + O(h^(p^+2))): from fixed states along a trajectory,
//    the estimate of one attempted step at h = h0, h0/2, ..., h0/16 is fitted by least squares on
//    log-log data, and the slope must be p^ + 1 within 0.2 (Drake's ErrEstOrder test: the
//    ratio estimate(h) / estimate(h/2) tends to 2^(p^+1)).
// 2. Tolerance proportionality: asked for rtol = 1e-6, 1e-8, 1e-10 (atol = rtol / 100), a
//    pair's global error at T against SUNDIALS CVODE (Adams, rtol 1e-14) falls monotonically,
//    and stays within two decades of the tolerance (tol / 100 <= err <= 100 tol).
// 3. Failures are typed: a tolerance that cannot be met throws StepSizeUnderflow with the time.
//
// Problems: the double spherical pendulum (LLM Example 1) and Celledoni's N = 5 chain, whose
// preset moves in a plane; the chain's w_i are tilted by 0.5 e2 x q_i to make it 3-D.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "integrators/integrate.hpp"
#include "integrators/lie_group_methods.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/pendulum_chain.hpp"
#include "reference/cvode.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

template <class Model>
struct PairProblem {
  static constexpr const char* kPreset = "lee2009";
  static constexpr double kT = 1.0;
  static void adjust(typename Model::State&) {}
};
template <>
struct PairProblem<PendulumChain> {
  static constexpr const char* kPreset = "celledoni2021_N5";
  static constexpr double kT = 0.5;
  static void adjust(PendulumChain::State& y) {
    using Group = PendulumChain::Group;
    for (Eigen::Index i = 0; i < Group::count(y); ++i)
      Group::w(y, i) += 0.5 * Eigen::Vector3d::UnitY().cross(Eigen::Vector3d(Group::q(y, i)));
  }
};

/// A pair stepper (one attempted step) on a model, and the pair's integrator.
template <class Method, class Model, template <class, class> class Stepper>
struct PairCase {
  using M = Model;
  using StepperType = Stepper<Method, Model>;
  using Integrator = typename Method::template Integrator<Model>;
  static constexpr const Declaration& declaration = Method::declaration;
  static constexpr int kEstimatorOrder = Method::kEstimatorOrder;
};
template <class Method, class Model>
using RkmkCase = PairCase<Method, Model, RkmkPairStepper>;
template <class Method, class Model>
using CfCase = PairCase<Method, Model, CommutatorFreePairStepper>;

using PairCases = ::testing::Types<
    RkmkCase<Rkmk54Method, DoubleSphericalPendulum>, CfCase<Cf32aMethod, DoubleSphericalPendulum>,
    CfCase<Cf32bMethod, DoubleSphericalPendulum>, CfCase<Cf43Method, DoubleSphericalPendulum>,
    RkmkCase<Rkmk54Method, PendulumChain>, CfCase<Cf32aMethod, PendulumChain>,
    CfCase<Cf32bMethod, PendulumChain>, CfCase<Cf43Method, PendulumChain>>;

class CaseNames {
 public:
  template <class C>
  static std::string GetName(int) {
    return std::string(C::declaration.name) + "_on_" + std::string(C::M::kName);
  }
};

template <class C>
class LieGroupPairTest : public ::testing::Test {};
TYPED_TEST_SUITE(LieGroupPairTest, PairCases, CaseNames);

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

TYPED_TEST(LieGroupPairTest, ErrorEstimateShrinksWithTheLowerOrder) {
  using Model = typename TypeParam::M;
  using Problem = PairProblem<Model>;
  auto setup = testing::make_setup<Model>(Problem::kPreset);
  Problem::adjust(setup.initial);
  // Start states: the initial one and two later ones of an accurate RKMK4 run.
  std::vector<typename Model::State> starts{setup.initial};
  {
    const FixedStep step{1e-3};
    typename Model::State y = setup.initial;
    typename Rkmk4Method::template Integrator<Model> rkmk4(setup.model);
    integrate(rkmk4, y, 0.0, Problem::kT, step, [&](double t, const typename Model::State& s) {
      if (std::abs(t - 0.5 * Problem::kT) < 0.5e-3 || std::abs(t - Problem::kT) < 0.5e-3) starts.push_back(s);
    });
  }
  ASSERT_EQ(starts.size(), 3u);
  const double expected = TypeParam::kEstimatorOrder + 1;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    typename TypeParam::StepperType stepper(setup.model);
    typename Model::State ynew = starts[k];
    Work work;
    std::vector<std::pair<double, double>> points;
    std::string table;
    for (double h = 0.04; h > 0.04 / 17; h /= 2) {
      points.emplace_back(h, stepper.attempt(0.0, starts[k], h, ynew, work));
      table += "  h = " + sci(h) + "  estimate = " + sci(points.back().second) + "\n";
    }
    const OrderFit fit = fit_order(points, 0.0);
    SCOPED_TRACE("start state " + std::to_string(k) + "\n" + table + "fit note: " + fit.note);
    ASSERT_GE(fit.used, 4);
    EXPECT_NEAR(fit.order, expected, 0.2) << "residual " << fit.residual;
    std::printf("%s on %s, start %zu: estimate ~ h^%.3f (expected %g)\n",
                std::string(TypeParam::declaration.name).c_str(), std::string(Model::kName).c_str(),
                k, fit.order, expected);
  }
}

TYPED_TEST(LieGroupPairTest, GlobalErrorFollowsTheTolerance) {
  using Model = typename TypeParam::M;
  using Problem = PairProblem<Model>;
  auto setup = testing::make_setup<Model>(Problem::kPreset);
  Problem::adjust(setup.initial);
  IntegratorOptions tight;
  tight.tolerances.rtol = 1e-14;
  tight.tolerances.atol = 1e-16;
  tight.T = Problem::kT;
  const auto reference = testing::final_state<CvodeAdams<Model>>(setup.model, setup.initial, tight);
  double previous = INFINITY;
  std::string table;
  for (double tol : {1e-6, 1e-8, 1e-10}) {
    IntegratorOptions opt;
    opt.tolerances.rtol = tol;
    opt.tolerances.atol = tol / 100;
    opt.T = Problem::kT;
    typename TypeParam::Integrator integrator(setup.model, opt);
    auto y = setup.initial;
    integrate(integrator, y, 0.0, opt.T, [](double, const typename Model::State&) {});
    const double err = (y - reference).norm();
    table += "  rtol = " + sci(tol) + "  err = " + sci(err) + "  steps " +
             std::to_string(integrator.work().steps) + "  rejected " +
             std::to_string(integrator.work().rejected) + "\n";
    SCOPED_TRACE(table);
    EXPECT_LT(err, previous);
    EXPECT_GE(err, tol / 100);
    EXPECT_LE(err, tol * 100);
    previous = err;
  }
  std::printf("%s on %s:\n%s", std::string(TypeParam::declaration.name).c_str(),
              std::string(Model::kName).c_str(), table.c_str());
}

// rtol = atol = 1e-300 asks for a local error no step above the smallest one, 16 eps(1), meets:
// the first step fails, at t = 0.
TEST(LieGroupPair, AnUnreachableToleranceIsAStepSizeUnderflowWithTheTime) {
  auto setup = testing::make_setup<DoubleSphericalPendulum>("lee2009");
  IntegratorOptions opt;
  opt.tolerances.rtol = 1e-300;
  opt.tolerances.atol = 1e-300;
  opt.T = 1.0;
  Rkmk54Method::Integrator<DoubleSphericalPendulum> integrator(setup.model, opt);
  auto y = setup.initial;
  try {
    integrate(integrator, y, 0.0, opt.T, [](double, const auto&) {});
    FAIL() << "no failure";
  } catch (const StepSizeUnderflow& e) {
    EXPECT_EQ(e.time(), 0.0);
    EXPECT_EQ(integrator.work().steps, 0);
    EXPECT_GT(integrator.work().rejected, 0);
    EXPECT_NE(std::string(e.what()).find("rkmk54"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace geomint
