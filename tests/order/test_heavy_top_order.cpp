// Label `order`: Celledoni Fig. 2 as a test: the symplectic Lie group integrators on the heavy
// top reach their declared orders on the slowed top (models/heavy_top_parameters.hpp), each
// over the steps where it is in its asymptotic range, against Boost.Odeint's Fehlberg 7(8) at
// rtol 1e-13 on the ambient form, at T = 0.3 (about ten times the top's falling time scale
// sqrt(I1 / (M g l)) = 0.028 s):
//   - theta = 1/2 on (21)-(22) ("SLGI") and on (29)-(32) ("SLGIKK"): 2 +- 0.1;
//   - theta = 0 and theta = 1: 1 +- 0.2, at h <= 4e-4. Above that their error is dominated by a
//     second-order term (at h = 1e-3 theta = 0 and 1/2 have errors 6.5e-4 and 1.6e-3), so the
//     fit over 4e-3 .. 2.5e-4 reads 1.5 rather than 1: the pre-asymptotic range the notes warn of;
//   - the Yoshida compositions of theta = 1/2: 4 and 6 +- 0.2 (the sixth order's steps stop
//     where its error meets the reference's floor, ~1e-13).
// The generated suite (test_order.cpp) checks every fixed-step method on the model's exercise,
// the weak_gravity top; this one is the paper's top.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "catalogue/families/symplectic_lie_group.hpp"
#include "models/heavy_top.hpp"
#include "models/heavy_top_quadratic.hpp"
#include "reference/odeint.hpp"
#include "support/order_measurement.hpp"

namespace geomint {
namespace {

constexpr double kT = 0.3;

template <class Method, class Model>
void expect_order(const std::vector<double>& steps, double tolerance) {
  using Integrator = typename Method::template type<Model>;
  const auto s = testing::make_setup<Model>("slowed");
  const auto m = testing::measure_order<Integrator, OdeintRkf78<Model>>(s.model, s.initial, kT, steps, 1e-13);
  std::printf("%s on %s (slowed, T = %g): fitted %.3f over %d of %d points\n%s",
              std::string(Integrator::declaration.name).c_str(), std::string(Model::kName).c_str(), kT,
              m.fit.order, m.fit.used, m.fit.total, m.table.c_str());
  SCOPED_TRACE(m.table);
  ASSERT_GE(m.fit.used, 3);
  EXPECT_NEAR(m.fit.order, Integrator::declaration.order, tolerance) << "residual " << m.fit.residual;
}

using Theta0 = SymplecticLieGroupEntry<SlgiTheta0>;
using ThetaHalf = SymplecticLieGroupEntry<SlgiThetaHalf>;
using Theta1 = SymplecticLieGroupEntry<SlgiTheta1>;
using ThetaHalfY4 = CompositionEntry<ThetaHalf, SlgiThetaHalfYoshida4>;
using ThetaHalfY6 = CompositionEntry<ThetaHalf, SlgiThetaHalfYoshida6>;

const std::vector<double> kFirstOrderSteps = {4e-4, 2e-4, 1e-4, 5e-5, 2.5e-5};
const std::vector<double> kSecondOrderSteps = {2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4};

TEST(HeavyTopOrder, Theta0IsFirstOrder) { expect_order<Theta0, HeavyTop>(kFirstOrderSteps, 0.2); }
TEST(HeavyTopOrder, Theta1IsFirstOrder) { expect_order<Theta1, HeavyTop>(kFirstOrderSteps, 0.2); }
TEST(HeavyTopOrder, ThetaHalfIsSecondOrder) { expect_order<ThetaHalf, HeavyTop>(kSecondOrderSteps, 0.1); }
TEST(HeavyTopOrder, SlgikkIsSecondOrder) {
  expect_order<ThetaHalf, HeavyTopQuadratic>(kSecondOrderSteps, 0.1);
}
TEST(HeavyTopOrder, YoshidaFourIsFourthOrder) { expect_order<ThetaHalfY4, HeavyTop>(kSecondOrderSteps, 0.2); }
TEST(HeavyTopOrder, YoshidaSixIsSixthOrder) {
  expect_order<ThetaHalfY6, HeavyTop>({3.2e-3, 1.6e-3, 8e-4, 4e-4}, 0.2);
}

}  // namespace
}  // namespace geomint
