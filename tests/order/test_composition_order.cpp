// Label `order`: Yoshida's compositions of the variational integrators reach orders 4 and 6
// (LLM Section 3.4), against our Dormand-Prince at rtol 1e-13 (CVODE's ~1e-10 floor at this
// horizon would hide sixth-order errors). One line per (method, model) in `CompositionCases`.

#include <gtest/gtest.h>

#include "integrators/dormand_prince.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/pendulum_chain.hpp"
#include "models/spherical_pendulum.hpp"
#include "studies/catalogue/variational.hpp"
#include "support/order_measurement.hpp"

namespace geomint {
namespace {

template <class Entry, class Model>
struct CompositionCase {
  using E = Entry;
  using M = Model;
};

template <class C>
class CompositionOrder : public ::testing::Test {};

using ExplicitY4 = CompositionEntry<ExplicitVariationalEntry, ExplicitVariationalYoshida4>;
using ExplicitY6 = CompositionEntry<ExplicitVariationalEntry, ExplicitVariationalYoshida6>;
using ImplicitY4 = CompositionEntry<ImplicitVariationalEntry, ImplicitVariationalYoshida4>;
using ImplicitY6 = CompositionEntry<ImplicitVariationalEntry, ImplicitVariationalYoshida6>;

using CompositionCases = ::testing::Types<
    CompositionCase<ExplicitY4, SphericalPendulum>, CompositionCase<ExplicitY6, SphericalPendulum>,
    CompositionCase<ImplicitY4, DoubleSphericalPendulum>,
    CompositionCase<ImplicitY6, DoubleSphericalPendulum>,
    CompositionCase<ImplicitY4, PendulumChain>, CompositionCase<ImplicitY6, PendulumChain>>;

class CaseNames {
 public:
  template <class C>
  static std::string GetName(int) {
    return std::string(C::E::declaration.name) + "_on_" + std::string(C::M::kName);
  }
};
TYPED_TEST_SUITE(CompositionOrder, CompositionCases, CaseNames);

template <class Model>
std::string preset() {
  if constexpr (std::is_same_v<Model, DoubleSphericalPendulum>) return "lee2009";
  if constexpr (std::is_same_v<Model, SphericalPendulum>) return "swing";
  return "celledoni2021_N5";
}

/// The steps scale with the model's time scale: Celledoni's five-link chain falls and whips
/// about four times faster than the pendulums (at h = 0.08 its Cayley equation has no solution).
template <class Model>
double time_scale() {
  return std::is_same_v<Model, PendulumChain> ? 0.25 : 1.0;
}

TYPED_TEST(CompositionOrder, FittedOrderIsNominal) {
  using Model = typename TypeParam::M;
  using Integrator = typename TypeParam::E::template type<Model>;
  const auto s = testing::make_setup<Model>(preset<Model>());
  const int order = Integrator::declaration.order;
  // Steps in the asymptotic range and above the reference's floor: errors C h^p from ~1e-4
  // down to ~1e-11 (at h = 0.16 the sixth-order error ratios are still 140, not 2^6 = 64).
  std::vector<double> steps = {0.08, 0.04, 0.02, 0.01, 0.005};
  for (double& h : steps) h *= time_scale<Model>();
  const auto m = testing::measure_order<Integrator, Dopri45<Model>>(s.model, s.initial, 1.0, steps, 1e-13);
  SCOPED_TRACE(m.table);
  ASSERT_GE(m.fit.used, 3);
  EXPECT_NEAR(m.fit.order, order, 0.2) << "residual " << m.fit.residual;
}

}  // namespace
}  // namespace geomint
