// Label `unit`: the configurations the `paths` plot draws (models/configuration.hpp), against
// what the models' physics says they are, not against the code that chains the links:
//   - the pendulums' and the chain's bobs, with their masses, give the model's own potential
//     as the gravitational energy of point masses (sum m_k g z_k, gravity along the model's
//     convention), at the preset's state and at states spun and tilted from it;
//   - the rod's first point is the clamped element's far end, its second the clamped joint
//     (the origin), and each element is l/(n+1) long;
//   - the heavy top's centre of mass is its curve Q X (models/curves.hpp);
//   - the Astrojax's support is A(t) and the tether's two pieces add up to its length l.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>

#include "models/astrojax.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/elastic_rod.hpp"
#include "models/heavy_top.hpp"
#include "models/pendulum_chain.hpp"
#include "models/spherical_pendulum.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using testing::make_setup;

/// The preset's state and states with each q_i turned by a rotation of its own (a sphere
/// model's positions are its first 3n entries), so that no two links point the same way.
template <class M>
std::vector<typename M::State> states_of(const typename M::State& y0, Eigen::Index bodies) {
  std::vector<typename M::State> states{y0};
  for (const double angle : {0.3, 1.1, 2.5}) {
    typename M::State y = y0;
    for (Eigen::Index i = 0; i < bodies; ++i) {
      const double turn = angle * static_cast<double>(i + 1);
      const Eigen::Vector3d axis = Eigen::Vector3d(1.0, 2.0, 0.5 + turn).normalized();
      y.template segment<3>(3 * i) = Eigen::AngleAxisd(turn, axis) * Eigen::Vector3d(y0.template segment<3>(3 * i));
    }
    states.push_back(y);
  }
  return states;
}

/// sum_k m_k g z_k of the points after the support, each of mass `mass(k)`.
template <class Mass>
double gravitational_energy(const Eigen::Matrix3Xd& points, double g, const Mass& mass) {
  double energy = 0.0;
  for (Eigen::Index k = 1; k < points.cols(); ++k) energy += mass(k - 1) * g * points(2, k);
  return energy;
}

TEST(ConfigurationPoints, ThePendulumsBobsGiveTheirPotential) {
  const auto [model, y0] = make_setup<SphericalPendulum>("swing");
  const ParameterSet p = preset_parameters(find_preset<SphericalPendulum>("swing"), {});
  for (const auto& y : states_of<SphericalPendulum>(y0, 1)) {
    const Eigen::Matrix3Xd points = model.configuration_points(0.0, y);
    ASSERT_EQ(points.cols(), 2);
    EXPECT_EQ(points.col(0), Eigen::Vector3d::Zero());
    // Gravity along +e3 (LLM): V = -m g z.
    EXPECT_NEAR(model.potential(SphericalPendulum::positions(y)),
                -gravitational_energy(points, p["g"], [&](Eigen::Index) { return p["m"]; }), 1e-12);
  }
}

TEST(ConfigurationPoints, TheDoublePendulumsBobsGiveItsPotential) {
  const auto [model, y0] = make_setup<DoubleSphericalPendulum>("lee2009");
  const auto& p = model.parameters();
  for (const auto& y : states_of<DoubleSphericalPendulum>(y0, 2)) {
    const Eigen::Matrix3Xd points = model.configuration_points(0.0, y);
    ASSERT_EQ(points.cols(), 3);
    const Eigen::Vector2d mass(p.m1, p.m2);
    EXPECT_NEAR(model.potential(DoubleSphericalPendulum::positions(y)),
                -gravitational_energy(points, p.g, mass), 1e-10);
    EXPECT_NEAR((points.col(2) - points.col(1)).norm(), p.l2, 1e-13);
  }
}

TEST(ConfigurationPoints, TheChainsBobsGiveItsPotential) {
  const auto [model, y0] = make_setup<PendulumChain>("celledoni2021_N5");
  const ParameterSet p = preset_parameters(find_preset<PendulumChain>("celledoni2021_N5"), {});
  for (const auto& y : states_of<PendulumChain>(y0, 5)) {
    const Eigen::Matrix3Xd points = model.configuration_points(0.0, y);
    ASSERT_EQ(points.cols(), 6);
    // Gravity along -e3 (Celledoni): V = sum_k m g z_k.
    EXPECT_NEAR(model.potential(PendulumChain::positions(y)),
                gravitational_energy(points, p["g"], [&](Eigen::Index) { return p["m"]; }), 1e-12);
  }
}

TEST(ConfigurationPoints, TheRodHangsFromItsClampWithElementsOfEqualLength) {
  const auto [model, y0] = make_setup<ElasticRod>("lee2009");
  const ParameterSet p = preset_parameters(find_preset<ElasticRod>("lee2009"), {});
  const Eigen::Matrix3Xd points = model.configuration_points(0.0, y0);
  const double element = p["l"] / (p["n"] + 1.0);
  ASSERT_EQ(points.cols(), static_cast<Eigen::Index>(p["n"]) + 2);
  EXPECT_TRUE(points.col(1).isZero(0.0));
  EXPECT_TRUE((points.col(0) + element * model.clamp_direction()).isZero(1e-15));
  for (Eigen::Index k = 1; k < points.cols(); ++k)
    EXPECT_NEAR((points.col(k) - points.col(k - 1)).norm(), element, 1e-15) << "element " << k - 1;
}

TEST(ConfigurationPoints, TheTopsCentreOfMassIsItsCurveQX) {
  const auto [model, y0] = make_setup<HeavyTop>("celledoni2021");
  const Eigen::Matrix3Xd points = model.configuration_points(0.0, y0);
  ASSERT_EQ(points.cols(), 2);
  EXPECT_EQ(points.col(0), Eigen::Vector3d::Zero());
  EXPECT_EQ(points.col(1), model.curve_points(0.0, y0)[0]);
}

TEST(ConfigurationPoints, TheAstrojaxTetherHasItsLengthFromTheMovingSupport) {
  const auto [model, y0] = make_setup<Astrojax>("driven_circle");
  const double t = 0.3;  // the state is relative to the support: any time places it
  const Eigen::Matrix3Xd points = model.configuration_points(t, y0);
  ASSERT_EQ(points.cols(), 3);
  EXPECT_EQ(points.col(0), model.support().position(t));
  EXPECT_NE(points.col(0), model.support().position(0.0));
  EXPECT_NEAR((points.col(1) - points.col(0)).norm() + (points.col(2) - points.col(1)).norm(), model.l(), 1e-12);
}

}  // namespace
}  // namespace geomint
