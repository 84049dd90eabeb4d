// Label `unit`: the amended potentials V_mu of the Astrojax and the double spherical pendulum
// (models/astrojax_amended_potential.hpp, models/double_spherical_pendulum_amended_potential.hpp;
// DuToit Sections 2 and 4) against what they must be:
//   - the locked inertia and the potential are the bodies' moment of inertia about e3 and their
//     gravitational energy, computed from Cartesian positions;
//   - the closed-form relative equilibria (from force balance, independent of V_mu: the
//     Astrojax's cowboys, astrojax_relative_equilibrium.hpp; the pendulum's straight-out and
//     cowboy branches, double_spherical_pendulum_relative_equilibrium.hpp) are its critical
//     points at their own J_z along each family (the gradient below 1e-7 of V's scale), and a
//     shape 0.01 off or a momentum 1 % off is not (its gradient over 1000 times that at the
//     relative equilibrium);
//   - the energy-momentum classification by the number of negative eigenvalues of V_mu's
//     Hessian never contradicts the linearisation (models/relative_equilibrium.hpp): none
//     negative means stable, an odd number unstable (Thomson-Tait-Chetaev), an even positive
//     number decides nothing. Measured: the Astrojax's cowboys have two negative eigenvalues
//     along the whole family, stable or not (gyroscopic stability), so the test decides none of
//     them; the pendulum's straight-out branch has none (the test says stable, as the
//     linearisation does) and its cowboy branch two (undecided; linearly stable).

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <cstdio>
#include <string>

#include "models/astrojax_amended_potential.hpp"
#include "models/astrojax_coordinates.hpp"
#include "models/astrojax_relative_equilibrium.hpp"
#include "models/double_spherical_pendulum_amended_potential.hpp"
#include "models/double_spherical_pendulum_relative_equilibrium.hpp"
#include "models/relative_equilibrium.hpp"
#include "support/finite_difference.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using testing::gradient_by_differences;
using testing::hessian_by_differences;

/// The energy-momentum test's verdict against the linearisation's at one relative equilibrium:
/// fails where they contradict; prints both.
template <int N>
void expect_classifications_agree(const std::string& where, const Eigen::Matrix<double, N, N>& hessian,
                                  double growth, double omega, int& stable, int& unstable) {
  const auto eig = Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, N, N>>(hessian).eigenvalues();
  const int negative = static_cast<int>((eig.array() < 0.0).count());
  const bool linearly_unstable = growth > 1e-3 * omega;  // above the zero eigenvalues' splitting
  (linearly_unstable ? unstable : stable) += 1;
  std::printf("%s: V_mu'' has %d negative eigenvalues; growth rate %.2e 1/s: %s\n", where.c_str(), negative,
              growth, linearly_unstable ? "unstable" : "stable");
  if (negative == 0) {
    EXPECT_FALSE(linearly_unstable) << where << ": V_mu'' definite, yet unstable";
  }
  if (negative % 2 == 1) {
    EXPECT_TRUE(linearly_unstable) << where << ": odd index, yet stable";
  }
}

// ---- The Astrojax -----------------------------------------------------------------------------

/// m1 = m2 = 1, l = 1, g = 9.81 (the presets' values).
Astrojax make_astrojax() { return testing::make_setup<Astrojax>("cowboy_stable").model; }

AstrojaxShape shape_of(const AstrojaxRelativeEquilibrium& re) { return {re.lambda, re.theta1, re.theta2, 0.0}; }

TEST(AstrojaxAmendedPotential, LockedInertiaAndPotentialAreTheCartesianOnes) {
  const Astrojax m = make_astrojax();
  testing::Rng rng(7);
  for (int k = 0; k < 100; ++k) {
    const AstrojaxShape s(rng.uniform(0.1, 0.9), rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0));
    const double phi1 = rng.uniform(-3.0, 3.0);
    const AstrojaxState y = astrojax_rotating_state(m.l(), {s(0), s(1), phi1, s(2), phi1 - s(3)}, 0.0);
    const Eigen::Vector3d q1 = y.head<3>(), q2 = y.segment<3>(3);
    const double inertia = m.m1() * q1.head<2>().squaredNorm() + m.m2() * q2.head<2>().squaredNorm();
    const double potential = m.g() * (m.m1() * q1.z() + m.m2() * q2.z());  // z up
    EXPECT_NEAR(astrojax_locked_inertia(m, s), inertia, 1e-14 * (1 + inertia));
    EXPECT_NEAR(astrojax_amended_potential(m, s, 0.0), potential, 1e-13 * (1 + std::abs(potential)));
  }
}

TEST(AstrojaxAmendedPotential, CowboysAreItsCriticalPointsAtTheirMomentum) {
  const Astrojax m = make_astrojax();
  const double scale = (m.m1() + m.m2()) * m.g() * m.l();  // of V's gradient
  for (double theta1 = 0.05; theta1 < 1.5; theta1 += 0.05) {
    const auto re = astrojax_cowboy(m.m1(), m.m2(), m.l(), m.g(), theta1);
    const auto grad_at = [&](const AstrojaxShape& s, double mu) {
      return gradient_by_differences([&](const AstrojaxShape& x) { return astrojax_amended_potential(m, x, mu); }, s,
                                     1e-6)
          .norm();
    };
    const double at = grad_at(shape_of(re), re.angular_momentum);
    const double off_shape = grad_at(shape_of(re) + AstrojaxShape(0.01, 0, 0, 0), re.angular_momentum);
    const double off_momentum = grad_at(shape_of(re), 1.01 * re.angular_momentum);
    EXPECT_LE(at, 1e-7 * scale) << "theta1 = " << theta1;
    EXPECT_GT(off_shape, 1e3 * at) << "theta1 = " << theta1;
    EXPECT_GT(off_momentum, 1e3 * at) << "theta1 = " << theta1;
  }
}

TEST(AstrojaxAmendedPotential, EnergyMomentumClassificationAgreesWithTheLinearisation) {
  const Astrojax m = make_astrojax();
  int stable = 0, unstable = 0;
  for (double theta1 = 0.05; theta1 < 1.5; theta1 += 0.05) {
    const auto re = astrojax_cowboy(m.m1(), m.m2(), m.l(), m.g(), theta1);
    const auto v_mu = [&](const AstrojaxShape& x) { return astrojax_amended_potential(m, x, re.angular_momentum); };
    expect_classifications_agree<4>("Astrojax cowboy, theta1 = " + std::to_string(theta1),
                                    hessian_by_differences(v_mu, shape_of(re), 1e-4),
                                    largest_growth_rate(m, re.state, re.omega), re.omega, stable, unstable);
  }
  // The family crosses its Hamiltonian-Hopf points (0.0907 and 0.8382 for m1 = m2).
  EXPECT_GT(stable, 0);
  EXPECT_GT(unstable, 0);
}

// ---- The double spherical pendulum --------------------------------------------------------------

using Dsp = DoubleSphericalPendulum;

/// The bobs' positions l1 q1 and l1 q1 + l2 q2 of a state (q1, q2, w1, w2).
std::pair<Eigen::Vector3d, Eigen::Vector3d> bobs(const Dsp::Parameters& p, const Dsp::State& y) {
  const Eigen::Vector3d x1 = p.l1 * y.segment<3>(0);
  return {x1, x1 + p.l2 * y.segment<3>(3)};
}

TEST(DspAmendedPotential, LockedInertiaAndPotentialAreTheCartesianOnes) {
  const Dsp::Parameters p{2.0, 0.5, 0.7, 1.3, 9.81};
  testing::Rng rng(11);
  for (int k = 0; k < 100; ++k) {
    const DspShape s(rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0), rng.uniform(-3.0, 3.0));
    const double phi1 = rng.uniform(-3.0, 3.0), phi2 = phi1 - s(2);
    Dsp::State y = Dsp::State::Zero(12);
    y.segment<3>(0) << std::sin(s(0)) * std::cos(phi1), std::sin(s(0)) * std::sin(phi1), std::cos(s(0));
    y.segment<3>(3) << std::sin(s(1)) * std::cos(phi2), std::sin(s(1)) * std::sin(phi2), std::cos(s(1));
    const auto [x1, x2] = bobs(p, y);
    const double inertia = p.m1 * x1.head<2>().squaredNorm() + p.m2 * x2.head<2>().squaredNorm();
    const double potential = -p.g * (p.m1 * x1.z() + p.m2 * x2.z());  // z down
    EXPECT_NEAR(dsp_locked_inertia(p, s), inertia, 1e-14 * (1 + inertia));
    EXPECT_NEAR(dsp_amended_potential(p, s, 0.0), potential, 1e-13 * (1 + std::abs(potential)));
  }
}

/// J_z of the relative equilibrium, from its Cartesian state: omega sum_i m_i (x_i^2 + y_i^2).
double momentum_of(const Dsp::Parameters& p, const DspRelativeEquilibrium& re) {
  const auto [x1, x2] = bobs(p, re.at(0.0));
  return re.rate() * (p.m1 * x1.head<2>().squaredNorm() + p.m2 * x2.head<2>().squaredNorm());
}

TEST(DspAmendedPotential, BothBranchesAreItsCriticalPointsAndAgreeWithTheLinearisation) {
  const Dsp model(Dsp::default_parameters());
  const Dsp::Parameters& p = model.parameters();
  const double scale = (p.m1 + p.m2) * p.g * (p.l1 + p.l2);
  int stable = 0, unstable = 0;
  for (const DspBranch branch : {DspBranch::StraightOut, DspBranch::Cowboy}) {
    const double end = branch == DspBranch::Cowboy ? 0.59 : 1.5;
    for (double theta1 = 0.05; theta1 < end; theta1 += 0.05) {
      const DspRelativeEquilibrium re(p, branch, theta1);
      const DspShape s(re.theta1(), re.theta2(), 0.0);
      const double mu = momentum_of(p, re);
      const auto v_mu = [&](double m) { return [&p, m](const DspShape& x) { return dsp_amended_potential(p, x, m); }; };
      const std::string where = std::string(branch == DspBranch::Cowboy ? "pendulum cowboy" : "pendulum straight out") +
                                ", theta1 = " + std::to_string(theta1);
      const double at = gradient_by_differences(v_mu(mu), s, 1e-6).norm();
      const DspShape off_shape = s + DspShape(0.01, 0, 0);
      EXPECT_LE(at, 1e-7 * scale) << where;
      EXPECT_GT(gradient_by_differences(v_mu(mu), off_shape, 1e-6).norm(), 1e3 * at) << where;
      EXPECT_GT(gradient_by_differences(v_mu(1.01 * mu), s, 1e-6).norm(), 1e3 * at) << where;
      expect_classifications_agree<3>(where, hessian_by_differences(v_mu(mu), s, 1e-4),
                                      largest_growth_rate(model, re.at(0.0), re.rate()), re.rate(), stable, unstable);
    }
  }
  EXPECT_GT(stable, 0);
}

}  // namespace
}  // namespace geomint
