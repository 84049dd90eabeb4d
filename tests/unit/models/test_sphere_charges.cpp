// Label `unit`: sphere_charges (DuToit Section 6) against independent derivations.
//
//   - V against the printed double sum 1/2 sum_{i != j} e_i e_j (times sigma k), both signs,
//     one species and two of opposite charges, in both views; the two species' masses;
//   - dV/dx against central finite differences of V, and the Hessian against central
//     differences of dV/dx (Richardson-extrapolated), at points off the spheres too (the
//     constrained integrator evaluates V at chord midpoints);
//   - g, Dg and the constraint curvature along curves x(t) = x + t v + t^2 a / 2 through
//     consistent states (|x_i| = 1, x_i . v_i = 0): g'(0) = Dg x' for any direction, and
//     g''(0) = Dg a + curvature;
//   - configuration / set_configuration are inverse on (TS^2)^n;
//   - the accelerations of the AmbientOde view equal those of the index-1 constrained form
//     M x'' = -dV/dx + Dg^T mu, Dg x'' + curvature = 0, solved here as one linear system;
//   - the vector field is tangent to (TS^2)^n and conserves the energy and all three
//     components of the angular momentum;
//   - presets: (a) at rest is an equilibrium for both signs, V = sqrt(3) with repulsion;
//     (a) spun about e3 accelerates centripetally only; (c) keeps its mirror symmetry under a
//     tight reference integration; the attracting triangle on a small circle, spun at
//     attracting_triangle_rate, accelerates only centripetally (a relative equilibrium, by the
//     index-1 constrained form, not by the rate's derivation), and not at a rate 1 % off nor
//     under repulsion, which has no such rate; its linearisation's largest growth rate is
//     printed; the opposite charges spinning (two species) are at rest in the frame turning at
//     the rate of the closed form written here, and not at a rate 1 % off;
//   - the breathing triangle's period and azimuth advance by quadrature
//     (models/sphere_charges_breathing.hpp) against a Fehlberg 7(8) integration of the full
//     model at tolerance 1e-14: theta reaches pi/2 at T_r / 4, turned by Delta phi / 4.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <vector>

#include "models/sphere_charges.hpp"
#include "models/relative_equilibrium.hpp"
#include "models/sphere_charges_breathing.hpp"
#include "models/views.hpp"
#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"
#include "support/vector_field_checks.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;
using State = SphereCharges::State;
using Positions = SphereCharges::Positions;
constexpr double kPi = std::numbers::pi;

static_assert(ConstrainedLagrangian<SphereCharges>);
static_assert(DiagonalSphereLagrangian<SphereCharges>);
static_assert(LieGroupOde<SphereCharges>);

/// n charges of mass m and charge e, but the first n1 of mass m1 and charge e1.
struct Species {
  int n1 = 0;
  double m1 = 1.0, e1 = 1.0;
};
constexpr Species kOneSpecies{}, kTwoSpecies{2, 2.3, -1.7};  // the second: opposite signs

/// The variants the field's checks run on: both signs of one species, and two species under
/// Coulomb's sign.
struct Variant {
  double sigma;
  Species species;
};
constexpr Variant kVariants[] = {{1.0, kOneSpecies}, {-1.0, kOneSpecies}, {1.0, kTwoSpecies}};

SphereCharges make_model(int n, double m, double e, double k, double sigma, Species species = kOneSpecies) {
  auto p = SphereCharges::default_parameters();
  p.set("n", n);
  p.set("m", m);
  p.set("e", e);
  p.set("k", k);
  p.set("sigma", sigma);
  p.set("n1", species.n1);
  p.set("m1", species.m1);
  p.set("e1", species.e1);
  return SphereCharges(p);
}

/// A random point of (TS^2)^n, |w_i| of order one, no two charges closer than 0.6.
State random_state(testing::Rng& rng, Eigen::Index n) {
  return testing::random_sphere_state<State>(rng, n, [](const Vec3& a, const Vec3& b) {
    return (a - b).norm() > 0.6;
  });
}

/// The positions of y moved off the spheres, |x_i| in [0.85, 1.15].
Positions off_sphere(testing::Rng& rng, const State& y) {
  Positions x = y.head(y.size() / 2);
  for (Eigen::Index i = 0; i < x.size() / 3; ++i) x.segment<3>(3 * i) *= rng.uniform(0.85, 1.15);
  return x;
}

/// q_i'' = w_i' x q_i + w_i x q_i', from the AmbientOde view.
Positions accelerations(const SphereCharges& model, const State& y) {
  State dy(y.size());
  model.rhs(0.0, y, dy);
  const Eigen::Index n = model.bodies();
  Positions a(3 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 q = y.segment<3>(3 * i), w = y.segment<3>(3 * (n + i));
    a.segment<3>(3 * i) = dy.segment<3>(3 * (n + i)).cross(q) + w.cross(dy.segment<3>(3 * i));
  }
  return a;
}

TEST(SphereCharges, PotentialIsThePrintedPairSumWithTheSignAsAParameter) {
  GEOMINT_SEEDED_RNG(rng, 201);
  const double e = 0.7, k = 1.9;
  for (const Species species : {kOneSpecies, kTwoSpecies})
    for (const double sigma : {1.0, -1.0}) {
      const SphereCharges model = make_model(5, 1.3, e, k, sigma, species);
      const auto charge = [&](int i) { return i < species.n1 ? species.e1 : e; };
      for (int trial = 0; trial < 5; ++trial) {
        const State y = random_state(rng, 5);
        const Positions x = off_sphere(rng, y);
        double pairs = 0.0;  // DuToit Section 6.1: 1/2 sum_{j != i} e_i e_j / |q_j - q_i|
        for (int i = 0; i < 5; ++i)
          for (int j = 0; j < 5; ++j)
            if (j != i)
              pairs += 0.5 * charge(i) * charge(j) / (x.segment<3>(3 * j) - x.segment<3>(3 * i)).norm();
        EXPECT_REL_NEAR(model.constrained_potential(x), sigma * k * pairs, 1e-14);
        const SphereCharges::Points q = SphereCharges::positions(y);
        EXPECT_REL_NEAR(model.potential(q), model.constrained_potential(y.head(15)), 1e-15);
      }
    }
}

TEST(SphereCharges, TwoSpeciesHaveTheirOwnMasses) {
  const SphereCharges model = make_model(4, 1.3, 0.7, 1.0, 1.0, kTwoSpecies);
  const Eigen::Vector4d masses(2.3, 2.3, 1.3, 1.3);
  EXPECT_EIGEN_NEAR(model.inertia().diagonal(), masses, 0.0);
  for (Eigen::Index i = 0; i < 4; ++i)
    EXPECT_EIGEN_NEAR(model.mass().segment<3>(3 * i), Vec3::Constant(masses(i)), 0.0);
}

TEST(SphereCharges, GradientMatchesFiniteDifferencesOfThePotential) {
  GEOMINT_SEEDED_RNG(rng, 202);
  double worst = 0.0;
  for (int trial = 0; trial < 10; ++trial) {
    const SphereCharges model = make_model(4, 1.0, 1.2, 0.8, 1.0, trial < 5 ? kOneSpecies : kTwoSpecies);
    const State y = random_state(rng, 4);
    const Positions x = off_sphere(rng, y);
    Positions grad(12);
    model.constrained_gradient(x, grad);
    for (Eigen::Index c = 0; c < 12; ++c) {
      const auto fd = testing::richardson_derivative([&](double s) {
        Positions xs = x;
        xs(c) += s;
        return Eigen::Matrix<double, 1, 1>(model.constrained_potential(xs));
      });
      worst = std::max(worst, std::abs(grad(c) - fd(0)));
      EXPECT_NEAR(grad(c), fd(0), 1e-9 * (1.0 + std::abs(fd(0)))) << "component " << c;
    }
    // The SphereLagrangian view's gradient is the same function.
    const SphereCharges::Points q = SphereCharges::positions(y);
    SphereCharges::Points g = q;
    model.potential_gradient(q, g);
    Positions on(12);
    model.constrained_gradient(y.head(12), on);
    EXPECT_EIGEN_NEAR(g.reshaped(), on, 0.0);
  }
  RecordProperty("max_gradient_error", testing::show(worst));
}

TEST(SphereCharges, HessianMatchesFiniteDifferencesOfTheGradient) {
  GEOMINT_SEEDED_RNG(rng, 203);
  for (const Variant& variant : kVariants) {
    const double sigma = variant.sigma;
    const SphereCharges model = make_model(4, 1.0, 1.1, 1.3, sigma, variant.species);
    for (int trial = 0; trial < 5; ++trial) {
      const State y = random_state(rng, 4);
      const Positions x = off_sphere(rng, y);
      SphereCharges::PositionMatrix hess(12, 12);
      model.potential_hessian(x, hess);
      SphereCharges::PositionMatrix fd(12, 12);
      for (Eigen::Index c = 0; c < 12; ++c)
        fd.col(c) = testing::richardson_derivative([&](double s) {
          Positions xs = x, grad(12);
          xs(c) += s;
          model.constrained_gradient(xs, grad);
          return grad;
        });
      EXPECT_EIGEN_NEAR(hess, fd, 1e-9 * (1.0 + fd.cwiseAbs().maxCoeff())) << "sigma " << sigma;
      EXPECT_EIGEN_NEAR(hess, hess.transpose(), 1e-15 * hess.cwiseAbs().maxCoeff());
    }
  }
}

TEST(SphereCharges, ConstraintsJacobianAndCurvatureAlongCurves) {
  GEOMINT_SEEDED_RNG(rng, 204);
  const SphereCharges model = make_model(3, 1.0, 1.0, 1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, 3);
    Positions x(9), v(9);
    model.configuration(0.0, y, x, v);
    const Positions a = rng.cube<Eigen::Dynamic>(1.0, 9), u = rng.cube<Eigen::Dynamic>(1.0, 9);
    const auto g_at = [&](const Positions& p) {
      SphereCharges::Constraints g(3);
      model.constraints(0.0, p, g);
      return g;
    };
    EXPECT_EIGEN_NEAR(g_at(x), Eigen::Vector3d::Zero(), 1e-15);
    Eigen::Vector3d at_x_plus_u;  // |x_i + u_i|^2 - 1 with |x_i| = 1
    for (int i = 0; i < 3; ++i)
      at_x_plus_u(i) =
          2.0 * x.segment<3>(3 * i).dot(u.segment<3>(3 * i)) + u.segment<3>(3 * i).squaredNorm();
    EXPECT_EIGEN_NEAR(g_at(x + u), at_x_plus_u, 1e-14);

    SphereCharges::ConstraintJacobian dg(3, 9);
    model.constraint_jacobian(0.0, x, dg);
    const auto along_u = testing::richardson_derivative([&](double s) { return g_at(x + s * u); });
    EXPECT_EIGEN_NEAR(dg * u, along_u, testing::kRichardsonTol);
    EXPECT_EIGEN_NEAR(dg * v, Eigen::Vector3d::Zero(), 1e-14);  // v tangent: g stays 0

    // g(x(t)) is a quartic in t, so the Richardson second difference is exact up to round-off.
    const auto curve = [&](double s) { return g_at(x + s * v + 0.5 * s * s * a); };
    const auto second = [&](double h) -> Eigen::Vector3d {
      return (curve(h) - 2.0 * curve(0.0) + curve(-h)) / (h * h);
    };
    const Eigen::Vector3d g2 = (4.0 * second(5e-3) - second(1e-2)) / 3.0;
    SphereCharges::Constraints curvature(3), rate(3);
    model.constraint_curvature(0.0, x, v, curvature);
    model.constraint_rate(0.0, x, rate);
    EXPECT_EIGEN_NEAR(dg * a + curvature, g2, 1e-9);
    EXPECT_EIGEN_NEAR(rate, Eigen::Vector3d::Zero(), 0.0);
  }
}

TEST(SphereCharges, ConfigurationAndSetConfigurationAreInverse) {
  GEOMINT_SEEDED_RNG(rng, 205);
  const SphereCharges model = make_model(4, 1.0, 1.0, 1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    const State y = random_state(rng, 4);
    Positions x(12), v(12), x2(12), v2(12);
    State back(24);
    model.configuration(0.0, y, x, v);
    for (Eigen::Index i = 0; i < 4; ++i) {
      EXPECT_EIGEN_NEAR(x.segment<3>(3 * i), y.segment<3>(3 * i), 0.0);
      EXPECT_NEAR(x.segment<3>(3 * i).dot(v.segment<3>(3 * i)), 0.0, 1e-15);
    }
    model.set_configuration(0.0, x, v, back);
    EXPECT_EIGEN_NEAR(back, y, 1e-15 * (1.0 + y.norm()));
    model.configuration(0.0, back, x2, v2);
    EXPECT_EIGEN_NEAR(x2, x, 0.0);
    EXPECT_EIGEN_NEAR(v2, v, 1e-15 * (1.0 + v.norm()));
  }
}

TEST(SphereCharges, AccelerationsAreThoseOfTheIndexOneConstrainedForm) {
  GEOMINT_SEEDED_RNG(rng, 206);
  for (const Variant& variant : kVariants) {
    const double sigma = variant.sigma;
    const SphereCharges model = make_model(3, 0.7, 1.3, 0.9, sigma, variant.species);
    for (int trial = 0; trial < 5; ++trial) {
      const State y = random_state(rng, 3);
      Positions x(9), v(9), grad(9);
      SphereCharges::ConstraintJacobian dg(3, 9);
      SphereCharges::Constraints curvature(3);
      model.configuration(0.0, y, x, v);
      model.constrained_gradient(x, grad);
      model.constraint_jacobian(0.0, x, dg);
      model.constraint_curvature(0.0, x, v, curvature);
      // [M  -Dg^T; Dg  0] (x'', mu) = (-dV/dx, -curvature)
      Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(12, 12);
      kkt.topLeftCorner(9, 9) = model.mass().asDiagonal();
      kkt.topRightCorner(9, 3) = -dg.transpose();
      kkt.bottomLeftCorner(3, 9) = dg;
      Eigen::VectorXd rhs(12);
      rhs << -grad, -curvature;
      const Eigen::VectorXd sol = kkt.fullPivLu().solve(rhs);
      EXPECT_EIGEN_REL_NEAR(accelerations(model, y), sol.head(9), 1e-13) << "sigma " << sigma;
    }
  }
}

TEST(SphereCharges, VectorFieldIsTangentAndConservesEnergyAndAngularMomentum) {
  GEOMINT_SEEDED_RNG(rng, 207);
  for (const Variant& variant : kVariants) {
    const double sigma = variant.sigma;
    const SphereCharges model = make_model(4, 1.1, 0.9, 1.2, sigma, variant.species);
    for (int trial = 0; trial < 5; ++trial) {
      const State y = random_state(rng, 4);
      const auto p = testing::expect_sphere_vector_field(model, y, 1e-6);
      const Vec3 djdt = (model.angular_momentum(p.yp) - model.angular_momentum(p.ym)) / (2 * p.e);
      EXPECT_EIGEN_NEAR(djdt, Vec3::Zero(), 1e-6 * (1.0 + p.power)) << "sigma " << sigma;
      EXPECT_EIGEN_NEAR(model.conserved_momentum(y), model.angular_momentum(y), 0.0);
    }
  }
  EXPECT_EQ(SphereCharges::momentum_names(), (std::vector<std::string>{"Lx", "Ly", "Lz"}));
}

TEST(SphereCharges, GreatCircleAtRestIsAnEquilibriumForBothSigns) {
  const auto& preset = find_preset<SphereCharges>("great_circle");
  for (const double sigma : {1.0, -1.0}) {
    const SphereCharges model(preset_parameters(preset, {{"sigma", sigma}}));
    const State y = preset.initial_state(model);
    State dy(y.size());
    model.rhs(0.0, y, dy);
    EXPECT_EIGEN_NEAR(dy, State::Zero(y.size()), 1e-15) << "sigma " << sigma;
    EXPECT_REL_NEAR(model.energy(y), sigma * std::sqrt(3.0), 1e-15);
  }
}

TEST(SphereCharges, SpinningGreatCircleAcceleratesOnlyCentripetally) {
  const auto s = testing::make_setup<SphereCharges>("great_circle_spinning");
  const Positions a = accelerations(s.model, s.initial);
  for (Eigen::Index i = 0; i < 3; ++i)  // omega = 1: q_i'' = -q_i
    EXPECT_EIGEN_NEAR(a.segment<3>(3 * i), -s.initial.segment<3>(3 * i), 1e-15);
  for (Eigen::Index i = 0; i < 3; ++i) EXPECT_EQ(s.initial(3 * i + 2), 0.0) << "on the equator";
  EXPECT_EIGEN_NEAR(s.model.angular_momentum(s.initial), Vec3(0, 0, 3), 1e-15);
}

TEST(SphereCharges, AttractingSmallCircleTriangleIsARelativeEquilibrium) {
  const auto s = testing::make_setup<SphereCharges>("attracting_small_circle");
  const double omega = s.model.rotation_rate(SphereCharges::positions(s.initial), 0);
  EXPECT_NEAR(omega, std::sqrt(1.0 / (std::sqrt(3.0) * std::pow(std::sqrt(0.5), 3))), 1e-15);  // m = e = k = 1
  const auto centripetal = [](const State& y, double rate, Eigen::Index i) {
    const Vec3 q = y.segment<3>(3 * i);
    return Vec3(-rate * rate * Vec3(q.x(), q.y(), 0.0));  // omega e3 x (omega e3 x q)
  };
  const Positions a = accelerations(s.model, s.initial);
  for (Eigen::Index i = 0; i < 3; ++i) EXPECT_EIGEN_NEAR(a.segment<3>(3 * i), centripetal(s.initial, omega, i), 1e-14);
  // The same triangle spun 1 % faster is not one: its charges climb or fall off the circle.
  SphereCharges::State faster = s.initial;
  faster.tail(9) *= 1.01;
  const Positions b = accelerations(s.model, faster);
  EXPECT_GT((b.segment<3>(0) - centripetal(faster, 1.01 * omega, 0)).norm(), 1e-3);
  // Under repulsion there is no rate.
  ParameterSet repelling = preset_parameters(find_preset<SphereCharges>("attracting_small_circle"), {});
  repelling.set("sigma", 1.0);
  EXPECT_TRUE(std::isnan(SphereCharges(repelling).rotation_rate(SphereCharges::positions(s.initial), 0)));
  // Its linearisation in the frame turning with it (models/relative_equilibrium.hpp).
  const double growth = largest_growth_rate(s.model, s.initial, omega);
  std::printf("attracting_small_circle: omega %.4f, largest growth rate %.4g 1/s\n", omega, growth);
}

TEST(SphereCharges, OppositeChargesSpinningIsARelativeEquilibrium) {
  const auto s = testing::make_setup<SphereCharges>("opposite_charges_spinning");
  // The pair at polar angle theta = pi/3 (charge 1, mass 1), the pole's charge -2: along e_theta
  // the pole pulls with -2 sin(theta) / r^3 (r = 2 sin(theta/2) = 1), the other of the pair
  // pushes with cos(theta) / (4 sin^2 theta), and m omega^2 sin(theta) cos(theta) balances them.
  const double theta = kPi / 3, r = 2 * std::sin(theta / 2);
  const double omega = std::sqrt((2 * std::sin(theta) / (r * r * r) - std::cos(theta) / (4 * std::pow(std::sin(theta), 2))) /
                                 (std::sin(theta) * std::cos(theta)));
  EXPECT_NEAR(s.model.rotation_rate(SphereCharges::positions(s.initial), 1), omega, 1e-14);
  EXPECT_NEAR(s.model.rotation_rate(SphereCharges::positions(s.initial), 2), omega, 1e-14);
  EXPECT_TRUE(std::isnan(s.model.rotation_rate(SphereCharges::positions(s.initial), 0)));  // on the axis
  // Every charge, the pole's too, is at rest in the frame turning at omega.
  EXPECT_LE(rotating_frame_field(s.model, s.initial, omega).norm(), 1e-13);
  EXPECT_GT(rotating_frame_field(s.model, s.initial, 1.01 * omega).norm(), 1e-2);
  EXPECT_EIGEN_NEAR(s.model.mass().head<3>(), Vec3::Constant(10.0), 0.0);
  const double growth = largest_growth_rate(s.model, s.initial, omega);
  std::printf("opposite_charges_spinning: omega %.4f, largest growth rate %.4g 1/s\n", omega, growth);
}

// ---- Reference integrations with Boost.Odeint (Fehlberg 7(8)) -------------------------------

using OdeVector = std::vector<double>;
constexpr double kTol = 1e-14;

struct OdeSystem {
  const SphereCharges* model;
  void operator()(const OdeVector& x, OdeVector& dx, double t) const {
    const State y = Eigen::Map<const State>(x.data(), static_cast<Eigen::Index>(x.size()));
    State dy(y.size());
    model->rhs(t, y, dy);
    dx.assign(dy.data(), dy.data() + dy.size());
  }
};

auto controlled() {
  namespace odeint = boost::numeric::odeint;
  return odeint::make_controlled(kTol, kTol, odeint::runge_kutta_fehlberg78<OdeVector>());
}

/// y(t1) from y(t0) at tolerance kTol.
OdeVector advance(const SphereCharges& model, OdeVector x, double t0, double t1) {
  boost::numeric::odeint::integrate_adaptive(controlled(), OdeSystem{&model}, x, t0, t1,
                                             (t1 - t0) / 16);
  return x;
}

/// The first time q_1 crosses the equator (its z falls through 0) and the state then: steps
/// until z changes sign, then Newton's method in t from the step's start, z' = (w_1 x q_1)_z.
std::pair<double, OdeVector> first_equator_crossing(const SphereCharges& model, const State& y0) {
  auto stepper = controlled();
  const OdeSystem system{&model};
  OdeVector x(y0.data(), y0.data() + y0.size()), start = x;
  double t = 0.0, dt = 1e-2, t_start = 0.0;
  while (x[2] > 0.0) {
    start = x;
    t_start = t;
    while (stepper.try_step(system, x, t, dt) != boost::numeric::odeint::success) {
    }
  }
  double tc = t_start + (t - t_start) * start[2] / (start[2] - x[2]);
  OdeVector xc;
  for (int iteration = 0; iteration < 20; ++iteration) {
    xc = advance(model, start, t_start, tc);
    OdeVector dx(xc.size());
    system(xc, dx, tc);
    const double step = xc[2] / dx[2];
    tc -= step;
    if (std::abs(step) < 1e-15 * tc) break;
  }
  return {tc, advance(model, start, t_start, tc)};
}

TEST(SphereCharges, IsoscelesTriangleKeepsItsMirrorSymmetry) {
  const auto s = testing::make_setup<SphereCharges>("isosceles");
  const Eigen::Vector3d mirror(1, -1, 1);  // the reflection y -> -y
  const auto mirrored = [&](const State& y) {
    EXPECT_NEAR(y(1), 0.0, 1e-12) << "apex off the great circle y = 0";
    EXPECT_EIGEN_NEAR(y.segment<3>(3).cwiseProduct(mirror), y.segment<3>(6), 1e-12);
  };
  mirrored(s.initial);
  const OdeVector x0(s.initial.data(), s.initial.data() + s.initial.size());
  const OdeVector x = advance(s.model, x0, 0.0, 3.0);
  const State y = Eigen::Map<const State>(x.data(), 18);
  mirrored(y);
  // Not trivially: the charges have moved.
  EXPECT_GT((y - s.initial).head(9).norm(), 0.1);
}

/// The state of a breathing triangle: q_i at polar angle theta0, azimuths 2 pi i / 3, turning
/// about e3 at omega0.
State triangle(double theta0, double omega0) {
  State y(18);
  for (int i = 0; i < 3; ++i) {
    const double phi = 2.0 * kPi * i / 3.0;
    const Vec3 q(std::sin(theta0) * std::cos(phi), std::sin(theta0) * std::sin(phi),
                 std::cos(theta0));
    y.segment<3>(3 * i) = q;
    y.segment<3>(3 * (3 + i)) = omega0 * (Vec3::UnitZ() - q.z() * q);
  }
  return y;
}

struct BreathingCase {
  const char* name;
  BreathingTriangle orbit;
};

TEST(SphereCharges, BreathingPeriodAndAzimuthAdvanceMatchTheFullModel) {
  const BreathingCase cases[] = {
      {"breathing preset", {1.0, 1.0, 1.0, kPi / 4, 0.0}},
      {"breathing_spinning preset", {1.0, 1.0, 1.0, kPi / 4, 1.0}},
      {"general", {1.7, 0.6, 2.3, 1.0, -0.8}},
      {"near the pole, fast", {0.5, 1.4, 0.7, 0.2, 3.0}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const BreathingTriangle& o = c.orbit;
    auto p = SphereCharges::default_parameters();
    p.set("m", o.m);
    p.set("e", o.e);
    p.set("k", o.k);
    const SphereCharges model(p);
    const State y0 = triangle(o.theta0, o.omega0);
    EXPECT_NEAR(model.angular_momentum(y0).z(), breathing_angular_momentum(o), 1e-15);
    const auto [t_quarter, x] = first_equator_crossing(model, y0);
    const double period = breathing_reduced_period(o);
    const double advance_phi = breathing_azimuth_advance(o);
    EXPECT_REL_NEAR(period, 4.0 * t_quarter, 1e-8);
    const double phi_quarter = std::atan2(x[1], x[0]);
    if (o.omega0 == 0.0) {
      EXPECT_EQ(advance_phi, 0.0);
      EXPECT_NEAR(phi_quarter, 0.0, 1e-13);
    } else {
      EXPECT_REL_NEAR(advance_phi, 4.0 * phi_quarter, 1e-8);
    }
    RecordProperty(std::string(c.name) + " T_r", testing::show(period));
    RecordProperty(std::string(c.name) + " T_r relative error",
                   testing::show(std::abs(period - 4.0 * t_quarter) / period));
    RecordProperty(std::string(c.name) + " Delta phi", testing::show(advance_phi));
    RecordProperty(std::string(c.name) + " Delta phi error",
                   testing::show(std::abs(advance_phi - 4.0 * phi_quarter)));
  }
}

TEST(SphereCharges, BreathingQuadratureIsSymmetricInTheTurningPointAndRejectsTheEquator) {
  const BreathingTriangle north{1.0, 1.0, 1.0, 0.7, 0.5}, south{1.0, 1.0, 1.0, kPi - 0.7, 0.5};
  const double j_ratio = breathing_angular_momentum(south) / breathing_angular_momentum(north);
  EXPECT_REL_NEAR(breathing_reduced_period(south), breathing_reduced_period(north), 1e-14);
  EXPECT_REL_NEAR(breathing_azimuth_advance(south), j_ratio * breathing_azimuth_advance(north),
                  1e-14);
  EXPECT_THROW(breathing_reduced_period({1.0, 1.0, 1.0, kPi / 2, 0.0}), InputError);
  EXPECT_THROW(breathing_reduced_period({1.0, 1.0, 1.0, 0.0, 0.0}), InputError);
}

TEST(SphereCharges, PresetsLieOnTheManifold) {
  for (const auto& preset : SphereCharges::presets()) {
    SCOPED_TRACE(preset.name);
    const auto s = testing::make_setup<SphereCharges>(preset.name);
    EXPECT_LT(SphereCharges::unit_length_defect(s.initial), 1e-15);
    EXPECT_LT(SphereCharges::tangency_defect(s.initial), 1e-15);
  }
  const auto s = testing::make_setup<SphereCharges>("breathing_spinning");
  EXPECT_EIGEN_NEAR(s.model.angular_momentum(s.initial), Vec3(0, 0, 1.5), 1e-15);
}

TEST(SphereCharges, RejectsBadParameters) {
  auto p = SphereCharges::default_parameters();
  EXPECT_THROW(p.set("n", 1), InputError);
  EXPECT_THROW(p.set("n", 2.5), InputError);
  EXPECT_THROW(p.set("m", 0.0), InputError);
  EXPECT_THROW(p.set("e", -1.0), InputError);
  EXPECT_THROW(p.set("k", 0.0), InputError);
  EXPECT_THROW(p.set("sigma", 0.0), InputError);
  EXPECT_THROW(p.set("sigma", 2.0), InputError);
  EXPECT_THROW(p.set("e1", std::numeric_limits<double>::quiet_NaN()), InputError);
  p.set("n1", 4);  // more than n = 3
  EXPECT_THROW(SphereCharges{p}, InputError);
}

}  // namespace
}  // namespace geomint
