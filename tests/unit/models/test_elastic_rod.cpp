// Label `unit`: elastic_rod (LLM Example 4) against independent derivations.
//
//   - the printed inertia (uniform_rods = 0) against the entries of LLM (3.24):
//       M_ii = (n - i + 1/3) m l^2/(n+1)^3,   M_ij = (n - max(i,j) + 1)/2 m l^2/(n+1)^3;
//   - the uniform-rod inertia (uniform_rods = 1): the model's kinetic energy against
//     1/2 int rho |x'(s)|^2 ds along every element, by Gauss-Legendre quadrature of the
//     velocity of points of the rod, x(s) = sum_{j<k} l_j q_j + s q_k;
//   - the potential against a Cartesian one: element centres for gravity, bending angles from
//     atan2 for 1/2 kappa (1 - cos theta)^2;
//   - dV/dq against central finite differences of V;
//   - for both inertias the vector field is tangent, conserves the energy and comes from the
//     Lie algebra generator;
//   - both presets lie on (TS^2)^10, start straight and horizontal with the blow on element 5.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "models/elastic_rod.hpp"
#include "support/eigen_matchers.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"
#include "support/vector_field_checks.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;
using State = ElasticRod::State;

struct Values {
  int n = 6;
  double m = 0.07, l = 1.3, g = 9.7, kappa = 3.0;
};

ElasticRod make_model(const Values& v, bool uniform_rods) {
  auto p = ElasticRod::default_parameters();
  p.set("n", v.n);
  p.set("m", v.m);
  p.set("l", v.l);
  p.set("g", v.g);
  p.set("kappa", v.kappa);
  p.set("uniform_rods", uniform_rods ? 1.0 : 0.0);
  return ElasticRod(p);
}

/// A random point of (TS^2)^n near the rod's rest direction e1 (bends up to ~60 degrees),
/// |w_i| of order one.
State random_state(testing::Rng& rng, Eigen::Index n) {
  State y(6 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 q = (Vec3::UnitX() + 0.6 * rng.vec3()).normalized();
    Vec3 w(rng.normal(), rng.normal(), rng.normal());
    w -= q.dot(w) * q;
    y.segment<3>(3 * i) = q;
    y.segment<3>(3 * (n + i)) = w;
  }
  return y;
}

TEST(ElasticRod, PrintedInertiaIsLlm324) {
  for (int n : {1, 2, 5, 10}) {
    Values v;
    v.n = n;
    const ElasticRod model = make_model(v, false);
    const double unit = v.m * v.l * v.l / std::pow(n + 1.0, 3);
    const auto& m = model.inertia();
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j) {
        const double expected =
            i == j ? (n - i + 1.0 / 3.0) * unit : (n - std::max(i, j) + 1.0) / 2.0 * unit;
        EXPECT_NEAR(m(i - 1, j - 1), expected, 1e-14 * expected) << "n = " << n << ", M_" << i << j;
      }
    // (3.24) prints the first row as (n - 2/3, (n-1)/2, ..., 1/2) ml^2/(n+1)^3.
    EXPECT_NEAR(m(0, 0), (n - 2.0 / 3.0) * unit, 1e-14 * n * unit);
    EXPECT_NEAR(m(n - 1, n - 1), unit / 3.0, 1e-14 * unit);
    EXPECT_EQ(model.inertia().llt().info(), Eigen::Success) << "n = " << n;
  }
}

/// 1/2 int_0^{l_k} (m_k/l_k) |v_k(s)|^2 ds, summed over the elements, with 3-point
/// Gauss-Legendre on each element (exact for the quadratic integrand, whatever the rounding).
double rod_kinetic_energy(const Values& v, const State& y) {
  const int n = v.n;
  const double me = v.m / (n + 1), le = v.l / (n + 1);
  const double nodes[3] = {-std::sqrt(0.6), 0.0, std::sqrt(0.6)};
  const double weights[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};
  double energy = 0.0;
  Vec3 joint_velocity = Vec3::Zero();  // the velocity of the start of element k
  for (int k = 0; k < n; ++k) {
    const Vec3 q = y.segment<3>(3 * k), w = y.segment<3>(3 * (n + k));
    const Vec3 qdot = w.cross(q);
    for (int p = 0; p < 3; ++p) {
      const double s = 0.5 * le * (1.0 + nodes[p]);
      energy += 0.5 * (me / le) * (joint_velocity + s * qdot).squaredNorm() * weights[p] * 0.5 * le;
    }
    joint_velocity += le * qdot;
  }
  return energy;
}

TEST(ElasticRod, UniformRodInertiaIsTheKineticEnergyOfUniformRods) {
  GEOMINT_SEEDED_RNG(rng, 301);
  const Values v;
  const ElasticRod model = make_model(v, true);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, v.n);
    const double expected = rod_kinetic_energy(v, y);
    EXPECT_NEAR(model.kinetic_energy(y), expected, 1e-14 * expected);
  }
  // And it differs from the printed one off the diagonal (except in the last column).
  const ElasticRod printed = make_model(v, false);
  EXPECT_EIGEN_NEAR(model.inertia().diagonal(), printed.inertia().diagonal(), 1e-17);
  EXPECT_NEAR(model.inertia()(0, v.n - 1), printed.inertia()(0, v.n - 1), 1e-17);
  EXPECT_GT(std::abs(model.inertia()(0, 1) - printed.inertia()(0, 1)),
            1e-3 * model.inertia()(0, 1));
}

TEST(ElasticRod, PotentialIsTheCartesianOne) {
  GEOMINT_SEEDED_RNG(rng, 302);
  const Values v;
  for (bool uniform : {false, true}) {
    const ElasticRod model = make_model(v, uniform);
    for (int trial = 0; trial < 5; ++trial) {
      const State y = random_state(rng, v.n);
      const double me = v.m / (v.n + 1), le = v.l / (v.n + 1);
      // Element k from the clamped joint: centre at sum_{j<k} l_j q_j + l_k/2 q_k. The clamp
      // (along e1) is horizontal, so its own weight and offset add nothing.
      double expected = 0.0;
      Vec3 joint = Vec3::Zero(), previous = Vec3::UnitX();
      for (int k = 0; k < v.n; ++k) {
        const Vec3 q = y.segment<3>(3 * k);
        expected -= me * v.g * (joint + 0.5 * le * q).z();  // gravity along +e3
        const double theta = std::atan2(previous.cross(q).norm(), previous.dot(q));
        expected += 0.5 * v.kappa * std::pow(1.0 - std::cos(theta), 2);
        joint += le * q;
        previous = q;
      }
      const ElasticRod::Points q = ElasticRod::positions(y);
      EXPECT_NEAR(model.potential(q), expected, 1e-14 * (1.0 + std::abs(expected)));
    }
  }
}

TEST(ElasticRod, PotentialGradientMatchesFiniteDifferences) {
  GEOMINT_SEEDED_RNG(rng, 303);
  const Values v;
  const ElasticRod model = make_model(v, false);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, v.n);
    ElasticRod::Points q = ElasticRod::positions(y), grad = q;
    model.potential_gradient(q, grad);
    for (Eigen::Index k = 0; k < q.size(); ++k) {
      const double e = 1e-6;
      ElasticRod::Points qp = q, qm = q;
      qp(k) += e;
      qm(k) -= e;
      const double fd = (model.potential(qp) - model.potential(qm)) / (2 * e);
      EXPECT_NEAR(grad(k), fd, 1e-8 * (1.0 + grad.cwiseAbs().maxCoeff())) << "component " << k;
    }
  }
}

TEST(ElasticRod, VectorFieldIsTangentConservesEnergyAndComesFromTheGenerator) {
  GEOMINT_SEEDED_RNG(rng, 304);
  const Values v;
  const Eigen::Index n = v.n;
  for (bool uniform : {false, true}) {
    const ElasticRod model = make_model(v, uniform);
    for (int trial = 0; trial < 5; ++trial) {
      SCOPED_TRACE(uniform ? "uniform rods" : "printed inertia");
      testing::expect_sphere_vector_field(model, random_state(rng, n), 1e-6);
    }
  }
}

TEST(ElasticRod, PresetsStartStraightAndHorizontalOnTheManifold) {
  for (const char* name : {"lee2009", "lee2009_uniform_rods"}) {
    const auto s = testing::make_setup<ElasticRod>(name);
    ASSERT_EQ(s.model.bodies(), 10) << name;
    EXPECT_LT(ElasticRod::unit_length_defect(s.initial), 1e-15) << name;
    EXPECT_LT(ElasticRod::tangency_defect(s.initial), 1e-15) << name;
    const ElasticRod::Points q = ElasticRod::positions(s.initial);
    EXPECT_EQ(s.model.potential(q), 0.0) << name;  // straight (no bending), horizontal
    const ElasticRod::Points w = ElasticRod::velocities(s.initial);
    EXPECT_EIGEN_NEAR(Vec3(w.col(4)), Vec3(0, 0, 10), 0.0) << name;
    EXPECT_EQ(w.norm(), 10.0) << name;
    // Each element 5 g and 0.1 m: M_55 = (10 - 5 + 1/3) 5e-3 0.1^2.
    EXPECT_NEAR(s.model.inertia()(4, 4), (16.0 / 3.0) * 5e-5, 1e-18) << name;
  }
}

TEST(ElasticRod, RejectsBadParameters) {
  auto p = ElasticRod::default_parameters();
  EXPECT_THROW(p.set("uniform_rods", 0.5), InputError);
  EXPECT_THROW(p.set("n", 0), InputError);
}

}  // namespace
}  // namespace geomint
