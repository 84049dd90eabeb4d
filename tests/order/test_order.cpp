// Label `order`: every fixed-step integrator reaches the order it declares, within +-0.2,
// on nonlinear problems, measured against SUNDIALS CVODE at tight tolerance.
//
// Global error at T for five steps h0, h0/2, ..., h0/16, fitted by least squares on log-log data
// over the points above the reference's own error (studies/metrics.hpp: fit_order). T and h0
// are the model's (OrderProblem below); a method of order above 4 starts one octave higher,
// since it reaches the reference's error floor two halvings earlier. Adding a method costs one
// line in `OrderCases`, a model one OrderProblem.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/pendulum_chain.hpp"
#include "models/spherical_pendulum.hpp"
#include "reference/cvode.hpp"
#include "studies/integrator_catalogue.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

/// Per model: the preset, the horizon T and the largest step h0 of the five.
template <class Model>
struct OrderProblem {
  static constexpr const char* kPreset = "swing";
  static constexpr double kT = 1.0, kLargestStep = 0.04;
};
template <>
struct OrderProblem<DoubleSphericalPendulum> {
  static constexpr const char* kPreset = "lee2009";
  static constexpr double kT = 1.0, kLargestStep = 0.04;
};
/// Celledoni's N = 5 chain. At T = 1 with h0 = 0.04 it is far from asymptotic (Lie-Euler's global
/// error is 25 at h = 0.04 and its fitted order 1.5; RKMK4 fits 3.7); at T = 0.5 from h0 = 0.02
/// every method's successive error ratios are within 0.1 of 2^p (RKMK4: 3.86, 3.93, 3.95, 3.99).
template <>
struct OrderProblem<PendulumChain> {
  static constexpr const char* kPreset = "celledoni2021_N5";
  static constexpr double kT = 0.5, kLargestStep = 0.02;
};

template <class Entry, class Model>
struct OrderCase {
  using E = Entry;
  using M = Model;
  static_assert(!Entry::declaration.adaptive, "orders are fitted against a fixed step h");
};

std::string sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

template <class C>
class OrderTest : public ::testing::Test {};

using OrderCases = ::testing::Types<
    OrderCase<ExplicitRkEntry<Rk2Method>, DoubleSphericalPendulum>,
    OrderCase<ExplicitRkEntry<Rk2ProjectedMethod>, DoubleSphericalPendulum>,
    OrderCase<ExplicitRkEntry<Rk4Method>, DoubleSphericalPendulum>,
    OrderCase<ExplicitRkEntry<Rk4ProjectedMethod>, DoubleSphericalPendulum>,
    OrderCase<ImplicitVariationalEntry, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Rkmk4Method>, DoubleSphericalPendulum>,
    OrderCase<ExplicitVariationalEntry, SphericalPendulum>,
    OrderCase<ImplicitVariationalEntry, SphericalPendulum>,
    OrderCase<LieGroupEntry<Rkmk4Method>, SphericalPendulum>,
    OrderCase<LieGroupEntry<LieEulerMethod>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<LieEulerHeunMethod>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Rkmk2Method>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Rkmk3Method>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Rkmk4SeriesMethod>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Rkmk4TwoCommutatorsMethod>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Rkmk5Method>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Cf3Method>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<Cf4Method>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<CrouchGrossman3Method>, DoubleSphericalPendulum>,
    OrderCase<LieGroupEntry<LieEulerMethod>, PendulumChain>,
    OrderCase<LieGroupEntry<LieEulerHeunMethod>, PendulumChain>,
    OrderCase<LieGroupEntry<Rkmk2Method>, PendulumChain>,
    OrderCase<LieGroupEntry<Rkmk3Method>, PendulumChain>,
    OrderCase<LieGroupEntry<Rkmk4Method>, PendulumChain>,
    OrderCase<LieGroupEntry<Rkmk4SeriesMethod>, PendulumChain>,
    OrderCase<LieGroupEntry<Rkmk4TwoCommutatorsMethod>, PendulumChain>,
    OrderCase<LieGroupEntry<Rkmk5Method>, PendulumChain>,
    OrderCase<LieGroupEntry<Cf3Method>, PendulumChain>,
    OrderCase<LieGroupEntry<Cf4Method>, PendulumChain>,
    OrderCase<LieGroupEntry<CrouchGrossman3Method>, PendulumChain>>;

class CaseNames {
 public:
  template <class C>
  static std::string GetName(int) {
    return std::string(C::E::declaration.name) + "_on_" + std::string(C::M::kName);
  }
};
TYPED_TEST_SUITE(OrderTest, OrderCases, CaseNames);

TYPED_TEST(OrderTest, FittedOrderIsNominal) {
  using Model = typename TypeParam::M;
  using Integrator = typename TypeParam::E::template type<Model>;
  using Problem = OrderProblem<Model>;
  const auto setup = testing::make_setup<Model>(Problem::kPreset);
  constexpr double T = Problem::kT;
  const int nominal = Integrator::declaration.order;

  IntegratorOptions tight;
  tight.rtol = 1e-12;
  tight.atol = 1e-14;
  tight.T = T;
  IntegratorOptions loose = tight;
  loose.rtol = 1e-11;
  loose.atol = 1e-13;
  const auto reference = testing::final_state<Cvode<Model>>(setup.model, setup.initial, tight);
  const double reference_error =
      (reference - testing::final_state<Cvode<Model>>(setup.model, setup.initial, loose)).norm();

  std::vector<std::pair<double, double>> points;
  const double h0 = Problem::kLargestStep * (nominal > 4 ? 2.0 : 1.0);
  for (double h : {h0, h0 / 2, h0 / 4, h0 / 8, h0 / 16}) {
    IntegratorOptions opt;
    opt.h = h;
    opt.T = T;
    const auto y = testing::final_state<Integrator>(setup.model, setup.initial, opt);
    points.emplace_back(h, (y - reference).norm());
  }
  const OrderFit fit = fit_order(points, 2.0 * reference_error);
  std::string table;
  for (const auto& [h, e] : points) table += "  h = " + sci(h) + "  err = " + sci(e) + "\n";
  SCOPED_TRACE("reference error estimate " + sci(reference_error) + "\n" + table +
               "fit note: " + fit.note);
  ASSERT_GE(fit.used, 3);
  EXPECT_NEAR(fit.order, nominal, 0.2) << "residual " << fit.residual;
}

}  // namespace
}  // namespace geomint
