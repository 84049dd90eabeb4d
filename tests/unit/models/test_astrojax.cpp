// Label `unit`: the Astrojax models (models/astrojax.hpp, models/astrojax_planar.hpp) against
// independent derivations.
//
//   - Planar: M and f of M q'' = f against the Euler-Lagrange equations of L = T - V, with T
//     from the Cartesian velocities of the two masses (the chain rule written here), by finite
//     differences: M = d^2 L / dq'^2 (exact differences: L is quadratic in q') and
//     f = dL/dq - (d/dq dL/dq') q'.
//   - Cartesian against planar: the two formulations are conjugate by the map phi of
//     cartesian_state, so F(phi(y)) = Dphi(y) f(y), with Dphi by finite differences.
//   - The ConstrainedLagrangian view, for each driver: Dg and dg/dt against finite differences
//     of g, and g'' = Dg x'' + curvature along a curve x(t); the AmbientOde's acceleration seen
//     in absolute coordinates satisfies g'' = 0 and M x'' + grad V = Dg^T mu with its own mu;
//     set_configuration inverts configuration.
//   - The AmbientOde field: the declared conserved invariants (energy, J_z, the tether defects)
//     have zero rate along it, those declared not conserved a nonzero one; d/dt (DG u) = 0 even
//     off the manifold (the index-1 form); a support moving at constant velocity changes
//     nothing in its frame, one accelerating uniformly adds b to g (NOTES-dutoit 2.7 items 6-7).
//   - project() lands on G = 0 and DG u = 0 to round-off.
//   - NOTES-dutoit 1.7 items 1, 2, 6: DuToit's printed L (Section 5.2) is the Cartesian
//     1/2 sum m |q'|^2 - g sum m z (its printed V is not); J_z = dL/dphi1' + dL/dphi2' =
//     2 dL/dalpha'; no state at rest with 0 < lambda < l is an equilibrium.
//   - The cowboy relative equilibria: the rotating-frame field vanishes at the closed form, the
//     multiplier is -T, and the presets' stability is what their descriptions say.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "models/astrojax.hpp"
#include "models/astrojax_planar.hpp"
#include "models/astrojax_relative_equilibrium.hpp"
#include "models/model_contract.hpp"
#include "models/relative_equilibrium.hpp"
#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"

namespace geomint {

static_assert(Model<Astrojax> && ConstrainedLagrangian<Astrojax>);
static_assert(Model<AstrojaxPlanar>);

namespace {

using Vec3 = Eigen::Vector3d;
using State = Astrojax::State;
using Positions = Astrojax::Positions;

constexpr double kM1 = 0.7, kM2 = 1.9, kL = 1.3, kG = 9.7;  // generic values
constexpr double kPi = std::numbers::pi;

/// d/ds f(s) at 0 (Richardson, finite_difference.hpp).
template <class F>
double derivative(const F& f, double h = testing::kRichardsonStep) {
  return testing::richardson_derivative_scalar(f, 0.0, h);
}

Astrojax make_astrojax(AstrojaxDriver driver, double g = kG) {
  auto p = Astrojax::default_parameters();
  p.set("m1", kM1);
  p.set("m2", kM2);
  p.set("l", kL);
  p.set("g", g);
  p.set("driver", static_cast<double>(driver));
  p.set("drive_amplitude", 0.13);
  p.set("drive_frequency", 5.3);
  p.set("drive_velocity_x", 0.4);
  p.set("drive_velocity_y", -0.7);
  p.set("drive_velocity_z", 0.25);
  p.set("drive_acceleration", 1.7);
  return Astrojax(p);
}

AstrojaxPlanar make_planar() {
  auto p = AstrojaxPlanar::default_parameters();
  p.set("m1", kM1);
  p.set("m2", kM2);
  p.set("l", kL);
  p.set("g", kG);
  return AstrojaxPlanar(p);
}

constexpr AstrojaxDriver kDrivers[] = {AstrojaxDriver::Fixed, AstrojaxDriver::Vertical,
                                       AstrojaxDriver::Circle, AstrojaxDriver::ConstantVelocity,
                                       AstrojaxDriver::UniformAcceleration};

/// A random planar state with 0.2 l < lambda < 0.8 l, any angles, rates of order one.
AstrojaxPlanar::State random_planar_state(testing::Rng& rng) {
  AstrojaxPlanar::State y;
  y << rng.uniform(0.2, 0.8) * kL, rng.uniform(-kPi, kPi), rng.uniform(-kPi, kPi), rng.normal(),
      2 * rng.normal(), 2 * rng.normal();
  return y;
}

/// A random state on the tether manifold, relative to the support: a random configuration in
/// spherical coordinates, and velocities made to satisfy n1 . u1 + n2 . (u2 - u1) = 0 by
/// adjusting the n2 component of u2 - u1 (independently of Astrojax::project).
State random_state(testing::Rng& rng) {
  const AstrojaxAngles c{rng.uniform(0.2, 0.8) * kL, rng.uniform(0, kPi), rng.uniform(-kPi, kPi),
                         rng.uniform(0, kPi), rng.uniform(-kPi, kPi)};
  State y = astrojax_rotating_state(kL, c, 0.0);
  const Vec3 n1 = y.segment<3>(0).normalized(),
             n2 = (y.segment<3>(3) - y.segment<3>(0)).normalized();
  const Vec3 u1 = 2 * rng.vec3();
  Vec3 w = 2 * rng.vec3();
  w += (-n1.dot(u1) - n2.dot(w)) * n2;
  y.segment<3>(6) = u1;
  y.segment<3>(9) = u1 + w;
  return y;
}

// ---- The planar model ------------------------------------------------------------------

/// L(q, q') = 1/2 m1 |p1'|^2 + 1/2 m2 |p2'|^2 - g (m1 z1 + m2 z2) of the planar Astrojax, from
/// p1 = lambda (sin th1, -cos th1), p2 = p1 + (l - lambda)(sin th2, -cos th2) in the (x, z)
/// plane and their velocities by the chain rule.
double planar_lagrangian(const Eigen::Vector3d& q, const Eigen::Vector3d& qd) {
  const double lambda = q(0), rest = kL - lambda;
  const Eigen::Vector2d e1(std::sin(q(1)), -std::cos(q(1))), e2(std::sin(q(2)), -std::cos(q(2)));
  const Eigen::Vector2d t1(std::cos(q(1)), std::sin(q(1))), t2(std::cos(q(2)), std::sin(q(2)));
  const Eigen::Vector2d p1 = lambda * e1, p2 = p1 + rest * e2;
  const Eigen::Vector2d v1 = qd(0) * e1 + lambda * qd(1) * t1;
  const Eigen::Vector2d v2 = v1 - qd(0) * e2 + rest * qd(2) * t2;
  return 0.5 * (kM1 * v1.squaredNorm() + kM2 * v2.squaredNorm()) -
         kG * (kM1 * p1.y() + kM2 * p2.y());
}

TEST(AstrojaxPlanar, MassMatrixAndForceAreTheEulerLagrangeEquationsOfL) {
  GEOMINT_SEEDED_RNG(rng, 1);
  const AstrojaxPlanar model = make_planar();
  const Eigen::Matrix3d unit = Eigen::Matrix3d::Identity();
  double worst_m = 0, worst_f = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const auto y = random_planar_state(rng);
    const Eigen::Vector3d q = y.head<3>(), qd = y.tail<3>();
    // L is quadratic in q': central differences of step 1 are exact up to round-off.
    const auto momentum = [&](const Eigen::Vector3d& at, const Eigen::Vector3d& rate) {
      Eigen::Vector3d p;
      for (int i = 0; i < 3; ++i)
        p(i) = 0.5 * (planar_lagrangian(at, rate + unit.col(i)) -
                      planar_lagrangian(at, rate - unit.col(i)));
      return p;
    };
    Eigen::Matrix3d m;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        m(i, j) = 0.25 * (planar_lagrangian(q, qd + unit.col(i) + unit.col(j)) -
                          planar_lagrangian(q, qd + unit.col(i) - unit.col(j)) -
                          planar_lagrangian(q, qd - unit.col(i) + unit.col(j)) +
                          planar_lagrangian(q, qd - unit.col(i) - unit.col(j)));
    Eigen::Vector3d dl_dq;
    for (int i = 0; i < 3; ++i)
      dl_dq(i) = derivative([&](double s) { return planar_lagrangian(q + s * unit.col(i), qd); });
    const Eigen::Vector3d transport =
        testing::richardson_derivative([&](double s) { return momentum(q + s * qd, qd); });
    const Eigen::Vector3d f = dl_dq - transport;
    EXPECT_EIGEN_NEAR(model.mass_matrix(q), m, 1e-12);
    EXPECT_EIGEN_NEAR(model.force(q, qd), f, 1e-9 * (1 + f.norm()));
    worst_m = std::max(worst_m, (model.mass_matrix(q) - m).cwiseAbs().maxCoeff());
    worst_f = std::max(worst_f, (model.force(q, qd) - f).cwiseAbs().maxCoeff() / (1 + f.norm()));
  }
  std::printf("planar M: max |M - d2L/dq'2| = %.2e; f: max |f - EL(L)| / (1 + |f|) = %.2e\n",
              worst_m, worst_f);
}

TEST(AstrojaxPlanar, EnergyIsConservedAlongTheField) {
  GEOMINT_SEEDED_RNG(rng, 2);
  const AstrojaxPlanar model = make_planar();
  for (int trial = 0; trial < 20; ++trial) {
    const auto y = random_planar_state(rng);
    AstrojaxPlanar::State f;
    model.rhs(0.0, y, f);
    const double h = 1e-3 / f.cwiseAbs().maxCoeff();
    const double rate = derivative([&](double s) { return model.energy(y + s * f); }, h);
    EXPECT_NEAR(rate, 0.0, 1e-8 * f.norm());
  }
}

TEST(Astrojax, CartesianFieldIsThePlanarFieldMapped) {
  GEOMINT_SEEDED_RNG(rng, 3);
  const AstrojaxPlanar planar = make_planar();
  const Astrojax model = make_astrojax(AstrojaxDriver::Fixed);
  double worst = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const auto y = random_planar_state(rng);
    AstrojaxPlanar::State f;
    planar.rhs(0.0, y, f);
    const State z = planar.cartesian_state(y);
    State cartesian;
    model.rhs(0.0, z, cartesian);
    const double h = 2e-3 / f.cwiseAbs().maxCoeff();
    const State mapped = testing::richardson_derivative(
        [&](double s) { return planar.cartesian_state(y + s * f); }, h);
    EXPECT_NEAR(model.tether_defect(z), 0.0, 1e-15);
    EXPECT_EIGEN_NEAR(cartesian, mapped, 1e-10 * mapped.norm());
    worst = std::max(worst, (cartesian - mapped).cwiseAbs().maxCoeff() / mapped.norm());
  }
  std::printf("Cartesian vs planar field: max |F(phi y) - Dphi f(y)| / |F| = %.2e\n", worst);
}

// ---- The ConstrainedLagrangian view ----------------------------------------------------

TEST(Astrojax, ConstraintDerivativesMatchFiniteDifferencesForEveryDriver) {
  GEOMINT_SEEDED_RNG(rng, 4);
  for (const AstrojaxDriver driver : kDrivers) {
    SCOPED_TRACE("driver " + std::to_string(static_cast<int>(driver)));
    const Astrojax model = make_astrojax(driver);
    double worst = 0;
    for (int trial = 0; trial < 20; ++trial) {
      const double t0 = rng.uniform(0, 2);
      Positions x, v, a;
      model.configuration(t0, random_state(rng), x, v);
      x += 0.05 * rng.vec6();  // off the constraint too: the derivatives hold everywhere
      v = 2 * rng.vec6();
      a = 5 * rng.vec6();
      const auto g = [&](const Positions& at, double t) {
        Astrojax::Constraints c;
        model.constraints(t, at, c);
        return c(0);
      };
      Astrojax::ConstraintJacobian dg;
      Astrojax::Constraints rate, curvature;
      model.constraint_jacobian(t0, x, dg);
      model.constraint_rate(t0, x, rate);
      model.constraint_curvature(t0, x, v, curvature);
      for (int j = 0; j < 6; ++j) {
        const double fd =
            derivative([&](double s) { return g(x + s * Positions::Unit(j), t0); }, 2e-4);
        EXPECT_NEAR(dg(j), fd, 1e-10) << "column " << j;
      }
      const double fd_rate = derivative([&](double s) { return g(x, t0 + s); }, 2e-4);
      EXPECT_NEAR(rate(0), fd_rate, 1e-10);
      // g' along x(s) = x + s v + s^2/2 a at t0 + s, from the (checked) Dg and dg/dt.
      const auto g_dot = [&](double s) {
        const Positions xs = x + s * v + 0.5 * s * s * a;
        Astrojax::ConstraintJacobian d;
        Astrojax::Constraints r;
        model.constraint_jacobian(t0 + s, xs, d);
        model.constraint_rate(t0 + s, xs, r);
        return (d * (v + s * a))(0) + r(0);
      };
      const double g_ddot = derivative(g_dot, 2e-4);
      EXPECT_NEAR((dg * a)(0) + curvature(0), g_ddot, 1e-10 * (1 + std::abs(g_ddot)));
      worst = std::max({worst, std::abs(fd_rate - rate(0)),
                        std::abs((dg * a)(0) + curvature(0) - g_ddot) / (1 + std::abs(g_ddot))});
    }
    std::printf("driver %d: max error of dg/dt and of g'' = Dg x'' + curvature: %.2e\n",
                static_cast<int>(driver), worst);
  }
}

TEST(Astrojax, AbsoluteAccelerationMeetsTheViewsConstraintForEveryDriver) {
  GEOMINT_SEEDED_RNG(rng, 5);
  for (const AstrojaxDriver driver : kDrivers) {
    SCOPED_TRACE("driver " + std::to_string(static_cast<int>(driver)));
    const Astrojax model = make_astrojax(driver);
    for (int trial = 0; trial < 20; ++trial) {
      const double t = rng.uniform(0, 2);
      const State y = random_state(rng);
      State f, back;
      model.rhs(t, y, f);
      Positions x, v, grad;
      model.configuration(t, y, x, v);
      model.set_configuration(t, x, v, back);
      EXPECT_EIGEN_NEAR(back, y, 1e-14);
      const Vec3 support_acceleration = model.support().acceleration(t);
      Positions xdd;
      xdd << f.segment<3>(6) + support_acceleration, f.segment<3>(9) + support_acceleration;
      Astrojax::ConstraintJacobian dg;
      Astrojax::Constraints c, rate, curvature;
      model.constraints(t, x, c);
      model.constraint_jacobian(t, x, dg);
      model.constraint_rate(t, x, rate);
      model.constraint_curvature(t, x, v, curvature);
      EXPECT_NEAR(c(0), 0.0, 1e-15);
      EXPECT_NEAR((dg * v)(0) + rate(0), 0.0, 1e-14);
      EXPECT_NEAR((dg * xdd)(0) + curvature(0), 0.0, 1e-12 * (1 + std::abs(curvature(0))));
      model.constrained_gradient(x, grad);
      const Positions residual = model.mass().cwiseProduct(xdd) + grad;  // = Dg^T mu
      const double mu = model.multiplier(t, y);
      EXPECT_EIGEN_NEAR(residual, mu * dg.transpose(), 1e-12 * (1 + std::abs(mu)));
    }
  }
}

TEST(Astrojax, ViewPotentialAndMass) {
  const Astrojax model = make_astrojax(AstrojaxDriver::Fixed);
  Positions mass, x, grad, fd;
  mass << kM1, kM1, kM1, kM2, kM2, kM2;
  EXPECT_EIGEN_NEAR(model.mass(), mass, 0.0);
  x << 0.3, -0.2, -0.5, 0.1, 0.4, -0.9;
  model.constrained_gradient(x, grad);
  for (int j = 0; j < 6; ++j)
    fd(j) = derivative(
        [&](double s) { return model.constrained_potential(x + s * Positions::Unit(j)); });
  EXPECT_EIGEN_NEAR(grad, fd, 1e-11 * grad.norm());
}

// ---- The AmbientOde field --------------------------------------------------------------

TEST(Astrojax, DeclaredInvariantsAreConservedByTheFieldAndOnlyThose) {
  GEOMINT_SEEDED_RNG(rng, 6);
  for (const AstrojaxDriver driver : kDrivers) {
    SCOPED_TRACE("driver " + std::to_string(static_cast<int>(driver)));
    const Astrojax model = make_astrojax(driver);
    const auto& declared = model.declared_invariants();
    ASSERT_EQ(declared.size(), 4u);
    std::vector<double> smallest_rate(declared.size(), 1e300), largest_rate(declared.size(), 0.0);
    for (int trial = 0; trial < 20; ++trial) {
      const double t = rng.uniform(0, 2);
      const State y = random_state(rng);
      State f;
      model.rhs(t, y, f);
      const double h = 1e-3 / f.cwiseAbs().maxCoeff();
      for (std::size_t i = 0; i < declared.size(); ++i) {
        const double rate = derivative(
            [&](double s) {
              double out[4];
              model.evaluate_invariants(y + s * f, out);
              return out[i];
            },
            h);
        smallest_rate[i] = std::min(smallest_rate[i], std::abs(rate));
        largest_rate[i] = std::max(largest_rate[i], std::abs(rate));
      }
    }
    for (std::size_t i = 0; i < declared.size(); ++i) {
      if (declared[i].conserved)
        EXPECT_LT(largest_rate[i], 1e-8) << declared[i].name << " is declared conserved";
      else
        EXPECT_GT(smallest_rate[i], 1e-3) << declared[i].name << " is declared not conserved";
    }
    std::printf(
        "driver %d: |d/dt| of energy, Jz, tether, tether_rate in [%.1e, %.1e], [%.1e, %.1e], "
        "max %.1e, %.1e\n",
        static_cast<int>(driver), smallest_rate[0], largest_rate[0], smallest_rate[1],
        largest_rate[1], largest_rate[2], largest_rate[3]);
  }
}

TEST(Astrojax, HiddenConstraintRateVanishesOffTheManifold) {
  GEOMINT_SEEDED_RNG(rng, 7);
  const Astrojax model = make_astrojax(AstrojaxDriver::Circle);
  for (int trial = 0; trial < 20; ++trial) {
    const double t = rng.uniform(0, 2);
    const State y = random_state(rng) + 0.05 * rng.cube<12>();
    State f;
    model.rhs(t, y, f);
    const double h = 1e-3 / f.cwiseAbs().maxCoeff();
    EXPECT_NEAR(derivative([&](double s) { return model.tether_rate(y + s * f); }, h), 0.0, 1e-8);
  }
}

TEST(Astrojax, UniformlyMovingSupportIsAChangeOfFrame) {
  GEOMINT_SEEDED_RNG(rng, 8);
  const Astrojax fixed = make_astrojax(AstrojaxDriver::Fixed);
  const Astrojax moving = make_astrojax(AstrojaxDriver::ConstantVelocity);
  const Astrojax accelerated = make_astrojax(AstrojaxDriver::UniformAcceleration);
  const Astrojax heavier = make_astrojax(AstrojaxDriver::Fixed, kG + 1.7);  // b = 1.7
  for (int trial = 0; trial < 10; ++trial) {
    const double t = rng.uniform(0, 2);
    const State y = random_state(rng);
    State f0, f1, f2, f3;
    fixed.rhs(t, y, f0);
    moving.rhs(t, y, f1);
    accelerated.rhs(t, y, f2);
    heavier.rhs(t, y, f3);
    EXPECT_EIGEN_NEAR(f1, f0, 1e-13 * f0.norm());
    EXPECT_EIGEN_NEAR(f2, f3, 1e-13 * f3.norm());
    EXPECT_NEAR(accelerated.energy(y), heavier.energy(y), 1e-13 * std::abs(heavier.energy(y)));
  }
}

TEST(Astrojax, ProjectLandsOnTheTetherManifold) {
  GEOMINT_SEEDED_RNG(rng, 9);
  const Astrojax model = make_astrojax(AstrojaxDriver::Fixed);
  double worst_g = 0, worst_rate = 0;
  for (int trial = 0; trial < 50; ++trial) {
    const State on = random_state(rng);
    State y = on;
    model.project(y);
    EXPECT_EIGEN_NEAR(y, on, 1e-14);  // a consistent state stays put
    y = on + 1e-2 * rng.cube<12>();
    model.project(y);
    EXPECT_NEAR(model.tether_defect(y), 0.0, 1e-15);
    EXPECT_NEAR(model.tether_rate(y), 0.0, 1e-14 * y.tail<6>().norm());
    EXPECT_LT((y - on).norm(), 0.1);
    worst_g = std::max(worst_g, std::abs(model.tether_defect(y)));
    worst_rate = std::max(worst_rate, std::abs(model.tether_rate(y)));
  }
  std::printf("after project: max |G| = %.1e, max |DG u| = %.1e\n", worst_g, worst_rate);
}

// ---- NOTES-dutoit 1.7 items 1, 2, 6 ----------------------------------------------------

/// DuToit Section 5.2's L, as printed (expanded), in c = (lambda, th1, ph1, th2, ph2).
double printed_lagrangian(const Eigen::Matrix<double, 5, 1>& c,
                          const Eigen::Matrix<double, 5, 1>& cd) {
  const double lam = c(0), r = kL - lam, s1 = std::sin(c(1)), c1 = std::cos(c(1)),
               s2 = std::sin(c(3)), c2 = std::cos(c(3)), cp = std::cos(c(2) - c(4)),
               sp = std::sin(c(2) - c(4));
  const double ld = cd(0), t1 = cd(1), p1 = cd(2), t2 = cd(3), p2 = cd(4);
  const double first = ld * ld + lam * lam * t1 * t1 + lam * lam * p1 * p1 * s1 * s1;
  return 0.5 * kM1 * first + 0.5 * kM2 * first +
         0.5 * kM2 * (ld * ld + r * r * t2 * t2 + r * r * p2 * p2 * s2 * s2) +
         kM2 * (-ld * ld * (c1 * c2 + s1 * s2 * cp) + lam * ld * t1 * (s1 * c2 - c1 * s2 * cp) +
                r * ld * t2 * (s1 * c2 * cp - c1 * s2) +
                lam * r * t1 * t2 * (c1 * c2 * cp + s1 * s2) +
                ld * (lam * p1 + r * p2) * s1 * s2 * sp + lam * r * t1 * p2 * c1 * s2 * sp -
                lam * r * p1 * t2 * s1 * c2 * sp + lam * r * p1 * p2 * s1 * s2 * cp) +
         kM1 * kG * lam * c1 + kM2 * kG * lam * c1 + kM2 * kG * r * c2;
}

/// The printed V (with the sign error of NOTES-dutoit Section 0 on its m2 term).
double printed_potential(const Eigen::Matrix<double, 5, 1>& c) {
  return -kM1 * kG * c(0) * std::cos(c(1)) +
         kM2 * kG * (c(0) * std::cos(c(1)) + (kL - c(0)) * std::cos(c(3)));
}

TEST(Astrojax, PrintedLagrangianIsTheCartesianOneAndJzItsMomentum) {
  GEOMINT_SEEDED_RNG(rng, 10);
  using Coords = Eigen::Matrix<double, 5, 1>;
  const Astrojax model = make_astrojax(AstrojaxDriver::Fixed);
  const auto positions = [](const Coords& c) {
    const State y = astrojax_rotating_state(kL, {c(0), c(1), c(2), c(3), c(4)}, 0.0);
    return Positions(y.head<6>());
  };
  double worst_l = 0, worst_j = 0, smallest_v_error = 1e300;
  for (int trial = 0; trial < 50; ++trial) {
    Coords c, cd;
    c << rng.uniform(0.2, 0.8) * kL, rng.uniform(0, kPi), rng.uniform(-kPi, kPi),
        rng.uniform(0, kPi), rng.uniform(-kPi, kPi);
    cd << rng.normal(), 2 * rng.normal(), 2 * rng.normal(), 2 * rng.normal(), 2 * rng.normal();
    State y;
    y.head<6>() = positions(c);
    y.tail<6>() =
        testing::richardson_derivative([&](double s) { return positions(c + s * cd); }, 2e-4);
    const double kinetic =
        0.5 * (kM1 * y.segment<3>(6).squaredNorm() + kM2 * y.segment<3>(9).squaredNorm());
    const double potential = kG * (kM1 * y(2) + kM2 * y(5));
    // 1. L = T - V, and the model's energy is T + V = L(c, c') - 2 L(c, 0).
    const double l = printed_lagrangian(c, cd), l_at_rest = printed_lagrangian(c, Coords::Zero());
    EXPECT_NEAR(l, kinetic - potential, 1e-10 * (1 + std::abs(l)));
    EXPECT_NEAR(model.energy(y), l - 2 * l_at_rest, 1e-10 * (1 + std::abs(l)));
    smallest_v_error = std::min(smallest_v_error, std::abs(printed_potential(c) + l_at_rest));
    // 2. J_z = dL/dphi1' + dL/dphi2' = 2 dL/dalpha' (L is quadratic in c': exact differences).
    const auto along = [&](const Coords& e) {
      return 0.5 * (printed_lagrangian(c, cd + e) - printed_lagrangian(c, cd - e));
    };
    const double dl_dphi = along(Coords::Unit(2)) + along(Coords::Unit(4));
    const double dl_dalpha = along(0.5 * (Coords::Unit(2) + Coords::Unit(4)));
    EXPECT_NEAR(model.angular_momentum_z(y), dl_dphi, 1e-10 * (1 + std::abs(dl_dphi)));
    EXPECT_NEAR(2 * dl_dalpha, dl_dphi, 1e-12 * (1 + std::abs(dl_dphi)));
    worst_l = std::max(worst_l, std::abs(l - kinetic + potential));
    worst_j = std::max(worst_j, std::abs(model.angular_momentum_z(y) - dl_dphi));
  }
  // The printed V is not the V of the printed L (the m2 term's sign, NOTES-dutoit Section 0).
  EXPECT_GT(smallest_v_error, 1e-3);
  std::printf(
      "printed L vs Cartesian: max diff %.1e; Jz vs dL/dphi1' + dL/dphi2': %.1e; printed V "
      "off by >= %.2f\n",
      worst_l, worst_j, smallest_v_error);
}

TEST(Astrojax, NoStateAtRestIsAnEquilibrium) {
  GEOMINT_SEEDED_RNG(rng, 11);
  const Astrojax model = make_astrojax(AstrojaxDriver::Fixed);
  // Hanging straight down, the tether's pull on the bead cancels: the bead falls freely.
  State y = astrojax_rotating_state(kL, {0.4 * kL, 0.0, 0.0, 0.0, 0.0}, 0.0), f;
  model.rhs(0.0, y, f);
  EXPECT_EIGEN_NEAR(f.segment<3>(6), Vec3(0, 0, -kG), 1e-14);
  EXPECT_EIGEN_NEAR(f.segment<3>(9), Vec3::Zero(), 1e-14);
  double smallest = 1e300;
  for (int trial = 0; trial < 1000; ++trial) {
    y = random_state(rng);
    y.tail<6>().setZero();
    model.rhs(0.0, y, f);
    smallest = std::min(smallest, f.segment<3>(6).norm());
  }
  EXPECT_GT(smallest, 0.01 * kG);
  std::printf("at rest, 0 < lambda < l: smallest bead acceleration %.3f g\n", smallest / kG);
}

// ---- The cowboy relative equilibria ----------------------------------------------------

TEST(Astrojax, CowboyClosedFormBalancesTheForces) {
  for (const double m1 : {0.3, 1.0, 7.0}) {
    auto p = Astrojax::default_parameters();
    p.set("m1", m1);
    p.set("m2", 1.1);
    p.set("l", kL);
    p.set("g", kG);
    const Astrojax model(p);
    double worst = 0;
    for (int i = 1; i < 20; ++i) {
      const double theta1 = i * kPi / 40;
      const auto re = astrojax_cowboy(m1, 1.1, kL, kG, theta1);
      SCOPED_TRACE("m1 = " + std::to_string(m1) + ", theta1 = " + std::to_string(theta1));
      EXPECT_GT(re.lambda, 0.0);
      EXPECT_LT(re.lambda, kL);
      EXPECT_LT(re.state(3), 0.0);  // m2 across the axis
      EXPECT_NEAR(model.tether_defect(re.state), 0.0, 1e-15);
      const double scale = re.omega * re.omega * kL;
      const Eigen::VectorXd residual = rotating_frame_field(model, re.state, re.omega);
      EXPECT_LT(residual.norm(), 1e-12 * scale);
      EXPECT_NEAR(model.multiplier(0.0, re.state), -re.tension, 1e-13 * re.tension);
      EXPECT_NEAR(model.angular_momentum_z(re.state), re.angular_momentum,
                  1e-13 * re.angular_momentum);
      worst = std::max(worst, residual.norm() / scale);
    }
    std::printf("m1 = %.1f: max |rotating-frame field| / (omega^2 l) = %.1e\n", m1, worst);
  }
}

TEST(Astrojax, CowboyPresetsAreStableAndUnstableAsDescribed) {
  const auto stable = testing::make_setup<Astrojax>("cowboy_stable");
  const auto unstable = testing::make_setup<Astrojax>("cowboy_unstable");
  const auto re_stable = astrojax_cowboy(1, 1, 1, 9.81, 1.0);
  const auto re_unstable = astrojax_cowboy(1, 1, 1, 9.81, 0.5);
  EXPECT_EIGEN_NEAR(stable.initial, re_stable.state, 0.0);
  EXPECT_EIGEN_NEAR(unstable.initial, re_unstable.state, 0.0);
  const double growth_stable = largest_growth_rate(stable.model, stable.initial, re_stable.omega);
  const double growth_unstable =
      largest_growth_rate(unstable.model, unstable.initial, re_unstable.omega);
  EXPECT_LE(growth_stable, 1e-4 * re_stable.omega);
  EXPECT_GT(growth_unstable, 0.05 * re_unstable.omega);
  EXPECT_NEAR(growth_unstable, 0.981, 0.001);  // as the description says
  std::printf("cowboy_stable: omega %.4f, growth %.1e; cowboy_unstable: omega %.4f, growth %.4f\n",
              re_stable.omega, growth_stable, re_unstable.omega, growth_unstable);
}

// ---- Presets ---------------------------------------------------------------------------

TEST(Astrojax, PresetsLieOnTheManifold) {
  for (const auto& preset : Astrojax::presets()) {
    const auto setup = testing::make_setup<Astrojax>(preset.name);
    EXPECT_LE(max_manifold_defect(setup.model, setup.initial), 1e-15) << preset.name;
  }
  for (const auto& preset : AstrojaxPlanar::presets()) {
    const auto planar = testing::make_setup<AstrojaxPlanar>(preset.name);
    const auto cartesian = testing::make_setup<Astrojax>(preset.name);
    EXPECT_EIGEN_NEAR(planar.model.cartesian_state(planar.initial), cartesian.initial, 1e-15)
        << preset.name;
  }
  const auto spatial = testing::make_setup<Astrojax>("spatial_intermediate");
  // theta = pi/4 from the downward vertical: both masses below the support, on the +x side.
  EXPECT_EIGEN_NEAR(spatial.initial.head<3>(), Vec3(0.5 * std::sqrt(0.5), 0, -0.5 * std::sqrt(0.5)),
                    1e-15);
  EXPECT_EIGEN_NEAR(spatial.initial.segment<3>(6), Vec3(0, 2 * std::sqrt(0.5), 0), 1e-15);
}

}  // namespace
}  // namespace geomint
