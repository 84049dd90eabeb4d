// Label `unit`: magnetic_dipoles (LLM Example 5) against the textbook dipole formulas.
//
//   - V against the dipole-dipole energy U = mu/(4 pi r^3) [m_i.m_j - 3 (m_i.r^)(m_j.r^)] with
//     explicit moments m_i = nu q_i at pivots laid out here (row by row in the e1-e2 plane,
//     rows along e1, stacked along -e2);
//   - the angular accelerations against torque / moment of inertia, the torque m_i x B_i with
//     B_i = sum_j mu/(4 pi r^3) [3 r^ (r^.m_j) - m_j] the field of the other dipoles;
//   - dV/dq against central finite differences of V;
//   - the vector field is tangent, conserves the energy and comes from the generator;
//   - the preset lies on (TS^2)^16 and is the paper's.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <numbers>
#include <vector>

#include "models/magnetic_dipoles.hpp"
#include "support/eigen_matchers.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"
#include "support/vector_field_checks.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;
using State = MagneticDipoles::State;

struct Values {
  int rows = 3, columns = 4;
  double m = 0.04, l = 0.03, nu = 0.2, spacing = 1.5, mu = 4e-7 * std::numbers::pi;
};

MagneticDipoles make_model(const Values& v) {
  auto p = MagneticDipoles::default_parameters();
  p.set("rows", v.rows);
  p.set("columns", v.columns);
  p.set("m", v.m);
  p.set("l", v.l);
  p.set("nu", v.nu);
  p.set("spacing", v.spacing);
  p.set("mu", v.mu);
  return MagneticDipoles(p);
}

std::vector<Vec3> grid(const Values& v) {
  std::vector<Vec3> r;
  const double a = v.spacing * v.l;
  for (int row = 0; row < v.rows; ++row)
    for (int c = 0; c < v.columns; ++c) r.emplace_back(a * c, -a * row, 0.0);
  return r;
}

State random_state(testing::Rng& rng, Eigen::Index n) {
  State y(6 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 q = rng.unit3();
    Vec3 w(rng.normal(), rng.normal(), rng.normal());
    w -= q.dot(w) * q;
    y.segment<3>(3 * i) = q;
    y.segment<3>(3 * (n + i)) = w;
  }
  return y;
}

TEST(MagneticDipoles, PotentialIsTheDipoleDipoleEnergy) {
  GEOMINT_SEEDED_RNG(rng, 401);
  const Values v;
  const MagneticDipoles model = make_model(v);
  const auto r = grid(v);
  const auto n = static_cast<Eigen::Index>(r.size());
  ASSERT_EQ(model.bodies(), n);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, n);
    double expected = 0.0;
    for (std::size_t i = 0; i < r.size(); ++i)
      for (std::size_t j = i + 1; j < r.size(); ++j) {
        const Vec3 mi = v.nu * y.segment<3>(3 * static_cast<Eigen::Index>(i));
        const Vec3 mj = v.nu * y.segment<3>(3 * static_cast<Eigen::Index>(j));
        const Vec3 d = r[j] - r[i];
        const double dist = d.norm();
        const Vec3 u = d / dist;
        expected += v.mu / (4 * std::numbers::pi * std::pow(dist, 3)) *
                    (mi.dot(mj) - 3 * mi.dot(u) * mj.dot(u));
      }
    const MagneticDipoles::Points q = MagneticDipoles::positions(y);
    EXPECT_NEAR(model.potential(q), expected, 1e-13 * std::abs(expected));
  }
}

TEST(MagneticDipoles, AngularAccelerationIsTorqueOverMomentOfInertia) {
  GEOMINT_SEEDED_RNG(rng, 402);
  const Values v;
  const MagneticDipoles model = make_model(v);
  const auto r = grid(v);
  const auto n = static_cast<Eigen::Index>(r.size());
  const double inertia = v.m * v.l * v.l / 12.0;  // a thin rod about its centre
  for (int trial = 0; trial < 3; ++trial) {
    const State y = random_state(rng, n);
    State dy(y.size());
    model.rhs(0.0, y, dy);
    for (Eigen::Index i = 0; i < n; ++i) {
      Vec3 field = Vec3::Zero();
      for (Eigen::Index j = 0; j < n; ++j) {
        if (j == i) continue;
        const Vec3 d = r[static_cast<std::size_t>(i)] - r[static_cast<std::size_t>(j)];
        const double dist = d.norm();
        const Vec3 u = d / dist;
        const Vec3 mj = v.nu * y.segment<3>(3 * j);
        field += v.mu / (4 * std::numbers::pi * std::pow(dist, 3)) * (3 * u * u.dot(mj) - mj);
      }
      const Vec3 torque = (v.nu * y.segment<3>(3 * i)).cross(field);
      EXPECT_EIGEN_NEAR(Vec3(dy.segment<3>(3 * (n + i))), torque / inertia,
                        1e-12 * torque.norm() / inertia)
          << "magnet " << i + 1;
    }
  }
}

TEST(MagneticDipoles, PotentialGradientMatchesFiniteDifferences) {
  GEOMINT_SEEDED_RNG(rng, 403);
  const MagneticDipoles model = make_model(Values{});
  const Eigen::Index n = model.bodies();
  for (int trial = 0; trial < 3; ++trial) {
    const State y = random_state(rng, n);
    MagneticDipoles::Points q = MagneticDipoles::positions(y), grad = q;
    model.potential_gradient(q, grad);
    const double scale = grad.cwiseAbs().maxCoeff();
    for (Eigen::Index k = 0; k < q.size(); ++k) {
      const double e = 1e-6;
      MagneticDipoles::Points qp = q, qm = q;
      qp(k) += e;
      qm(k) -= e;
      EXPECT_NEAR(grad(k), (model.potential(qp) - model.potential(qm)) / (2 * e), 1e-8 * scale)
          << "component " << k;
    }
  }
}

TEST(MagneticDipoles, VectorFieldIsTangentConservesEnergyAndComesFromTheGenerator) {
  GEOMINT_SEEDED_RNG(rng, 404);
  const MagneticDipoles model = make_model(Values{});
  const Eigen::Index n = model.bodies();
  for (int trial = 0; trial < 3; ++trial) {
    const State y = random_state(rng, n);
    State f(y.size());
    model.rhs(0.0, y, f);
    // Step so that q moves by ~1e-6 (the field's w-part is large: the inertia is ~1e-6).
    testing::expect_sphere_vector_field(model, y, 1e-6 / f.cwiseAbs().maxCoeff());
  }
}

TEST(MagneticDipoles, PresetIsThePapersOnTheManifold) {
  const auto s = testing::make_setup<MagneticDipoles>("lee2009");
  ASSERT_EQ(s.model.bodies(), 16);
  EXPECT_LT(MagneticDipoles::unit_length_defect(s.initial), 1e-15);
  EXPECT_LT(MagneticDipoles::tangency_defect(s.initial), 1e-15);
  const MagneticDipoles::Points q = MagneticDipoles::positions(s.initial);
  const MagneticDipoles::Points w = MagneticDipoles::velocities(s.initial);
  // The printed q_16 = (0.3536, 0.3536, -0.8660) to its four digits; w_1 = (0, 0.5, 0).
  EXPECT_EIGEN_NEAR(Vec3(q.col(15)), Vec3(0.3536, 0.3536, -0.8660), 5e-5);
  EXPECT_EIGEN_NEAR(Vec3(w.col(0)), Vec3(0, 0.5, 0), 0.0);
  for (Eigen::Index i = 0; i < 15; ++i) EXPECT_EIGEN_NEAR(Vec3(q.col(i)), Vec3::UnitX(), 0.0);
  EXPECT_EQ(w.norm(), 0.5);
  // The grid: spacing 1.2 l = 0.024 m, magnet 4 at the top-right corner, 16 at the bottom-right.
  EXPECT_EIGEN_NEAR(s.model.pivot(0), Vec3(0.0, 0.0, 0.0), 0.0);
  EXPECT_EIGEN_NEAR(s.model.pivot(3), Vec3(0.072, 0.0, 0.0), 1e-16);
  EXPECT_EIGEN_NEAR(s.model.pivot(15), Vec3(0.072, -0.072, 0.0), 1e-16);
  EXPECT_NEAR(s.model.inertia()(0, 0), 0.05 * 0.02 * 0.02 / 12, 1e-22);
}

TEST(MagneticDipoles, RejectsBadParameters) {
  auto p = MagneticDipoles::default_parameters();
  EXPECT_THROW(p.set("columns", 2.5), InputError);
  EXPECT_THROW(p.set("nu", 0.0), InputError);
  p.set("rows", 1);
  p.set("columns", 1);
  EXPECT_THROW(MagneticDipoles{p}, InputError);  // each count is fine, one magnet is not
}

}  // namespace
}  // namespace geomint
