// Label `reproduction`: the spinning relative equilibria of charges on the sphere (DuToit
// Section 6; models/sphere_charges.hpp) that their linearisation calls unstable depart at its
// growth rate, as the Astrojax's unstable cowboy does (test_dutoit_cowboy_departure.cpp, whose
// method this follows):
//   - attracting_small_circle: three equal charges that attract (sigma = -1) on the circle at
//     polar angle pi/4, spun at 1.2779 rad/s;
//   - opposite_charges_spinning: two species, a charge -2 of mass 10 at the pole and two unit
//     charges at polar angle pi/3, spun at 1.9013 rad/s.
// The prediction is the largest real part of the spectrum of the rotating-frame field's Jacobian
// (models/relative_equilibrium.hpp, by finite differences, on the ambient R^(6n): its extra
// directions off (TS^2)^n could add growth no motion on the spheres has, so the measurement, on
// the spheres, is what decides). The measurement: a run by Boost.Odeint's Fehlberg 7(8) at rtol
// 1e-13 from the equilibrium with one charge's polar angle moved by 1e-9 (still on its sphere,
// turning rigidly at the equilibrium's rate); the distance D(t) of the state, turned about e3 to
// put that charge back at its azimuth (the symmetry's direction taken out), from the
// equilibrium; and the least-squares slope of log D against t while 1e-7 <= D <= 1e-3. The
// study's experiments charges_attracting_small_circle and charges_opposite_spinning show the
// same departures at the integrators' own round-off and truncation errors.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "integrators/integrate.hpp"
#include "models/relative_equilibrium.hpp"
#include "models/sphere_charges.hpp"
#include "reference/odeint.hpp"
#include "support/departure_rate.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using State = SphereCharges::State;
constexpr double kT = 40.0;
constexpr double kNudge = 1e-9;  // the charge's polar angle moved off the equilibrium

/// The equilibrium's state with charge `i`'s polar angle moved by kNudge, its velocity the rigid
/// turn at omega: w_i = omega (e3 - z_i q_i).
State nudged(const State& equilibrium, Eigen::Index i, double omega) {
  State y = equilibrium;
  const Eigen::Index n = y.size() / 6;
  const Eigen::Vector3d q = y.segment<3>(3 * i);
  const Eigen::Vector3d axis = Eigen::Vector3d::UnitZ().cross(q).normalized();  // turns the polar angle
  const Eigen::Vector3d moved = Eigen::AngleAxisd(kNudge, axis) * q;
  y.segment<3>(3 * i) = moved;
  y.segment<3>(3 * (n + i)) = omega * (Eigen::Vector3d::UnitZ() - moved.z() * moved);
  return y;
}

/// y turned about e3 so that charge i is back at the azimuth `azimuth`.
State turned_back(const State& y, Eigen::Index i, double azimuth) {
  const double now = std::atan2(y(3 * i + 1), y(3 * i));
  const Eigen::Matrix3d back = Eigen::AngleAxisd(azimuth - now, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  State out = y;
  for (Eigen::Index b = 0; b < y.size() / 3; ++b) out.segment<3>(3 * b) = back * y.segment<3>(3 * b);
  return out;
}

struct Departure {
  std::string preset;
  Eigen::Index charge;  // the one nudged, off the axis
};

class ChargesDeparture : public ::testing::TestWithParam<Departure> {};

TEST_P(ChargesDeparture, DepartsAtItsLinearisationsGrowthRate) {
  const Departure& c = GetParam();
  const auto s = testing::make_setup<SphereCharges>(c.preset);
  const double omega = s.model.rotation_rate(SphereCharges::positions(s.initial), c.charge);
  const double predicted = largest_growth_rate(s.model, s.initial, omega);
  const double azimuth = std::atan2(s.initial(3 * c.charge + 1), s.initial(3 * c.charge));
  IntegratorOptions tight;
  tight.tolerances.rtol = 1e-13;
  tight.tolerances.atol = 1e-15;
  tight.T = kT;
  OdeintRkf78<SphereCharges> solver(s.model, tight);
  State y = nudged(s.initial, c.charge, omega);
  std::vector<std::pair<double, double>> d;
  integrate(solver, y, 0.0, kT, [&](double t, const State& state) {
    d.emplace_back(t, (turned_back(state, c.charge, azimuth) - s.initial).norm());
  });
  const double measured = testing::departure_rate(d, 1e-7, 1e-3);
  std::printf("%s: omega %.4f, D(0) = %.2e, D(T) = %.2e; growth rate measured %.4f 1/s, "
              "linearisation %.4f 1/s (ratio %.4f)\n",
              c.preset.c_str(), omega, d.front().second, d.back().second, measured, predicted,
              measured / predicted);
  EXPECT_NEAR(measured / predicted, 1.0, 0.01);
}

INSTANTIATE_TEST_SUITE_P(DuToit, ChargesDeparture,
                         ::testing::Values(Departure{"attracting_small_circle", 0},
                                           Departure{"opposite_charges_spinning", 1}),
                         [](const auto& param_info) { return param_info.param.preset; });

}  // namespace
}  // namespace geomint
