// Label `unit`: sphere_nbody (LLM Example 2) against independent derivations.
//
//   - V against -gamma sum_{i<j} cot(theta_ij), the angles from atan2(|q_i x q_j|, q_i.q_j);
//   - dV/dq against central finite differences of V;
//   - the accelerations against LLM (3.21) written out here,
//       m q_i'' = -m |q_i'|^2 q_i - q_i x (q_i x gamma sum_{j != i} q_j / (1 - (q_i.q_j)^2)^{3/2});
//   - the vector field is tangent to (TS^2)^n and conserves the energy and all three components
//     of the angular momentum (directional derivatives by finite differences vanish), and the
//     Lie algebra generator reproduces it;
//   - the preset lies on (TS^2)^3 and starts with E = 1.605.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "models/sphere_nbody.hpp"
#include "support/eigen_matchers.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"
#include "support/vector_field_checks.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;
using State = SphereNBody::State;

SphereNBody make_model(int n, double m, double gamma) {
  auto p = SphereNBody::default_parameters();
  p.set("n", n);
  p.set("m", m);
  p.set("gamma", gamma);
  return SphereNBody(p);
}

/// A random point of (TS^2)^n, |w_i| of order one, with no two bodies within ~25 degrees of
/// colliding or of being antipodal (|q_i.q_j| < 0.9), where V and its derivatives are O(1).
State random_state(testing::Rng& rng, Eigen::Index n) {
  return testing::random_sphere_state<State>(rng, n, [](const Vec3& a, const Vec3& b) {
    return std::abs(a.dot(b)) < 0.9;
  });
}

TEST(SphereNBody, PotentialIsMinusGammaTimesTheCotangentsOfThePairAngles) {
  GEOMINT_SEEDED_RNG(rng, 101);
  const double gamma = 0.7;
  const SphereNBody model = make_model(4, 1.3, gamma);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, 4);
    const SphereNBody::Points q = SphereNBody::positions(y);
    double expected = 0.0;
    for (int i = 0; i < 4; ++i)
      for (int j = i + 1; j < 4; ++j) {
        const double theta = std::atan2(q.col(i).cross(q.col(j)).norm(), q.col(i).dot(q.col(j)));
        expected -= gamma / std::tan(theta);
      }
    EXPECT_NEAR(model.potential(q), expected, 1e-13 * (1.0 + std::abs(expected)));
  }
}

TEST(SphereNBody, PotentialGradientMatchesFiniteDifferences) {
  GEOMINT_SEEDED_RNG(rng, 102);
  const SphereNBody model = make_model(5, 1.0, 1.4);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, 5);
    SphereNBody::Points q = SphereNBody::positions(y), grad = q;
    model.potential_gradient(q, grad);
    for (Eigen::Index k = 0; k < q.size(); ++k) {
      const double e = 1e-6;
      SphereNBody::Points qp = q, qm = q;
      qp(k) += e;
      qm(k) -= e;
      const double fd = (model.potential(qp) - model.potential(qm)) / (2 * e);
      EXPECT_NEAR(grad(k), fd, 1e-7 * (1.0 + std::abs(fd))) << "component " << k;
    }
  }
}

TEST(SphereNBody, AccelerationsAreLlm321) {
  GEOMINT_SEEDED_RNG(rng, 103);
  const double m = 0.8, gamma = 1.7;
  const SphereNBody model = make_model(3, m, gamma);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, 3);
    State dy(18);
    model.rhs(0.0, y, dy);
    for (int i = 0; i < 3; ++i) {
      const Vec3 q = y.segment<3>(3 * i), w = y.segment<3>(3 * (3 + i));
      Vec3 pull = Vec3::Zero();
      for (int j = 0; j < 3; ++j) {
        if (j == i) continue;
        const Vec3 qj = y.segment<3>(3 * j);
        const double c = q.dot(qj);
        pull += gamma * qj / std::pow(1.0 - c * c, 1.5);
      }
      const Vec3 qdot = w.cross(q);
      const Vec3 expected = -qdot.squaredNorm() * q - q.cross(q.cross(pull)) / m;  // (3.21)
      const Vec3 qddot = dy.segment<3>(3 * (3 + i)).cross(q) + w.cross(qdot);
      EXPECT_EIGEN_NEAR(qddot, expected, 1e-12 * (1.0 + expected.norm())) << "body " << i + 1;
    }
  }
}

TEST(SphereNBody, VectorFieldIsTangentConservesEnergyAndAngularMomentumAndComesFromTheGenerator) {
  GEOMINT_SEEDED_RNG(rng, 104);
  const SphereNBody model = make_model(4, 1.1, 0.9);
  const Eigen::Index n = 4;
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, n);
    const auto p = testing::expect_sphere_vector_field(model, y, 1e-6);
    const Vec3 djdt = (model.angular_momentum(p.yp) - model.angular_momentum(p.ym)) / (2 * p.e);
    EXPECT_EIGEN_NEAR(djdt, Vec3::Zero(), 1e-6 * (1.0 + p.power));
    EXPECT_EIGEN_NEAR(model.conserved_momentum(y), model.angular_momentum(y), 0.0);
  }
}

TEST(SphereNBody, PresetLiesOnTheManifoldWithThePaperInitialEnergy) {
  const auto s = testing::make_setup<SphereNBody>("lee2009");
  EXPECT_EQ(s.model.bodies(), 3);
  EXPECT_LT(SphereNBody::unit_length_defect(s.initial), 1e-15);
  EXPECT_LT(SphereNBody::tangency_defect(s.initial), 1e-15);
  // q_i mutually orthogonal: V = 0; T = (1.1^2 + 1 + 1)/2.
  EXPECT_NEAR(s.model.energy(s.initial), 1.605, 1e-15);
  EXPECT_EQ(SphereNBody::momentum_names(), (std::vector<std::string>{"Lx", "Ly", "Lz"}));
}

TEST(SphereNBody, RejectsBadParameters) {
  auto p = SphereNBody::default_parameters();
  EXPECT_THROW(p.set("n", 1), InputError);
  EXPECT_THROW(p.set("n", 2.5), InputError);
  EXPECT_THROW(p.set("m", 0.0), InputError);
}

}  // namespace
}  // namespace geomint
