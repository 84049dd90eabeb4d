// Label `order`: every fixed-step integrator reaches the order it declares, within +-0.2,
// on nonlinear problems, measured against SUNDIALS CVODE at tight tolerance.
//
// The procedure, and each model's problem (preset, T, h0), are in support/order_test.hpp, shared
// with the methods a spec defines by their coefficients (test_user_method_order.cpp). Adding a
// method costs one line in `OrderCases`, a model one OrderProblem.

#include <gtest/gtest.h>

#include "models/double_spherical_pendulum.hpp"
#include "models/pendulum_chain.hpp"
#include "models/spherical_pendulum.hpp"
#include "studies/integrator_catalogue.hpp"
#include "support/model_setup.hpp"
#include "support/order_test.hpp"

namespace geomint {
namespace {

template <class Entry, class Model>
struct OrderCase {
  using E = Entry;
  using M = Model;
  static_assert(!Entry::declaration.adaptive, "orders are fitted against a fixed step h");
};

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
  const int nominal = Integrator::declaration.order;
  const auto result = testing::order_test<Model>(
      nominal, [](const Model& model, const typename Model::State& y0, const IntegratorOptions& opt) {
        return testing::final_state<Integrator>(model, y0, opt);
      });
  SCOPED_TRACE(result.trace);
  ASSERT_GE(result.fit.used, 3);
  EXPECT_NEAR(result.fit.order, nominal, 0.2) << "residual " << result.fit.residual;
}

}  // namespace
}  // namespace geomint
