// Label `conservation`: what the constrained variational integrators (constrained_vi, rattle;
// integrators/constrained_variational.hpp) keep on the DuToit systems, each against a law
// independent of the code under test:
//   - the constraint |g| <= 1e-13 at every step (Astrojax, charges);
//   - the discrete Noether momentum (NOTES-dutoit 2.6): J_z of the Astrojax and the whole
//     angular momentum of the charges, which are the momenta of the returned states, to 1e-11
//     relative over 10^4 steps; the naive q_k x M (q_k+1 - q_k)/h of the charges is shown not to
//     be conserved (it is only O(h^2) accurate);
//   - the energy error: bounded, no drift (the second half's mean error at most 1.2 times
//     the first half's), and falling as h^2 (ratio 4 +- 0.4 per halving);
//   - the driven support (NOTES-dutoit 2.7 items 6-8): a support moving at constant velocity
//     gives, relative to it, the undriven motion (the state is relative to the support) to
//     round-off (round_off_of_a_moving_support); a uniformly accelerated one the undriven motion under g + b; a vertical drive
//     keeps J_z;
//   - relative equilibria (NOTES-dutoit 3.3, 3.5): the stable cowboy keeps its shape to O(h^2)
//     with no growth, turns at omega + O(h^2), and its multiplier is -T + O(h^2); the unstable
//     one departs;
//   - the charges (DuToit Fig. 3, NOTES-dutoit 5.3): the great-circle triangle at rest stays
//     put and spun rotates rigidly; the isosceles triangle keeps its mirror symmetry.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <vector>

#include "integrators/constrained_variational.hpp"
#include "models/astrojax.hpp"
#include "models/astrojax_relative_equilibrium.hpp"
#include "models/sphere_charges.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

template <class Method>
class ConstrainedConservation : public ::testing::Test {};
using Methods = ::testing::Types<ConstrainedVi, Rattle>;
TYPED_TEST_SUITE(ConstrainedConservation, Methods);

/// Runs `steps` steps of h from y, calling f(k, y) after each.
template <class Method, class Model, class F>
typename Model::State run(const Model& model, typename Model::State y, double h, long steps, F&& f) {
  ConstrainedVariational<Model, Method> vi(model);
  for (long k = 0; k < steps; ++k) {
    vi.step(k * h, y, h);
    f(k + 1, y);
  }
  return y;
}

Astrojax astrojax_with(const std::vector<std::pair<const char*, double>>& values) {
  ParameterSet p = Astrojax::default_parameters();
  for (const auto& [name, value] : values) p.set(name, value);
  return Astrojax(p);
}

TYPED_TEST(ConstrainedConservation, AstrojaxKeepsTheTetherAndJzAtRoundOff) {
  const auto s = testing::make_setup<Astrojax>("spatial_intermediate");
  const double jz0 = s.model.angular_momentum_z(s.initial);
  double worst_g = 0.0, worst_jz = 0.0;
  run<TypeParam>(s.model, s.initial, 1e-3, 10000, [&](long, const Astrojax::State& y) {
    worst_g = std::max(worst_g, std::abs(s.model.tether_defect(y)));
    worst_jz = std::max(worst_jz, std::abs(s.model.angular_momentum_z(y) - jz0) / std::abs(jz0));
  });
  std::printf("astrojax, 10^4 steps: max |g| = %.3e, max |Jz - Jz0| / |Jz0| = %.3e\n", worst_g, worst_jz);
  EXPECT_LE(worst_g, 1e-13);
  EXPECT_LE(worst_jz, 1e-11);
}

/// The mean |E - E0| over each half of [0, T] at step h. (Not the largest: on the Astrojax the
/// largest energy error of a half is set by the closest approach of the two masses in it, where
/// the short segment spins fast and the error spikes; the spikes return to the band afterwards.
/// spatial_intermediate over T = 40 at h = 0.002: largest 3.1e-2 / 1.1e-2, mean 3.3e-4 / 3.0e-4.)
template <class Method>
std::pair<double, double> astrojax_energy_error(double h, double T) {
  const auto s = testing::make_setup<Astrojax>("spatial_intermediate");
  const double e0 = s.model.energy(s.initial);
  const long steps = std::lround(T / h);
  double first = 0.0, second = 0.0;
  run<Method>(s.model, s.initial, h, steps, [&](long k, const Astrojax::State& y) {
    (2 * k <= steps ? first : second) += std::abs(s.model.energy(y) - e0);
  });
  return {first / (steps / 2), second / (steps - steps / 2)};
}

TYPED_TEST(ConstrainedConservation, AstrojaxEnergyErrorIsBoundedAndSecondOrder) {
  const auto [first, second] = astrojax_energy_error<TypeParam>(0.002, 40.0);
  const auto [first_half_step, second_half_step] = astrojax_energy_error<TypeParam>(0.001, 40.0);
  const double ratio = (first + second) / (first_half_step + second_half_step);
  std::printf("astrojax spatial_intermediate, T = 40: mean |E - E0| %.3e / %.3e (h = 0.002), "
              "%.3e / %.3e (h = 0.001), ratio %.3f\n", first, second, first_half_step,
              second_half_step, ratio);
  EXPECT_LE(second, 1.2 * first);
  EXPECT_LE(second_half_step, 1.2 * first_half_step);
  EXPECT_NEAR(ratio, 4.0, 0.4);
}

/// What round-off allows between a run relative to a moving support and the undriven one over
/// [0, T] at h = 1e-3: the driven run steps absolute positions, up to |A(T)| from the origin, so
/// each velocity (x_k+1 - x_k)/h it forms carries eps |A| / h of rounding that the undriven run
/// does not have; 50 such (1000 steps of a motion that amplifies them).
double round_off_of_a_moving_support(const Astrojax& model, double T) {
  return 50.0 * std::numeric_limits<double>::epsilon() * model.support().position(T).norm() / 1e-3;
}

TYPED_TEST(ConstrainedConservation, ASupportAtConstantVelocityGivesTheUndrivenMotion) {
  const auto fixed = astrojax_with({});
  const auto moving = astrojax_with({{"driver", 3}, {"drive_velocity_x", 1.5}, {"drive_velocity_y", -0.7}, {"drive_velocity_z", 0.4}});
  const auto y0 = testing::make_setup<Astrojax>("spatial_intermediate").initial;
  const Astrojax::State a = run<TypeParam>(fixed, y0, 1e-3, 1000, [](long, const auto&) {});
  const Astrojax::State b = run<TypeParam>(moving, y0, 1e-3, 1000, [](long, const auto&) {});
  std::printf("constant-velocity support: |difference| = %.3e\n", (a - b).norm());
  EXPECT_LE((a - b).template lpNorm<Eigen::Infinity>(), round_off_of_a_moving_support(moving, 1.0));
  EXPECT_GT((a - y0).norm(), 0.1);  // it moved
}

TYPED_TEST(ConstrainedConservation, AUniformlyAcceleratedSupportIsStrongerGravity) {
  const auto accelerated = astrojax_with({{"driver", 4}, {"drive_acceleration", 2.0}});
  const auto heavier = astrojax_with({{"g", 9.81 + 2.0}});
  const auto y0 = testing::make_setup<Astrojax>("spatial_intermediate").initial;
  const Astrojax::State a = run<TypeParam>(accelerated, y0, 1e-3, 1000, [](long, const auto&) {});
  const Astrojax::State b = run<TypeParam>(heavier, y0, 1e-3, 1000, [](long, const auto&) {});
  std::printf("accelerated support against g + b: |difference| = %.3e\n", (a - b).norm());
  EXPECT_LE((a - b).template lpNorm<Eigen::Infinity>(), round_off_of_a_moving_support(accelerated, 1.0));
}

TYPED_TEST(ConstrainedConservation, AVerticalDriveKeepsJzAndACircularOneDoesNot) {
  const auto y0 = testing::make_setup<Astrojax>("spatial_intermediate").initial;
  const auto change = [&](const Astrojax& model) {
    const double jz0 = model.angular_momentum_z(y0);
    double worst = 0.0;
    run<TypeParam>(model, y0, 1e-3, 5000, [&](long, const Astrojax::State& y) {
      worst = std::max(worst, std::abs(model.angular_momentum_z(y) - jz0) / std::abs(jz0));
    });
    return worst;
  };
  const double vertical = change(astrojax_with({{"driver", 1}}));
  const double circular = change(astrojax_with({{"driver", 2}}));
  std::printf("Jz change: vertical drive %.3e, circular drive %.3e\n", vertical, circular);
  EXPECT_LE(vertical, 1e-11);
  EXPECT_GT(circular, 1e-3);
}

// ---- Relative equilibria ------------------------------------------------------------------

struct CowboyRun {
  double shape_first = 0.0, shape_second = 0.0;  // max shape deviation over each half
  double rate = 0.0;                              // fitted rate of q2's azimuth
  double multiplier = 0.0;                        // at the end
};

/// The shape (lambda = |q1|, z1, z2, horizontal radii r1, r2) of a state.
Eigen::Matrix<double, 5, 1> shape(const Astrojax::State& y) {
  Eigen::Matrix<double, 5, 1> s;
  s << y.head<3>().norm(), y(2), y(5), y.head<2>().norm(), y.segment<2>(3).norm();
  return s;
}

CowboyRun run_cowboy(double theta1, double h, double T) {
  const Astrojax model = astrojax_with({});
  const auto re = astrojax_cowboy(model.m1(), model.m2(), model.l(), model.g(), theta1);
  const auto shape0 = shape(re.state);
  const long steps = std::lround(T / h);
  ConstrainedVariational<Astrojax, ConstrainedVi> vi(model);
  Astrojax::State y = re.state;
  CowboyRun out;
  double phase = std::atan2(y(4), y(3)), unwrapped = phase, st = 0, sp = 0, stt = 0, stp = 0;
  for (long k = 1; k <= steps; ++k) {
    vi.step((k - 1) * h, y, h);
    const double deviation = (shape(y) - shape0).norm();
    (2 * k <= steps ? out.shape_first : out.shape_second) =
        std::max(2 * k <= steps ? out.shape_first : out.shape_second, deviation);
    const double now = std::atan2(y(4), y(3));
    unwrapped += std::remainder(now - phase, 2 * std::numbers::pi);
    phase = now;
    const double t = k * h;
    st += t; sp += unwrapped; stt += t * t; stp += t * unwrapped;
  }
  out.rate = (steps * stp - st * sp) / (steps * stt - st * st);
  out.multiplier = vi.multiplier()(0);
  return out;
}

TEST(AstrojaxRelativeEquilibria, TheStableCowboyHoldsAtSecondOrder) {
  const Astrojax model = astrojax_with({});
  const auto re = astrojax_cowboy(model.m1(), model.m2(), model.l(), model.g(), 1.0);
  const auto coarse = run_cowboy(1.0, 0.002, 10.0), fine = run_cowboy(1.0, 0.001, 10.0);
  std::printf("stable cowboy (omega = %.6f, T = %.6f): shape deviation %.3e / %.3e (h = 0.002), "
              "%.3e / %.3e (h = 0.001); rate error %.3e, %.3e; mu + T %.3e, %.3e\n",
              re.omega, re.tension, coarse.shape_first, coarse.shape_second, fine.shape_first,
              fine.shape_second, coarse.rate - re.omega, fine.rate - re.omega,
              coarse.multiplier + re.tension, fine.multiplier + re.tension);
  EXPECT_LE(coarse.shape_second, 1.2 * coarse.shape_first) << "grows";
  EXPECT_NEAR(coarse.shape_second / fine.shape_second, 4.0, 0.4);
  EXPECT_NEAR((coarse.rate - re.omega) / (fine.rate - re.omega), 4.0, 0.4);
  EXPECT_NEAR((coarse.multiplier + re.tension) / (fine.multiplier + re.tension), 4.0, 0.4);
  EXPECT_LE(std::abs(fine.multiplier + re.tension), 1e-3 * re.tension);
}

TEST(AstrojaxRelativeEquilibria, TheUnstableCowboyDeparts) {
  const auto stable = run_cowboy(1.0, 0.001, 20.0), unstable = run_cowboy(0.5, 0.001, 20.0);
  std::printf("shape deviation over T = 20: stable %.3e, unstable %.3e\n", stable.shape_second,
              unstable.shape_second);
  EXPECT_GT(unstable.shape_second, 1e-2);
  EXPECT_LT(stable.shape_second, 1e-4);
}

// ---- Charges on the sphere ------------------------------------------------------------------

TYPED_TEST(ConstrainedConservation, ChargesKeepTheSpheresAndTheNoetherMomentumNotTheNaiveOne) {
  const auto s = testing::make_setup<SphereCharges>("scalene");
  const double h = 0.01;
  const Eigen::Index n = s.model.bodies();
  const Eigen::Vector3d j0 = s.model.angular_momentum(s.initial);
  const auto naive = [&](const SphereCharges::State& a, const SphereCharges::State& b) {
    Eigen::Vector3d j = Eigen::Vector3d::Zero();
    for (Eigen::Index i = 0; i < n; ++i)
      j += Eigen::Vector3d(a.segment<3>(3 * i)).cross(Eigen::Vector3d(b.segment<3>(3 * i) - a.segment<3>(3 * i))) / h;
    return j;
  };
  // J0 = 0 from rest: the scale is the largest |q_i x p_i| seen.
  double worst_sphere = 0.0, worst_j = 0.0, naive_spread = 0.0, scale = 0.0;
  SphereCharges::State previous = s.initial;
  Eigen::Vector3d naive_first = Eigen::Vector3d::Constant(NAN);
  run<TypeParam>(s.model, s.initial, h, 10000, [&](long, const SphereCharges::State& y) {
    for (Eigen::Index i = 0; i < n; ++i) {
      worst_sphere = std::max(worst_sphere, std::abs(y.segment<3>(3 * i).squaredNorm() - 1.0));
      scale = std::max(scale, Eigen::Vector3d(y.segment<3>(3 * i)).cross(Eigen::Vector3d(y.segment<3>(3 * (n + i)))).norm());
    }
    worst_j = std::max(worst_j, (s.model.angular_momentum(y) - j0).norm());
    const Eigen::Vector3d jn = naive(previous, y);
    if (std::isnan(naive_first(0))) naive_first = jn;
    naive_spread = std::max(naive_spread, (jn - naive_first).norm());
    previous = y;
  });
  std::printf("charges (scalene), 10^4 steps: max ||q_i|^2 - 1| = %.3e, max |J - J0| = %.3e, "
              "naive momentum's spread %.3e, scale %.3g\n", worst_sphere, worst_j, naive_spread, scale);
  EXPECT_LE(worst_sphere, 1e-13);
  EXPECT_LE(worst_j, 1e-11 * scale);
  EXPECT_GT(naive_spread, 1e-6 * scale);
}

TYPED_TEST(ConstrainedConservation, TheGreatCircleTriangleStaysAtRestAndTurnsRigidlyWhenSpun) {
  const auto rest = testing::make_setup<SphereCharges>("great_circle");
  double moved = 0.0;
  run<TypeParam>(rest.model, rest.initial, 0.01, 5000, [&](long, const SphereCharges::State& y) {
    moved = std::max(moved, (y - rest.initial).lpNorm<Eigen::Infinity>());
  });
  const auto spun = testing::make_setup<SphereCharges>("great_circle_spinning");
  double off_equator = 0.0, side_error = 0.0;
  const auto y = run<TypeParam>(spun.model, spun.initial, 0.01, 5000, [&](long, const SphereCharges::State& s) {
    for (int i = 0; i < 3; ++i) {
      off_equator = std::max(off_equator, std::abs(s(3 * i + 2)));
      side_error = std::max(side_error, std::abs((s.segment<3>(3 * i) - s.segment<3>(3 * ((i + 1) % 3))).norm() - std::sqrt(3.0)));
    }
  });
  std::printf("great circle: at rest moved %.3e; spun: |z| %.3e, sides %.3e\n", moved, off_equator, side_error);
  EXPECT_LE(moved, 1e-13);
  EXPECT_LE(off_equator, 1e-13);
  EXPECT_LE(side_error, 1e-12);
  EXPECT_GT((y - spun.initial).norm(), 0.1);  // it turned
}

TYPED_TEST(ConstrainedConservation, TheIsoscelesTriangleKeepsItsMirror) {
  const auto s = testing::make_setup<SphereCharges>("isosceles");
  double apex = 0.0, mirror = 0.0;
  run<TypeParam>(s.model, s.initial, 0.01, 1000, [&](long, const SphereCharges::State& y) {
    apex = std::max(apex, std::abs(y(1)));
    const Eigen::Vector3d b = y.segment<3>(3), c = y.segment<3>(6);
    mirror = std::max(mirror, (b - Eigen::Vector3d(c.x(), -c.y(), c.z())).lpNorm<Eigen::Infinity>());
  });
  std::printf("isosceles over T = 10: apex off y = 0 by %.3e, base pair off mirror by %.3e\n", apex, mirror);
  EXPECT_LE(apex, 1e-12);
  EXPECT_LE(mirror, 1e-12);
}

}  // namespace
}  // namespace geomint
