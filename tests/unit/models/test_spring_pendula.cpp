// Label `unit`: spring_pendula (LLM Example 3) against independent derivations.
//
//   - the energy against a Cartesian computation: pivots at the corners of the square, bobs at
//     p_i + l q_i with velocities l q_i', springs between the link midpoints p_i + l/2 q_i;
//   - dV/dq against central finite differences of V;
//   - the vector field is tangent to (TS^2)^4, conserves the energy and comes from the Lie
//     algebra generator; and it does NOT conserve L_z, which is why the model declares no
//     symmetry;
//   - the preset lies on (TS^2)^4 and is the paper's (q_3 30 degrees from the vertical).

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <numbers>

#include "models/spring_pendula.hpp"
#include "support/eigen_matchers.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"
#include "support/vector_field_checks.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;
using State = SpringPendula::State;

struct Values {
  double m = 0.13, l = 0.21, g = 9.7, d = 0.17;
  std::array<double, 4> kappa{11.0, 23.0, 37.0, 41.0};
};

SpringPendula make_model(const Values& v) {
  auto p = SpringPendula::default_parameters();
  p.set("m", v.m);
  p.set("l", v.l);
  p.set("g", v.g);
  p.set("d", v.d);
  p.set("kappa12", v.kappa[0]);
  p.set("kappa23", v.kappa[1]);
  p.set("kappa34", v.kappa[2]);
  p.set("kappa41", v.kappa[3]);
  return SpringPendula(p);
}

/// A random point of (TS^2)^4 with q_i in the lower hemisphere (hanging), |w_i| of order one.
State random_state(testing::Rng& rng) {
  State y;
  for (int i = 0; i < 4; ++i) {
    Vec3 q = rng.unit3();
    q.z() = std::abs(q.z());
    Vec3 w(rng.normal(), rng.normal(), rng.normal());
    w -= q.dot(w) * q;
    y.segment<3>(3 * i) = q;
    y.segment<3>(3 * (4 + i)) = w;
  }
  return y;
}

/// LLM's layout written out: r_12 = d e1, r_23 = -d e2, r_34 = -d e1, r_41 = d e2 from p_1 = 0.
std::array<Vec3, 4> pivots(double d) {
  return {Vec3(0, 0, 0), Vec3(d, 0, 0), Vec3(d, -d, 0), Vec3(0, -d, 0)};
}

double cartesian_energy(const Values& v, const State& y) {
  const auto p = pivots(v.d);
  double energy = 0.0;
  std::array<Vec3, 4> mid;
  for (int i = 0; i < 4; ++i) {
    const Vec3 q = y.segment<3>(3 * i), w = y.segment<3>(3 * (4 + i));
    const Vec3 bob = p[static_cast<std::size_t>(i)] + v.l * q;
    const Vec3 velocity = v.l * w.cross(q);
    energy += 0.5 * v.m * velocity.squaredNorm() - v.m * v.g * bob.z();  // gravity along +e3
    mid[static_cast<std::size_t>(i)] = p[static_cast<std::size_t>(i)] + 0.5 * v.l * q;
  }
  const std::array<std::array<int, 2>, 4> ring{{{0, 1}, {1, 2}, {2, 3}, {3, 0}}};
  for (std::size_t k = 0; k < 4; ++k) {
    const auto i = static_cast<std::size_t>(ring[k][0]), j = static_cast<std::size_t>(ring[k][1]);
    const double rest = (p[j] - p[i]).norm();
    const double stretch = (mid[j] - mid[i]).norm() - rest;
    energy += 0.5 * v.kappa[k] * stretch * stretch;
  }
  return energy;
}

TEST(SpringPendula, EnergyIsTheCartesianOne) {
  GEOMINT_SEEDED_RNG(rng, 201);
  const Values v;
  const SpringPendula model = make_model(v);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng);
    const double expected = cartesian_energy(v, y);
    EXPECT_NEAR(model.energy(y), expected, 1e-14 * (1.0 + std::abs(expected)));
  }
}

TEST(SpringPendula, PotentialGradientMatchesFiniteDifferences) {
  GEOMINT_SEEDED_RNG(rng, 202);
  const SpringPendula model = make_model(Values{});
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng);
    SpringPendula::Points q = SpringPendula::positions(y), grad;
    model.potential_gradient(q, grad);
    for (Eigen::Index k = 0; k < q.size(); ++k) {
      const double e = 1e-6;
      SpringPendula::Points qp = q, qm = q;
      qp(k) += e;
      qm(k) -= e;
      const double fd = (model.potential(qp) - model.potential(qm)) / (2 * e);
      EXPECT_NEAR(grad(k), fd, 1e-8 * (1.0 + grad.cwiseAbs().maxCoeff())) << "component " << k;
    }
  }
}

TEST(SpringPendula, VectorFieldIsTangentConservesEnergyAndComesFromTheGenerator) {
  GEOMINT_SEEDED_RNG(rng, 203);
  const SpringPendula model = make_model(Values{});
  double largest_lz_rate = 0.0;
  for (int trial = 0; trial < 5; ++trial) {
    const auto p = testing::expect_sphere_vector_field(model, random_state(rng), 1e-6);
    const double lz_rate =
        (model.angular_momentum(p.yp).z() - model.angular_momentum(p.ym).z()) / (2 * p.e);
    largest_lz_rate = std::max(largest_lz_rate, std::abs(lz_rate) / p.power);
  }
  // The springs between spread-out pivots break the rotation symmetry about e3: L_z changes
  // at a rate comparable to the power exchanged (so Symmetry::None is the right declaration).
  EXPECT_GT(largest_lz_rate, 1e-3);
  EXPECT_TRUE(SpringPendula::momentum_names().empty());
}

TEST(SpringPendula, PresetIsThePapersOnTheManifold) {
  const auto s = testing::make_setup<SpringPendula>("lee2009");
  EXPECT_LT(SpringPendula::unit_length_defect(s.initial), 1e-15);
  EXPECT_LT(SpringPendula::tangency_defect(s.initial), 1e-15);
  // The printed q_3 = (0.4698, 0.1710, 0.8660) to the four digits it is printed with.
  EXPECT_EIGEN_NEAR(Vec3(s.initial.segment<3>(6)), Vec3(0.4698, 0.1710, 0.8660), 5e-5);
  EXPECT_NEAR(std::acos(s.initial(8)), std::numbers::pi / 6, 1e-15);
  EXPECT_EIGEN_NEAR(Vec3(s.initial.segment<3>(12)), Vec3(-10, 4, 0), 0.0);
  const auto& springs = s.model.springs();
  EXPECT_EQ(springs[0].kappa, 10.0);
  EXPECT_EQ(springs[1].kappa, 20.0);
  EXPECT_EQ(springs[2].kappa, 30.0);
  EXPECT_EQ(springs[3].kappa, 40.0);
  EXPECT_EIGEN_NEAR(springs[0].r, Vec3(0.1, 0, 0), 0.0);   // r_12 = l e1
  EXPECT_EIGEN_NEAR(springs[1].r, Vec3(0, -0.1, 0), 0.0);  // r_23 = -l e2
}

TEST(SpringPendula, RejectsBadParameters) {
  auto p = SpringPendula::default_parameters();
  EXPECT_THROW(p.set("l", -0.1), InputError);
  EXPECT_THROW(p.set("kappa23", -1.0), InputError);
}

}  // namespace
}  // namespace geomint
