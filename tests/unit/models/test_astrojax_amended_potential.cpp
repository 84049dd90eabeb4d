// Label `unit`: the Astrojax's amended potential V_mu (models/astrojax_amended_potential.hpp,
// DuToit Sections 2 and 4) against what it must be:
//   - its locked inertia and potential are the bodies' moment of inertia about e3 and
//     g (m1 z1 + m2 z2), computed from Cartesian positions (astrojax_coordinates.hpp);
//   - the closed-form cowboy relative equilibria (astrojax_relative_equilibrium.hpp, from force
//     balance, independent of V_mu) are its critical points at their own J_z, along the family
//     (theta1 from 0.05 to 1.5), and a shape or momentum off them is not;
//   - the energy-momentum classification by the Hessian's negative eigenvalues never contradicts
//     the linearisation (models/relative_equilibrium.hpp): none negative would mean stable, an
//     odd number unstable. Measured: two negative along the whole family, which decides
//     nothing; the stable cowboys are gyroscopically stable.

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>

#include "models/astrojax_amended_potential.hpp"
#include "models/astrojax_coordinates.hpp"
#include "models/astrojax_relative_equilibrium.hpp"
#include "models/relative_equilibrium.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

/// m1 = m2 = 1, l = 1, g = 9.81 (the presets' values).
Astrojax make_model() { return testing::make_setup<Astrojax>("cowboy_stable").model; }

/// The gradient of V_mu at s by central differences.
Eigen::Vector4d gradient(const Astrojax& m, const AstrojaxShape& s, double mu) {
  Eigen::Vector4d g;
  const double d = 1e-6;
  for (int i = 0; i < 4; ++i) {
    const AstrojaxShape e = AstrojaxShape::Unit(i) * d;
    g(i) = (astrojax_amended_potential(m, s + e, mu) - astrojax_amended_potential(m, s - e, mu)) / (2 * d);
  }
  return g;
}

/// The Hessian of V_mu at s by central differences.
Eigen::Matrix4d hessian(const Astrojax& m, const AstrojaxShape& s, double mu) {
  Eigen::Matrix4d h;
  const double d = 1e-4;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const AstrojaxShape a = AstrojaxShape::Unit(i) * d, b = AstrojaxShape::Unit(j) * d;
      h(i, j) = (astrojax_amended_potential(m, s + a + b, mu) - astrojax_amended_potential(m, s + a - b, mu) -
                 astrojax_amended_potential(m, s - a + b, mu) + astrojax_amended_potential(m, s - a - b, mu)) /
                (4 * d * d);
    }
  return h;
}

AstrojaxShape shape_of(const AstrojaxRelativeEquilibrium& re) { return {re.lambda, re.theta1, re.theta2, 0.0}; }

TEST(AstrojaxAmendedPotential, LockedInertiaAndPotentialAreTheCartesianOnes) {
  const Astrojax m = make_model();
  testing::Rng rng(7);
  for (int k = 0; k < 100; ++k) {
    const AstrojaxShape s(rng.uniform(0.1, 0.9), rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0));
    const double phi1 = rng.uniform(-3.0, 3.0);
    const AstrojaxState y = astrojax_rotating_state(m.l(), {s(0), s(1), phi1, s(2), phi1 - s(3)}, 0.0);
    const Eigen::Vector3d q1 = y.head<3>(), q2 = y.segment<3>(3);
    const double inertia = m.m1() * q1.head<2>().squaredNorm() + m.m2() * q2.head<2>().squaredNorm();
    const double potential = m.g() * (m.m1() * q1.z() + m.m2() * q2.z());
    EXPECT_NEAR(astrojax_locked_inertia(m, s), inertia, 1e-14 * (1 + inertia));
    EXPECT_NEAR(astrojax_amended_potential(m, s, 0.0), potential, 1e-13 * (1 + std::abs(potential)));
  }
}

TEST(AstrojaxAmendedPotential, CowboysAreItsCriticalPointsAtTheirMomentum) {
  const Astrojax m = make_model();
  const double scale = (m.m1() + m.m2()) * m.g() * m.l();  // of V's gradient
  for (double theta1 = 0.05; theta1 < 1.5; theta1 += 0.05) {
    const auto re = astrojax_cowboy(m.m1(), m.m2(), m.l(), m.g(), theta1);
    const double at = gradient(m, shape_of(re), re.angular_momentum).norm();
    const double off_shape = gradient(m, shape_of(re) + AstrojaxShape(0.01, 0, 0, 0), re.angular_momentum).norm();
    const double off_momentum = gradient(m, shape_of(re), 1.01 * re.angular_momentum).norm();
    EXPECT_LE(at, 1e-7 * scale) << "theta1 = " << theta1;
    EXPECT_GT(off_shape, 1e-3 * scale) << "theta1 = " << theta1;
    EXPECT_GT(off_momentum, 1e-3 * scale) << "theta1 = " << theta1;
    if (std::abs(theta1 - 0.5) < 1e-9 || std::abs(theta1 - 1.0) < 1e-9)
      std::printf("theta1 = %.2f: |grad V_mu| = %.1e at the cowboy, %.1e with lambda + 0.01, %.1e at 1.01 J_z\n",
                  theta1, at, off_shape, off_momentum);
  }
}

TEST(AstrojaxAmendedPotential, EnergyMomentumClassificationAgreesWithTheLinearisation) {
  const Astrojax m = make_model();
  int stable = 0, unstable = 0;
  for (double theta1 = 0.05; theta1 < 1.5; theta1 += 0.05) {
    const auto re = astrojax_cowboy(m.m1(), m.m2(), m.l(), m.g(), theta1);
    const Eigen::Vector4d eig =
        Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d>(hessian(m, shape_of(re), re.angular_momentum)).eigenvalues();
    const int negative = static_cast<int>((eig.array() < 0.0).count());
    const double growth = largest_growth_rate(m, re.state, re.omega);
    // Above the finite-difference splitting of the zero eigenvalues (~1e-4 omega).
    const bool linearly_unstable = growth > 1e-3 * re.omega;
    (linearly_unstable ? unstable : stable) += 1;
    std::printf("theta1 = %.2f: V_mu'' has %d negative eigenvalues (smallest %.1f); growth rate %.2e 1/s: %s\n",
                theta1, negative, eig.minCoeff(), growth, linearly_unstable ? "unstable" : "stable");
    if (negative == 0) {
      EXPECT_FALSE(linearly_unstable) << "theta1 = " << theta1 << ": V_mu'' definite, yet unstable";
    }
    if (negative % 2 == 1) {
      EXPECT_TRUE(linearly_unstable) << "theta1 = " << theta1 << ": odd index, yet stable";
    }
  }
  // The family crosses its Hamiltonian-Hopf points (0.0907 and 0.8382 for m1 = m2).
  EXPECT_GT(stable, 0);
  EXPECT_GT(unstable, 0);
}

}  // namespace
}  // namespace geomint
