// Label `unit`: the (S^2)^n models against independent derivations.
//
//   - dV/dq against central finite differences of V;
//   - the double pendulum's energy and angular momentum against their Cartesian formulas, and
//     its accelerations (LLM (2.11)) against a Cartesian derivation with link tensions as
//     Lagrange multipliers, which shares nothing with (2.11);
//   - the spherical pendulum's acceleration against q'' = (g/l)(e3 - (e3.q) q) - |q'|^2 q;
//   - the vector field is tangent to (TS^2)^n and conserves E and L_z (directional
//     derivatives by finite differences vanish);
//   - the Lie algebra generator reproduces the vector field: psi_*(f(y))|_y = F(y)
//     (Celledoni Section 5.2).

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "models/double_spherical_pendulum.hpp"
#include "models/pendulum_chain.hpp"
#include "models/spherical_pendulum.hpp"
#include "support/eigen_matchers.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;

/// A random point of (TS^2)^n with |w_i| of order one.
template <class Model>
typename Model::State random_state(testing::Rng& rng, Eigen::Index n) {
  typename Model::State y(6 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 q = Vec3(rng.normal(), rng.normal(), rng.normal()).normalized();
    Vec3 w(rng.normal(), rng.normal(), rng.normal());
    w -= q.dot(w) * q;
    y.template segment<3>(3 * i) = q;
    y.template segment<3>(3 * (n + i)) = w;
  }
  return y;
}

ParameterSet double_pendulum_parameters() {
  auto p = DoubleSphericalPendulum::default_parameters();
  p.set("m1", 1.3);
  p.set("m2", 0.7);
  p.set("l1", 0.9);
  p.set("l2", 1.6);
  p.set("g", 9.81);
  return p;
}

template <class Model>
void expect_gradient_matches_finite_differences(const Model& model, testing::Rng& rng) {
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = random_state<Model>(rng, model.bodies());
    typename Model::Points q = Model::positions(y), grad = q;
    model.potential_gradient(q, grad);
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      const double e = 1e-6;
      typename Model::Points qp = q, qm = q;
      qp(i) += e;
      qm(i) -= e;
      EXPECT_NEAR(grad(i), (model.potential(qp) - model.potential(qm)) / (2 * e), 1e-7);
    }
  }
}

PendulumChain chain(int n) {
  auto p = PendulumChain::default_parameters();
  p.set("N", n);
  p.set("m", 0.8);
  p.set("L", 1.3);
  return PendulumChain(p);
}

TEST(SphereModels, PotentialGradientsMatchFiniteDifferences) {
  GEOMINT_SEEDED_RNG(rng, 1);
  expect_gradient_matches_finite_differences(DoubleSphericalPendulum(double_pendulum_parameters()), rng);
  expect_gradient_matches_finite_differences(SphericalPendulum(SphericalPendulum::default_parameters()), rng);
  expect_gradient_matches_finite_differences(chain(4), rng);
}

TEST(PendulumChain, EnergyAndMomentumAreTheCartesianOnes) {
  GEOMINT_SEEDED_RNG(rng, 6);
  const int n = 4;
  const PendulumChain model = chain(n);
  const double m = 0.8, length = 1.3, g = 9.81;
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = random_state<PendulumChain>(rng, n);
    // Bob k at x_k = L (q_1 + ... + q_k); gravity along -e3, so V = sum_k m g e3.x_k.
    Vec3 x = Vec3::Zero(), v = Vec3::Zero(), momentum = Vec3::Zero();
    double energy = 0.0;
    for (int k = 0; k < n; ++k) {
      const Vec3 q = y.segment<3>(3 * k), w = y.segment<3>(3 * (n + k));
      x += length * q;
      v += length * w.cross(q);
      energy += 0.5 * m * v.squaredNorm() + m * g * x.z();
      momentum += m * x.cross(v);
    }
    EXPECT_NEAR(model.energy(y), energy, 1e-12 * (1 + std::abs(energy)));
    EXPECT_EIGEN_NEAR(model.angular_momentum(y), momentum, 1e-12 * (1 + momentum.norm()));
  }
}

TEST(PendulumChain, TwoLinksAreTheDoublePendulumWithGravityReversed) {
  GEOMINT_SEEDED_RNG(rng, 7);
  auto p = DoubleSphericalPendulum::default_parameters();
  p.set("m1", 0.8);
  p.set("m2", 0.8);
  p.set("l1", 1.3);
  p.set("l2", 1.3);
  p.set("g", -9.81);  // LLM's gravity points along +e3, Celledoni's along -e3
  const DoubleSphericalPendulum pendulum(p);
  const PendulumChain two = chain(2);
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = random_state<DoubleSphericalPendulum>(rng, 2);
    DoubleSphericalPendulum::State a(12);
    PendulumChain::State b(12);
    pendulum.rhs(0.0, y, a);
    two.rhs(0.0, PendulumChain::State(y), b);
    EXPECT_EIGEN_NEAR(b, a, 1e-12 * (1 + a.norm()));
  }
}

TEST(DoubleSphericalPendulum, EnergyAndMomentumAreTheCartesianOnes) {
  GEOMINT_SEEDED_RNG(rng, 2);
  const auto p = double_pendulum_parameters();
  const DoubleSphericalPendulum model(p);
  const double m1 = p["m1"], m2 = p["m2"], l1 = p["l1"], l2 = p["l2"], g = p["g"];
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = random_state<DoubleSphericalPendulum>(rng, 2);
    const Vec3 q1 = y.segment<3>(0), q2 = y.segment<3>(3), w1 = y.segment<3>(6), w2 = y.segment<3>(9);
    const Vec3 x1 = l1 * q1, x2 = x1 + l2 * q2;
    const Vec3 v1 = l1 * w1.cross(q1), v2 = v1 + l2 * w2.cross(q2);
    const double energy = 0.5 * m1 * v1.squaredNorm() + 0.5 * m2 * v2.squaredNorm() -
                          g * (m1 * x1.z() + m2 * x2.z());  // gravity along +e3
    const Vec3 momentum = m1 * x1.cross(v1) + m2 * x2.cross(v2);
    EXPECT_NEAR(model.energy(y), energy, 1e-12 * (1 + std::abs(energy)));
    EXPECT_EIGEN_NEAR(model.angular_momentum(y), momentum, 1e-12 * (1 + momentum.norm()));
  }
}

TEST(DoubleSphericalPendulum, AccelerationsMatchACartesianDerivationWithLinkTensions) {
  GEOMINT_SEEDED_RNG(rng, 3);
  const auto p = double_pendulum_parameters();
  const DoubleSphericalPendulum model(p);
  const double m1 = p["m1"], m2 = p["m2"], l1 = p["l1"], l2 = p["l2"], g = p["g"];
  const Vec3 e3(0, 0, 1);
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = random_state<DoubleSphericalPendulum>(rng, 2);
    const Vec3 q1 = y.segment<3>(0), q2 = y.segment<3>(3), w1 = y.segment<3>(6), w2 = y.segment<3>(9);
    // Bobs at x1 = l1 q1, x2 = x1 + l2 q2; link forces lambda1 q1 on bob 1 and lambda2 q2 on
    // bob 2 (minus it on bob 1):  m1 x1'' = m1 g e3 + lambda1 q1 - lambda2 q2,
    // m2 x2'' = m2 g e3 + lambda2 q2. The lambdas make |x1| and |x2 - x1| constant:
    //   x1 . x1'' + |x1'|^2 = 0,  (x2 - x1) . (x2'' - x1'') + |x2' - x1'|^2 = 0.
    const Vec3 v1 = l1 * w1.cross(q1), v21 = l2 * w2.cross(q2);
    const double c = q1.dot(q2);
    Eigen::Matrix2d a;
    a << l1 / m1, -l1 * c / m1,  //
        -l2 * c / m1, l2 * (1.0 / m2 + 1.0 / m1);
    const Eigen::Vector2d b(-l1 * g * q1.z() - v1.squaredNorm(), -v21.squaredNorm());
    const Eigen::Vector2d lambda = a.lu().solve(b);
    const Vec3 a1 = g * e3 + (lambda(0) * q1 - lambda(1) * q2) / m1;
    const Vec3 a2 = g * e3 + lambda(1) * q2 / m2;
    // From the model: q_i'' = w_i' x q_i + w_i x (w_i x q_i).
    DoubleSphericalPendulum::State dy(12);
    model.rhs(0.0, y, dy);
    const Vec3 q1dd = dy.segment<3>(6).cross(q1) + w1.cross(w1.cross(q1));
    const Vec3 q2dd = dy.segment<3>(9).cross(q2) + w2.cross(w2.cross(q2));
    EXPECT_EIGEN_NEAR(l1 * q1dd, a1, 1e-11 * (1 + a1.norm()));
    EXPECT_EIGEN_NEAR(l1 * q1dd + l2 * q2dd, a2, 1e-11 * (1 + a2.norm()));
  }
}

TEST(SphericalPendulum, AccelerationIsTheClassicalOne) {
  GEOMINT_SEEDED_RNG(rng, 4);
  auto p = SphericalPendulum::default_parameters();
  p.set("l", 0.7);
  p.set("m", 2.0);
  const SphericalPendulum model(p);
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = random_state<SphericalPendulum>(rng, 1);
    const Vec3 q = y.segment<3>(0), w = y.segment<3>(3);
    SphericalPendulum::State dy(6);
    model.rhs(0.0, y, dy);
    const Vec3 qdot = w.cross(q);
    const Vec3 expected = (9.81 / 0.7) * (Vec3::UnitZ() - q.z() * q) - qdot.squaredNorm() * q;
    EXPECT_EIGEN_NEAR(dy.segment<3>(3).cross(q) + w.cross(qdot), expected, 1e-12);
  }
}

template <class Model>
void expect_field_tangent_and_conservative(const Model& model, testing::Rng& rng) {
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = random_state<Model>(rng, model.bodies());
    typename Model::State f(y.size());
    model.rhs(0.0, y, f);
    const double e = 1e-6;
    const auto yp = (y + e * f).eval(), ym = (y - e * f).eval();
    const double scale = 1.0 + std::abs(model.energy(y));
    EXPECT_NEAR((model.energy(yp) - model.energy(ym)) / (2 * e), 0.0, 1e-6 * scale);
    EXPECT_NEAR((model.angular_momentum(yp).z() - model.angular_momentum(ym).z()) / (2 * e), 0.0,
                1e-6 * scale);
    const Eigen::Index n = model.bodies();
    for (Eigen::Index i = 0; i < n; ++i) {
      const Vec3 q = y.template segment<3>(3 * i), w = y.template segment<3>(3 * (n + i));
      const Vec3 qd = f.template segment<3>(3 * i), wd = f.template segment<3>(3 * (n + i));
      EXPECT_NEAR(q.dot(qd), 0.0, 1e-13);                     // d|q|^2/dt
      EXPECT_NEAR(qd.dot(w) + q.dot(wd), 0.0, 1e-12 * scale);  // d(q.w)/dt
    }
    // Celledoni Section 5.2: the generator f(y) in se(3)^n reproduces the field.
    typename Model::Algebra xi(y.size());
    typename Model::State g(y.size());
    model.generator(0.0, y, xi);
    Model::Group::generator(xi, y, g);
    EXPECT_EIGEN_NEAR(g, f, 1e-12 * (1.0 + f.norm()));
  }
}

TEST(SphereModels, VectorFieldIsTangentConservesEnergyAndMomentumAndComesFromTheGenerator) {
  GEOMINT_SEEDED_RNG(rng, 5);
  expect_field_tangent_and_conservative(DoubleSphericalPendulum(double_pendulum_parameters()), rng);
  expect_field_tangent_and_conservative(SphericalPendulum(SphericalPendulum::default_parameters()), rng);
  expect_field_tangent_and_conservative(chain(5), rng);
}

TEST(SphereModels, PresetsLieOnTheManifold) {
  const auto dp = testing::make_setup<DoubleSphericalPendulum>("lee2009");
  EXPECT_LT(DoubleSphericalPendulum::unit_length_defect(dp.initial), 1e-15);
  EXPECT_LT(DoubleSphericalPendulum::tangency_defect(dp.initial), 1e-15);
  const auto sp = testing::make_setup<SphericalPendulum>("swing");
  EXPECT_LT(SphericalPendulum::unit_length_defect(sp.initial), 1e-15);
  EXPECT_LT(SphericalPendulum::tangency_defect(sp.initial), 1e-15);
  for (const auto& preset : PendulumChain::presets()) {
    const auto c = testing::make_setup<PendulumChain>(preset.name);
    EXPECT_LT(PendulumChain::unit_length_defect(c.initial), 1e-15) << preset.name;
    EXPECT_LT(PendulumChain::tangency_defect(c.initial), 1e-15) << preset.name;
  }
}

TEST(SphereModels, RejectNonPositiveMassesAndLengths) {
  auto p = DoubleSphericalPendulum::default_parameters();
  EXPECT_THROW(p.set("l2", 0.0), InputError);
  EXPECT_THROW(p.set("l3", 1.0), InputError);
}

}  // namespace
}  // namespace geomint
