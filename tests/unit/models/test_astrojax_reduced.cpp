// Label `unit`: the reduced Astrojax (models/astrojax_reduced.hpp) against the Cartesian model
// (models/astrojax.hpp), a different formulation derived separately.
//
//   - The two fields are conjugate by the reconstruction Phi = cartesian_state:
//     F(Phi(y)) = DPhi(y) f(y), with DPhi by finite differences. This checks the Routhian's
//     Euler-Lagrange equations and the reconstruction of phi at once.
//   - The energies agree at Phi(y), and J_z of Phi(y) is y's mu. The locked inertia K_(phi,phi)
//     and the energy at rest are astrojax_amended_potential.hpp's I and V_mu.
//   - reduced_state inverts cartesian_state; the presets are the Astrojax's, reduced.
//   - At the cowboy relative equilibria the shape is at rest (a critical point of V_mu) and phi
//     turns at the closed form's omega.
//   - Integrated by Fehlberg 7(8) at rtol 1e-13, the reconstructed trajectories of the spatial
//     runs agree with the Cartesian model's, solved by the same method, to 1e-8 at T; the
//     masses stay off the chart's singular sets (|sin theta_i| and lambda, l - lambda bounded
//     below, printed).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "integrators/integrate.hpp"
#include "models/astrojax.hpp"
#include "models/astrojax_amended_potential.hpp"
#include "models/astrojax_reduced.hpp"
#include "models/astrojax_relative_equilibrium.hpp"
#include "models/model_contract.hpp"
#include "reference/odeint.hpp"
#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"

namespace geomint {

static_assert(Model<AstrojaxReduced>);

namespace {

using State = AstrojaxReduced::State;
constexpr double kM1 = 0.7, kM2 = 1.9, kL = 1.3, kG = 9.7;  // generic values
constexpr double kPi = std::numbers::pi;

template <class M>
M make(ParameterSet p) {
  p.set("m1", kM1);
  p.set("m2", kM2);
  p.set("l", kL);
  p.set("g", kG);
  return M(p);
}

AstrojaxReduced make_reduced() { return make<AstrojaxReduced>(AstrojaxReduced::default_parameters()); }
Astrojax make_cartesian() { return make<Astrojax>(Astrojax::default_parameters()); }

/// A random reduced state in the chart: 0.2 l < lambda < 0.8 l, 0.3 < theta_i < pi - 0.3 or its
/// negative, any beta and phi, rates and mu of order one.
State random_state(testing::Rng& rng) {
  const auto theta = [&] { return (rng.uniform(0, 1) < 0.5 ? -1 : 1) * rng.uniform(0.3, kPi - 0.3); };
  State y;
  y << rng.uniform(0.2, 0.8) * kL, theta(), theta(), rng.uniform(-kPi, kPi), rng.normal(),
      2 * rng.normal(), 2 * rng.normal(), 2 * rng.normal(), rng.uniform(-kPi, kPi), 2 * rng.normal();
  return y;
}

TEST(AstrojaxReduced, CartesianFieldIsTheReducedFieldReconstructed) {
  GEOMINT_SEEDED_RNG(rng, 5);
  const AstrojaxReduced reduced = make_reduced();
  const Astrojax cartesian = make_cartesian();
  for (int trial = 0; trial < 50; ++trial) {
    const State y = random_state(rng);
    State f;
    reduced.rhs(0.0, y, f);
    ASSERT_EQ(f(9), 0.0);
    const AstrojaxState x = reduced.cartesian_state(y);
    EXPECT_NEAR(cartesian.tether_defect(x), 0.0, 1e-14);
    EXPECT_NEAR(cartesian.tether_rate(x), 0.0, 1e-13 * x.norm());
    AstrojaxState field;
    cartesian.rhs(0.0, x, field);
    const double h = 2e-3 / f.cwiseAbs().maxCoeff();
    const AstrojaxState mapped =
        testing::richardson_derivative([&](double s) { return reduced.cartesian_state(y + s * f); }, h);
    EXPECT_EIGEN_NEAR(field, mapped, 1e-9 * mapped.norm()) << "trial " << trial;
  }
}

TEST(AstrojaxReduced, EnergyAndMomentumAreTheCartesianOnes) {
  GEOMINT_SEEDED_RNG(rng, 6);
  const AstrojaxReduced reduced = make_reduced();
  const Astrojax cartesian = make_cartesian();
  for (int trial = 0; trial < 50; ++trial) {
    State y = random_state(rng);
    const AstrojaxState x = reduced.cartesian_state(y);
    EXPECT_NEAR(reduced.energy(y), cartesian.energy(x), 1e-12 * std::abs(cartesian.energy(x)) + 1e-12);
    EXPECT_NEAR(cartesian.angular_momentum_z(x), y(9), 1e-12 * (1 + std::abs(y(9))));
    const AstrojaxShape s = y.head<4>();
    EXPECT_NEAR(reduced.kinetic_matrix(s)(4, 4), astrojax_locked_inertia(cartesian, s),
                1e-14 * (1 + astrojax_locked_inertia(cartesian, s)));
    y.segment<4>(4).setZero();
    EXPECT_NEAR(reduced.energy(y), astrojax_amended_potential(cartesian, s, y(9)),
                1e-12 * (1 + std::abs(reduced.energy(y))));
  }
}

TEST(AstrojaxReduced, ReducedStateInvertsTheReconstruction) {
  GEOMINT_SEEDED_RNG(rng, 7);
  const AstrojaxReduced reduced = make_reduced();
  for (int trial = 0; trial < 50; ++trial) {
    const State y = random_state(rng);
    const AstrojaxState x = reduced.cartesian_state(y);
    const State back = reduced.reduced_state(x);
    // The same configuration in either sign of theta (e(-theta, phi) = e(theta, phi + pi)):
    // compare through the reconstruction, and the chart-free parts directly.
    EXPECT_EIGEN_NEAR(reduced.cartesian_state(back), x, 1e-12 * x.norm()) << "trial " << trial;
    EXPECT_NEAR(back(0), y(0), 1e-14);
    EXPECT_NEAR(back(4), y(4), 1e-11 * (1 + std::abs(y(4))));
    EXPECT_NEAR(back(9), y(9), 1e-12 * (1 + std::abs(y(9))));
  }
}

TEST(AstrojaxReduced, PresetsAreTheAstrojaxPresetsReduced) {
  ASSERT_EQ(AstrojaxReduced::presets().size(), 5u);
  for (const auto& preset : AstrojaxReduced::presets()) {
    const auto reduced = testing::make_setup<AstrojaxReduced>(preset.name);
    const auto cartesian = testing::make_setup<Astrojax>(preset.name);
    EXPECT_EIGEN_NEAR(reduced.model.cartesian_state(reduced.initial), cartesian.initial, 1e-14)
        << preset.name;
    EXPECT_NEAR(reduced.initial(9), cartesian.model.angular_momentum_z(cartesian.initial), 1e-14);
  }
}

TEST(AstrojaxReduced, CowboysAreShapesAtRestTurningAtOmega) {
  for (const double theta1 : {0.5, 1.0}) {
    const auto preset = theta1 == 0.5 ? "cowboy_unstable" : "cowboy_stable";
    const auto setup = testing::make_setup<AstrojaxReduced>(preset);
    const auto cowboy = astrojax_cowboy(1.0, 1.0, 1.0, 9.81, theta1);
    EXPECT_EIGEN_NEAR(setup.initial.segment<4>(4), Eigen::Vector4d::Zero(), 1e-13) << preset;
    State f;
    setup.model.rhs(0.0, setup.initial, f);
    EXPECT_LE(f.segment<4>(4).norm(), 1e-11) << preset << ": the shape accelerates";
    EXPECT_NEAR(f(8), cowboy.omega, 1e-12 * cowboy.omega) << preset;
  }
}

/// Fehlberg 7(8) at rtol 1e-13 over [0, T].
IntegratorOptions tight(double T) {
  IntegratorOptions o;
  o.tolerances.rtol = 1e-13;
  o.tolerances.atol = 1e-15;
  o.T = T;
  return o;
}

TEST(AstrojaxReduced, ReconstructedSpatialRunsAgreeWithTheCartesianModel) {
  const struct {
    const char* preset;
    double T;
  } runs[] = {{"spatial_high", 1.0}, {"spatial_intermediate", 1.0}, {"spatial_low", 1.0},
              {"cowboy_unstable", 2.0}};
  for (const auto& run : runs) {
    const auto reduced = testing::make_setup<AstrojaxReduced>(run.preset);
    const auto cartesian = testing::make_setup<Astrojax>(run.preset);
    // The smallest of |sin theta_i|, lambda and l - lambda along the reduced run.
    double margin = 1.0;
    OdeintRkf78<AstrojaxReduced> solver(reduced.model, tight(run.T));
    State y = reduced.initial;
    integrate(solver, y, 0.0, run.T, [&](double, const State& s) {
      margin = std::min({margin, std::abs(std::sin(s(1))), std::abs(std::sin(s(2))), s(0),
                         reduced.model.l() - s(0)});
    });
    const AstrojaxState x =
        testing::final_state<OdeintRkf78<Astrojax>>(cartesian.model, cartesian.initial, tight(run.T));
    const double difference = (reduced.model.cartesian_state(y) - x).cwiseAbs().maxCoeff();
    std::printf("%s to T = %g: |reconstructed - Cartesian|_max = %.2e, chart margin %.3f\n",
                run.preset, run.T, difference, margin);
    EXPECT_LE(difference, 1e-8) << run.preset;
    EXPECT_GE(margin, 0.01) << run.preset << ": the run came near the chart's singular set";
  }
}

}  // namespace
}  // namespace geomint
