// Label `order`: every method that tests/order/user_methods.yaml defines by its coefficients
// (explicit Runge-Kutta with and without reprojection, RKMK, commutator-free) reaches the order
// it declares, within +-0.2, by the built-ins' order test (test_order.cpp): the double spherical
// pendulum (preset lee2009) to T = 1, five steps from h0 = 0.04 (0.08 above order 4) halving,
// against CVODE at rtol 1e-12 (support/order_measurement.hpp). The file is read as a study spec,
// so its methods pass the spec reader's checks first; adding a method costs its entry there.
// The same methods on the torque-free rigid body (a state on so(3)*, not a sphere), against its
// exact solution, as test_exact_solutions.cpp checks the built-ins there.
// And the other way: a tableau one coefficient off is refused when the spec is read, naming
// the first order condition it violates.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "models/double_spherical_pendulum.hpp"
#include "models/free_rigid_body.hpp"
#include "reference/cvode.hpp"
#include "studies/metrics.hpp"
#include "studies/spec.hpp"
#include "studies/user_method_runner.hpp"
#include "support/model_setup.hpp"
#include "support/order_measurement.hpp"

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
  const auto setup = testing::make_setup<Model>("lee2009");
  const double h0 = nominal > 4 ? 0.08 : 0.04;
  const std::vector<double> steps{h0, h0 / 2, h0 / 4, h0 / 8, h0 / 16};
  const auto m = std::visit(
      [&]<class Coefficients>(const Coefficients& coefficients) -> testing::OrderMeasurement {
        if constexpr (std::is_same_v<Coefficients, ExternalCommand>) {
          throw std::logic_error("user_methods.yaml defines methods by coefficients, not commands");
        } else {
          using Integrator = typename detail::UserMethodEntry<Coefficients>::template type<Model>;
          return testing::measure_order<Integrator, Cvode<Model>>(setup.model, setup.initial, 1.0,
                                                                  steps, 1e-12, coefficients);
        }
      },
      method.coefficients());
  SCOPED_TRACE(std::string(to_string(method.kind())) + " " + method.name() + "\n" + m.table);
  ASSERT_GE(m.fit.used, 3);
  EXPECT_NEAR(m.fit.order, nominal, 0.2) << "residual " << m.fit.residual;
}

/// test_exact_solutions.cpp's procedure: preset `elliptic` to T = 1, h = 0.02 to 0.0025 (four
/// times larger from order 5), errors below 1e-12 dropped as round-off.
TEST_P(UserMethodOrder, FittedOrderIsDeclaredOnTheFreeRigidBody) {
  using Model = FreeRigidBody;
  const UserMethod& method = *GetParam();
  const int nominal = method.declaration().order;
  const auto setup = testing::make_setup<Model>("elliptic");
  const Model::State exact = setup.model.exact_solution(setup.initial, 1.0);
  std::vector<std::pair<double, double>> points;
  std::string table;
  for (double h : {0.02, 0.01, 0.005, 0.0025}) {
    const FixedStep step{nominal >= 5 ? 4 * h : h};
    const double t_end = 1.0;
    const Model::State y = std::visit(
        [&]<class Coefficients>(const Coefficients& coefficients) -> Model::State {
          if constexpr (std::is_same_v<Coefficients, ExternalCommand>) {
            throw std::logic_error("user_methods.yaml defines methods by coefficients, not commands");
          } else {
            using Integrator = typename detail::UserMethodEntry<Coefficients>::template type<Model>;
            return testing::final_state<Integrator>(setup.model, setup.initial, step, t_end, coefficients);
          }
        },
        method.coefficients());
    points.emplace_back(step.h, (y - exact).norm());
    table += " h=" + std::to_string(step.h) + " err=" + std::to_string(points.back().second);
  }
  const OrderFit fit = fit_order(points, 1e-12);
  SCOPED_TRACE(method.name() + table + " (" + fit.note + ")");
  ASSERT_GE(fit.used, 3);
  EXPECT_NEAR(fit.order, nominal, 0.2) << "residual " << fit.residual;
}

INSTANTIATE_TEST_SUITE_P(FromSpec, UserMethodOrder, ::testing::ValuesIn(user_methods()),
                         [](const auto& param) { return param.param->name(); });

TEST(UserMethodOrderSpec, HasMethodsOfEveryKind) {
  bool kinds[3] = {};
  for (const auto& m : user_methods()) kinds[static_cast<int>(m->kind())] = true;
  EXPECT_TRUE(kinds[0] && kinds[1] && kinds[2]);
}

/// Kutta's 3/8 rule declared of order 4 with b_2 = 3/8 + 0.01 (and b_4 = 1/8 - 0.01, so that
/// the weights still sum to 1): its first violated condition is sum b_i c_i = 1/2.
TEST(UserMethodOrderSpec, AWrongTableauIsRefusedWhenTheSpecIsRead) {
  const auto path = std::filesystem::temp_directory_path() / "geomint_wrong_tableau.yaml";
  std::ofstream(path) << R"(name: wrong
title: wrong
methods:
  - name: my_rk
    kind: runge_kutta
    order: 4
    a: [[0, 0, 0, 0], [1/3, 0, 0, 0], [-1/3, 1, 0, 0], [1, -1, 1, 0]]
    b: [1/8, 0.385, 3/8, 0.115]
experiments:
  - name: e
    model: double_spherical_pendulum
    preset: lee2009
    T: 1
    runs:
      - integrators: [my_rk]
        h: [0.01]
)";
  try {
    load_study_spec(path.string());
    FAIL() << "a tableau that violates an order condition was accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("my_rk"), std::string::npos) << what;
    EXPECT_NE(what.find("'sum b_i c_i = 1/2' (order 2"), std::string::npos) << what;
    EXPECT_NE(what.find("violated"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace geomint
