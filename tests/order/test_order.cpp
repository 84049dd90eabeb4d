// Label `order`: every fixed-step integrator reaches the order it declares, within +-0.2,
// on nonlinear problems, measured against SUNDIALS CVODE at tight tolerance.
//
// Global error at T = 1 for h = 0.04 ... 0.0025, fitted by least squares on log-log data over
// the points above the reference's own error (studies/metrics.hpp: fit_order). Adding a method
// or a model costs one line in `OrderCases`.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/spherical_pendulum.hpp"
#include "reference/cvode.hpp"
#include "studies/integrator_catalogue.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

template <class Entry, class Model>
struct OrderCase {
  using E = Entry;
  using M = Model;
  static std::string preset() {
    return std::is_same_v<Model, DoubleSphericalPendulum> ? "lee2009" : "swing";
  }
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
    OrderCase<RkmkEntry<Rkmk4Method>, DoubleSphericalPendulum>,
    OrderCase<ExplicitVariationalEntry, SphericalPendulum>,
    OrderCase<ImplicitVariationalEntry, SphericalPendulum>,
    OrderCase<RkmkEntry<Rkmk4Method>, SphericalPendulum>>;

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
  const auto setup = testing::make_setup<Model>(TypeParam::preset());
  constexpr double T = 1.0;

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
  for (double h : {0.04, 0.02, 0.01, 0.005, 0.0025}) {
    IntegratorOptions opt;
    opt.h = h;
    opt.T = T;
    const auto y = testing::final_state<Integrator>(setup.model, setup.initial, opt);
    points.emplace_back(h, (y - reference).norm());
  }
  const OrderFit fit = fit_order(points, 2.0 * reference_error);
  const int nominal = Integrator::declaration.order;
  std::string table;
  for (const auto& [h, e] : points) table += "  h = " + sci(h) + "  err = " + sci(e) + "\n";
  SCOPED_TRACE("reference error estimate " + sci(reference_error) + "\n" + table +
               "fit note: " + fit.note);
  ASSERT_GE(fit.used, 3);
  EXPECT_NEAR(fit.order, nominal, 0.2) << "residual " << fit.residual;
}

}  // namespace
}  // namespace geomint
