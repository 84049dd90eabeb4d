// Label `order`: every method that tests/order/user_methods.yaml defines by its coefficients
// (explicit Runge-Kutta with and without reprojection, RKMK, commutator-free) reaches the order
// it declares, within +-0.2, on the double spherical pendulum (preset lee2009), by the order
// test of the built-in integrators (support/order_test.hpp). The file is read as a study spec,
// so its methods pass the checks of the spec reader first; adding a method costs its entry there.

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "models/double_spherical_pendulum.hpp"
#include "studies/spec.hpp"
#include "studies/user_method_runner.hpp"
#include "support/model_setup.hpp"
#include "support/order_test.hpp"

namespace geomint {

/// Test parameters print as the method's name (found by argument-dependent lookup).
void PrintTo(const std::shared_ptr<const UserMethod>& method, std::ostream* os) {
  *os << method->name();
}

namespace {

std::vector<std::shared_ptr<const UserMethod>> user_methods() {
  return load_study_spec(GEOMINT_USER_METHODS_SPEC).methods;
}

class UserMethodOrder : public ::testing::TestWithParam<std::shared_ptr<const UserMethod>> {};

TEST_P(UserMethodOrder, FittedOrderIsDeclared) {
  using Model = DoubleSphericalPendulum;
  const UserMethod& method = *GetParam();
  const int nominal = method.declaration().order;
  const auto result = std::visit(
      [&]<class Coefficients>(const Coefficients& coefficients) {
        using Integrator = typename detail::UserMethodEntry<Coefficients>::template type<Model>;
        return testing::order_test<Model>(
            nominal, [&](const Model& model, const Model::State& y0, const IntegratorOptions& opt) {
              return testing::final_state<Integrator>(model, y0, opt, coefficients);
            });
      },
      method.coefficients());
  RecordProperty("fitted_order", std::to_string(result.fit.order));  // --gtest_output=json:...
  SCOPED_TRACE(std::string(to_string(method.kind())) + " " + method.name() + "\n" + result.trace);
  ASSERT_GE(result.fit.used, 3);
  EXPECT_NEAR(result.fit.order, nominal, 0.2) << "residual " << result.fit.residual;
}

INSTANTIATE_TEST_SUITE_P(FromSpec, UserMethodOrder, ::testing::ValuesIn(user_methods()),
                         [](const auto& param) { return param.param->name(); });

TEST(UserMethodOrderSpec, HasMethodsOfEveryKind) {
  bool kinds[3] = {};
  for (const auto& m : user_methods()) kinds[static_cast<int>(m->kind())] = true;
  EXPECT_TRUE(kinds[0] && kinds[1] && kinds[2]);
}

}  // namespace
}  // namespace geomint
