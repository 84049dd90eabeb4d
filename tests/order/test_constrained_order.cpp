// Label `order`: the constrained variational integrators (integrators/constrained_variational.hpp)
// converge at order 2 on the DuToit systems, against references independent of them:
//   - the Astrojax in the plane (planar1, DuToit Section 5.1, NOTES-dutoit 1.7 item 4) stepped in
//     its Cartesian constrained form (models/astrojax.hpp) against the reduced planar ODE in
//     (lambda, theta1, theta2) (models/astrojax_planar.hpp), a different formulation, solved by
//     Boost.Odeint's Fehlberg 7(8) at rtol 1e-13 and mapped to the plane y = 0. The run stops at
//     T = 0.3, before planar1's close approach of the two masses (l - lambda = 0.011 at 0.35),
//     which needs much smaller steps. The fitted order is within 0.1 of 2, and the motion stays
//     in the plane y = 0 to round-off (NOTES-dutoit 1.7 item 3);
//   - the breathing period of the equilateral triangle of charges (sphere_charges, breathing,
//     DuToit Fig. 3 (b)), measured from the run (the time between two downward crossings of the
//     equator by charge 1, located by cubic Hermite interpolation, whose O(h^4) error is below
//     the method's), against the period the bench computes by quadrature of the reduced equation
//     (models/sphere_charges_breathing.hpp): the error falls as h^2.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "integrators/constrained_variational.hpp"
#include "models/astrojax.hpp"
#include "models/astrojax_planar.hpp"
#include "models/sphere_charges.hpp"
#include "models/sphere_charges_breathing.hpp"
#include "reference/odeint.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

constexpr double kPlanarT = 0.3;

template <class Method>
void expect_second_order_against_the_planar_ode() {
  const auto planar = testing::make_setup<AstrojaxPlanar>("planar1");
  const auto cartesian = testing::make_setup<Astrojax>("planar1");
  IntegratorOptions tight;
  tight.tolerances.rtol = 1e-13;
  tight.tolerances.atol = 1e-15;
  tight.T = kPlanarT;
  const auto reference = planar.model.cartesian_state(
      testing::final_state<OdeintRkf78<AstrojaxPlanar>>(planar.model, planar.initial, tight));
  std::vector<std::pair<double, double>> points;
  double off_plane = 0.0;
  for (double h : {0.002, 0.001, 0.0005, 0.00025}) {
    const FixedStep step{h};
    const auto y = testing::final_state<ConstrainedVariational<Astrojax, Method>>(
        cartesian.model, cartesian.initial, step, kPlanarT);
    points.emplace_back(h, (y - reference).norm());
    off_plane = std::max({off_plane, std::abs(y(1)), std::abs(y(4)), std::abs(y(7)), std::abs(y(10))});
    std::printf("%s, h = %.4e: |y(T) - planar ODE| = %.4e\n", Method::declaration.name.data(), h,
                points.back().second);
  }
  const OrderFit fit = fit_order(points, 1e-12);
  std::printf("fitted order %.3f (%s)\n", fit.order, fit.note.c_str());
  EXPECT_NEAR(fit.order, 2.0, 0.1);
  EXPECT_EQ(off_plane, 0.0) << "left the plane y = 0";
}

TEST(ConstrainedOrder, ConstrainedViAgainstThePlanarOde) {
  expect_second_order_against_the_planar_ode<ConstrainedVi>();
}
TEST(ConstrainedOrder, RattleAgainstThePlanarOde) {
  expect_second_order_against_the_planar_ode<Rattle>();
}

/// The time of the second downward crossing of z = 0 by charge 1 minus that of the first.
template <class Method>
double measured_breathing_period(const SphereCharges& model, SphereCharges::State y, double h) {
  ConstrainedVariational<SphereCharges, Method> vi(model);
  std::vector<double> crossings;
  const auto z_and_rate = [](const SphereCharges::State& s) {
    const Eigen::Vector3d q = s.segment<3>(0), w = s.segment<3>(s.size() / 2);
    return std::pair{q.z(), w.cross(q).z()};
  };
  for (long k = 0; crossings.size() < 2 && k < 100000; ++k) {
    const auto [z0, dz0] = z_and_rate(y);
    vi.step(k * h, y, h);
    const auto [z1, dz1] = z_and_rate(y);
    if (z0 > 0.0 && z1 <= 0.0) {  // cubic Hermite on [t_k, t_k+1], root by bisection
      const auto p = [&](double s) {
        const double s2 = s * s, s3 = s2 * s;
        return (2 * s3 - 3 * s2 + 1) * z0 + (s3 - 2 * s2 + s) * h * dz0 + (-2 * s3 + 3 * s2) * z1 +
               (s3 - s2) * h * dz1;
      };
      double a = 0.0, b = 1.0;
      for (int i = 0; i < 60; ++i) (p(0.5 * (a + b)) > 0.0 ? a : b) = 0.5 * (a + b);
      crossings.push_back((k + 0.5 * (a + b)) * h);
    }
  }
  EXPECT_EQ(crossings.size(), 2u);
  return crossings.size() == 2 ? crossings[1] - crossings[0] : std::nan("");
}

template <class Method>
void expect_breathing_period_at_second_order() {
  const auto s = testing::make_setup<SphereCharges>("breathing");
  const double exact = breathing_reduced_period({1.0, 1.0, 1.0, std::acos(s.initial(2)), 0.0});
  std::vector<std::pair<double, double>> points;
  for (double h : {0.02, 0.01, 0.005}) {
    const double period = measured_breathing_period<Method>(s.model, s.initial, h);
    points.emplace_back(h, std::abs(period - exact));
    std::printf("%s, h = %.3f: breathing period %.12f, quadrature %.12f, error %.3e\n",
                Method::declaration.name.data(), h, period, exact, points.back().second);
  }
  const OrderFit fit = fit_order(points, 1e-12);
  std::printf("fitted order %.3f\n", fit.order);
  EXPECT_NEAR(fit.order, 2.0, 0.1);
}

TEST(ConstrainedOrder, ConstrainedViBreathingPeriod) {
  expect_breathing_period_at_second_order<ConstrainedVi>();
}
TEST(ConstrainedOrder, RattleBreathingPeriod) { expect_breathing_period_at_second_order<Rattle>(); }

}  // namespace
}  // namespace geomint
