// Label `unit`: the ConstrainedLagrangian view of the pendulums (models/linked_bobs.hpp), on
// the double spherical pendulum with unequal links and masses, against independent derivations:
//   - configuration and set_configuration are inverse on (TS^2)^2, and a configuration has its
//     links' lengths with each link's velocity normal to it;
//   - g vanishes at a configuration; Dg is the derivative of g along any direction (Richardson)
//     and annihilates the configuration's velocity; Dg a + curvature is g'' along x + t v + t^2 a / 2;
//   - the constrained potential is the sphere form's potential, and its gradient the derivative
//     of the potential (Richardson);
//   - the accelerations of the index-1 constrained form M x'' = -dV/dx + Dg^T mu,
//     Dg x'' + curvature = 0, solved here as one linear system, are those of the sphere form's
//     vector field (LLM), mapped to the bobs: x_k'' = sum_{j <= k} l_j q_j''. The same Lagrangian
//     in two coordinates.

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "models/double_spherical_pendulum.hpp"
#include "models/spherical_pendulum.hpp"
#include "models/views.hpp"
#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using Model = DoubleSphericalPendulum;
using State = Model::State;
using Positions = Model::Positions;
using Vec3 = Eigen::Vector3d;

static_assert(ConstrainedLagrangian<Model>);
static_assert(ConstrainedLagrangian<SphericalPendulum>);

Model unequal_pendulum() {
  ParameterSet p = Model::default_parameters();
  p.set("m1", 1.3);
  p.set("m2", 0.7);
  p.set("l1", 0.9);
  p.set("l2", 1.6);
  p.set("g", 9.81);
  return Model(p);
}

State random_state(testing::Rng& rng) {
  return testing::random_sphere_state<State>(rng, 2, [](const Vec3&, const Vec3&) { return true; });
}

TEST(LinkedBobs, ConfigurationAndSetConfigurationAreInverse) {
  GEOMINT_SEEDED_RNG(rng, 301);
  const Model model = unequal_pendulum();
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng);
    Positions x, v;
    model.configuration(0.0, y, x, v);
    EXPECT_NEAR(x.head<3>().norm(), 0.9, 1e-15);
    EXPECT_NEAR((x.tail<3>() - x.head<3>()).norm(), 1.6, 1e-15);
    EXPECT_NEAR(x.head<3>().dot(v.head<3>()), 0.0, 1e-14);
    EXPECT_NEAR((x.tail<3>() - x.head<3>()).dot(v.tail<3>() - v.head<3>()), 0.0, 1e-14);
    State back;
    model.set_configuration(0.0, x, v, back);
    EXPECT_EIGEN_NEAR(back, y, 1e-15 * (1.0 + y.norm()));
  }
}

TEST(LinkedBobs, ConstraintsJacobianAndCurvatureAlongCurves) {
  GEOMINT_SEEDED_RNG(rng, 302);
  const Model model = unequal_pendulum();
  for (int trial = 0; trial < 5; ++trial) {
    Positions x, v;
    model.configuration(0.0, random_state(rng), x, v);
    const Positions a = rng.cube<6>(1.0), u = rng.cube<6>(1.0);
    const auto g_at = [&](const Positions& p) {
      Model::Constraints g;
      model.constraints(0.0, p, g);
      return g;
    };
    EXPECT_EIGEN_NEAR(g_at(x), Eigen::Vector2d::Zero(), 1e-14);
    Model::ConstraintJacobian dg;
    model.constraint_jacobian(0.0, x, dg);
    const auto along_u = testing::richardson_derivative([&](double s) { return g_at(x + s * u); });
    EXPECT_EIGEN_NEAR(dg * u, along_u, testing::kRichardsonTol);
    EXPECT_EIGEN_NEAR(dg * v, Eigen::Vector2d::Zero(), 1e-13);
    // g(x(t)) is a quartic in t: the Richardson second difference is exact up to round-off.
    const auto curve = [&](double s) { return g_at(x + s * v + 0.5 * s * s * a); };
    const auto second = [&](double h) -> Eigen::Vector2d { return (curve(h) - 2.0 * curve(0.0) + curve(-h)) / (h * h); };
    Model::Constraints curvature, rate;
    model.constraint_curvature(0.0, x, v, curvature);
    model.constraint_rate(0.0, x, rate);
    EXPECT_EIGEN_NEAR(dg * a + curvature, Eigen::Vector2d((4.0 * second(5e-3) - second(1e-2)) / 3.0), 1e-8);
    EXPECT_EIGEN_NEAR(rate, Eigen::Vector2d::Zero(), 0.0);
  }
}

TEST(LinkedBobs, ThePotentialIsTheSphereFormsAndItsGradientItsDerivative) {
  GEOMINT_SEEDED_RNG(rng, 303);
  const Model model = unequal_pendulum();
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng);
    Positions x, v, grad;
    model.configuration(0.0, y, x, v);
    EXPECT_NEAR(model.constrained_potential(x), model.potential(Model::positions(y)), 1e-12);
    model.constrained_gradient(x, grad);
    const Positions u = rng.cube<6>(1.0);
    const double along_u = testing::richardson_derivative([&](double s) {
      return Eigen::Matrix<double, 1, 1>(model.constrained_potential(x + s * u));
    })(0);
    EXPECT_NEAR(grad.dot(u), along_u, testing::kRichardsonTol * (1.0 + std::abs(along_u)));
  }
}

TEST(LinkedBobs, AccelerationsAreThoseOfTheSphereForm) {
  GEOMINT_SEEDED_RNG(rng, 304);
  const Model model = unequal_pendulum();
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng);
    Positions x, v, grad;
    model.configuration(0.0, y, x, v);
    model.constrained_gradient(x, grad);
    Model::ConstraintJacobian dg;
    Model::Constraints curvature;
    model.constraint_jacobian(0.0, x, dg);
    model.constraint_curvature(0.0, x, v, curvature);
    // [M, -Dg^T; Dg, 0] (x'', mu) = (-dV/dx, -curvature).
    Eigen::Matrix<double, 8, 8> system = Eigen::Matrix<double, 8, 8>::Zero();
    system.topLeftCorner<6, 6>() = model.mass().asDiagonal();
    system.topRightCorner<6, 2>() = -dg.transpose();
    system.bottomLeftCorner<2, 6>() = dg;
    Eigen::Matrix<double, 8, 1> rhs;
    rhs << -grad, -curvature;
    const Positions constrained = system.fullPivLu().solve(rhs).head<6>();

    State dy;
    model.rhs(0.0, y, dy);
    Positions sphere;
    Vec3 joint = Vec3::Zero();
    const double length[2] = {0.9, 1.6};
    for (int k = 0; k < 2; ++k) {
      const Vec3 q = y.segment<3>(3 * k), w = y.segment<3>(3 * (2 + k));
      const Vec3 dq = dy.segment<3>(3 * k), dw = dy.segment<3>(3 * (2 + k));
      joint += length[k] * (dw.cross(q) + w.cross(dq));
      sphere.segment<3>(3 * k) = joint;
    }
    EXPECT_EIGEN_NEAR(constrained, sphere, 1e-11 * (1.0 + sphere.norm()));
  }
}

}  // namespace
}  // namespace geomint
