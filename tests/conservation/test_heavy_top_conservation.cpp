// Label `conservation`: what the symplectic Lie group integrators of Celledoni (15)-(17) keep on
// the heavy top, and the paper's Fig. 3 run as a test.
//
//   - Adjoint: theta = 0 and theta = 1 are each other's adjoint, Phi^1_h o Phi^0_{-h} = id and
//     Phi^0_h o Phi^1_{-h} = id, to 1e-12 (relative to |pi0|, and in the rotation angle of Q) on
//     the paper's top at h = 0.01. (theta = 1/2's symmetry: test_declared_structure.cpp.)
//   - SLGIKK = SLGI: theta = 1/2 on the quadratic form (29)-(32) and on (21)-(22) give the same
//     (Q, pi) to 1e-10 over 100 steps of h = 0.01 (the notes' Section 3.3: the p-part of nbar is
//     zero, so the two solves are the same equations), and p stays exactly constant.
//   - Free rigid body on T*SO(3) (the heavy top with g = 0): pi is conserved to round-off by
//     every theta and both compositions, 1000 steps of h = 0.01 (each step changes pi by
//     h kappa x (...) = 0 exactly, up to the Newton solve's rounding).
//   - On a left-invariant Hamiltonian (the free rigid body: FreeRigidBody::
//     kLeftInvariantHamiltonian) every theta is one map (integrators/symplectic_lie_group.hpp:
//     on_left_invariant_hamiltonian): the model's field is checked to be left-invariant, and
//     theta = 0 and 1 follow theta = 1/2 on T*SO(3) from a general (g0, mu0) to 1e-13 over 20
//     steps of h = 0.05; on the heavy top, whose gravity breaks the invariance, one step of
//     theta = 0 and of theta = 1/2 differ by more than 1e-6 (so the comparison can fail).
//   - Fig. 3: h = 0.01, 6000 steps (T = 60) on the paper's top, theta = 1/2 and theta = 0: the
//     Casimir pi . e3 and Pi . X change by less than 1e-10 of |pi0|; |Q^T Q - I| <= 1e-12; the
//     energy error is bounded with no drift: the means of E - E0 over the first and the last
//     1000 steps differ by less than 5 % of max |E - E0|. The control, RKMK4 on the Lie group
//     form at the same step, drifts (measured: 6.3 -> 111 in a band of 121), so the criterion
//     can fail.
//   - theta = 1/2's energy band is second order: halving h from 0.00025 to 0.000125 (over
//     T = 1) divides max |E - E0| by 4 +- 5 %. The band is h^2 e2 + h^4 e4 with a large e4 on
//     this fast top (|Omega0| = 150, h |Omega0| = 0.15 at h = 0.001): the ratios measured from
//     h = 0.001 down are 3.27, 3.82, 3.96, their distance to 4 falling by about 4 per halving,
//     as the h^2 relative correction does.
//   - A step whose Newton iteration cannot proceed (here the field overflows) fails typed:
//     NonConvergence at its time, with the residual named.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "catalogue/families/symplectic_lie_group.hpp"
#include "errors/exit_status_errors.hpp"
#include "geometry/so3.hpp"
#include "integrators/integrate.hpp"
#include "integrators/lie_group_methods.hpp"
#include "models/free_rigid_body.hpp"
#include "models/heavy_top.hpp"
#include "models/heavy_top_quadratic.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using Mat3 = Eigen::Matrix3d;
using Theta0 = SymplecticLieGroup<HeavyTop, SlgiTheta0>;
using ThetaHalf = SymplecticLieGroup<HeavyTop, SlgiThetaHalf>;
using Theta1 = SymplecticLieGroup<HeavyTop, SlgiTheta1>;

double rotation_angle(const Mat3& a, const Mat3& b) { return so3::log(b * a.transpose()).norm(); }

template <class Forward, class Backward>
void expect_adjoint() {
  const auto s = testing::make_setup<HeavyTop>("celledoni2021");
  const double h = 0.01;
  auto z = s.model.cotangent_point(s.initial);
  const auto z0 = z;
  auto backward = Backward(s.model);
  auto forward = Forward(s.model);
  backward.step_point(0.0, z, -h);
  forward.step_point(-h, z, h);
  EXPECT_LT((z.mu - z0.mu).norm() / z0.mu.norm(), 1e-12);
  EXPECT_LT(rotation_angle(z0.g, z.g), 1e-12);
}

TEST(HeavyTopSlgi, Theta1IsTheAdjointOfTheta0) { expect_adjoint<Theta1, Theta0>(); }
TEST(HeavyTopSlgi, Theta0IsTheAdjointOfTheta1) { expect_adjoint<Theta0, Theta1>(); }

TEST(HeavyTopSlgi, SlgikkFollowsSlgi) {
  const auto top = testing::make_setup<HeavyTop>("celledoni2021");
  const auto quadratic = testing::make_setup<HeavyTopQuadratic>("celledoni2021");
  auto slgi = ThetaHalf(top.model);
  auto slgikk = SymplecticLieGroup<HeavyTopQuadratic, SlgiThetaHalf>(quadratic.model);
  auto a = top.initial;
  auto b = quadratic.initial;
  const Eigen::Vector3d p0 = b.template tail<3>();
  double worst = 0.0;
  for (int k = 0; k < 100; ++k) {
    slgi.step(0.01 * k, a, 0.01);
    slgikk.step(0.01 * k, b, 0.01);
    worst = std::max(worst, (a - b.head<12>()).norm() / a.norm());
    ASSERT_EQ(b.tail<3>(), p0) << "p changed at step " << k;
  }
  EXPECT_LT(worst, 1e-10);
}

/// pi after 1000 steps of the free body on T*SO(3): each substep's pi1 = Ad*(nbar) + Ad*(pi0)
/// cancels to pi0 up to the rounding of that sum and of the Newton solve, so the change is at
/// most a few eps |pi0| per substep (a bound of 2 eps per substep, accumulated linearly).
template <class Method>
void expect_free_body_momentum_conserved(int substeps) {
  const auto& preset = find_preset<HeavyTop>("celledoni2021");
  const HeavyTop model(preset_parameters(preset, {{"g", 0.0}}));
  auto y = preset.initial_state(model);
  const Eigen::Vector3d pi0 = y.template tail<3>();
  const FixedStep step{0.01};
  const double t_end = 10.0;
  typename Method::template type<HeavyTop> integrator(model);
  double worst = 0.0;
  integrate(integrator, y, 0.0, t_end, step, [&](double, const HeavyTop::State& x) {
    worst = std::max(worst, (x.template tail<3>() - pi0).norm() / pi0.norm());
  });
  const double bound = 2.0 * std::numeric_limits<double>::epsilon() * substeps * 1000;
  std::printf("%s: max |pi - pi0| / |pi0| = %.2e (bound %.2e)\n",
              std::string(Method::declaration.name).c_str(), worst, bound);
  EXPECT_LT(worst, bound) << Method::declaration.name;
}

TEST(HeavyTopSlgi, FreeBodyMomentumIsConserved) {
  using Half = SymplecticLieGroupEntry<SlgiThetaHalf>;
  expect_free_body_momentum_conserved<SymplecticLieGroupEntry<SlgiTheta0>>(1);
  expect_free_body_momentum_conserved<Half>(1);
  expect_free_body_momentum_conserved<SymplecticLieGroupEntry<SlgiTheta1>>(1);
  expect_free_body_momentum_conserved<CompositionEntry<Half, SlgiThetaHalfYoshida4>>(3);
  expect_free_body_momentum_conserved<CompositionEntry<Half, SlgiThetaHalfYoshida6>>(7);
}

/// f1(a g, mu) = Ad_a f1(g, Ad*_a mu) and f2 = ad*_{f1} mu = mu x f1: what left invariance,
/// H(g, mu) = h(Ad*_g mu), means for the field of (14).
TEST(FreeRigidBodySlgi, TheFieldIsLeftInvariant) {
  const auto s = testing::make_setup<FreeRigidBody>("elliptic");
  static_assert(FreeRigidBody::kLeftInvariantHamiltonian);
  const Mat3 g = so3::exp(Eigen::Vector3d(0.3, -1.1, 0.7)), a = so3::exp(Eigen::Vector3d(-0.9, 0.4, 2.0));
  const Eigen::Vector3d mu(0.8, -1.3, 2.1);
  Eigen::Vector3d f1, f2, f1_moved, f2_moved;
  s.model.hamiltonian_field(0.0, {a * g, mu}, f1_moved, f2_moved);
  s.model.hamiltonian_field(0.0, {g, a.transpose() * mu}, f1, f2);
  EXPECT_LT((f1_moved - a * f1).norm(), 1e-14 * f1.norm());
  EXPECT_LT((f2_moved - mu.cross(f1_moved)).norm(), 1e-14 * f2_moved.norm());
}

/// The largest distance between theta's and theta = 1/2's points on T*G over `steps` steps.
template <class Model, class Method>
double distance_from_theta_half(const Model& model, typename Model::Cotangent::Point z, double h,
                                int steps) {
  auto half = z;
  auto theta = SymplecticLieGroup<Model, Method>(model);
  auto reference = SymplecticLieGroup<Model, SlgiThetaHalf>(model);
  double worst = 0.0;
  for (int k = 0; k < steps; ++k) {
    theta.step_point(k * h, z, h);
    reference.step_point(k * h, half, h);
    worst = std::max({worst, rotation_angle(half.g, z.g), (z.mu - half.mu).norm() / half.mu.norm()});
  }
  return worst;
}

TEST(FreeRigidBodySlgi, EveryThetaIsOneMap) {
  const auto s = testing::make_setup<FreeRigidBody>("elliptic");
  const Mat3 g0 = so3::exp(Eigen::Vector3d(0.3, -1.1, 0.7));
  const CotangentSO3::Point z0{g0, g0 * s.initial};
  const double theta0 = distance_from_theta_half<FreeRigidBody, SlgiTheta0>(s.model, z0, 0.05, 20);
  const double theta1 = distance_from_theta_half<FreeRigidBody, SlgiTheta1>(s.model, z0, 0.05, 20);
  std::printf("free rigid body, 20 steps of h = 0.05: theta = 0 and 1 from theta = 1/2: %.2e, %.2e\n",
              theta0, theta1);
  EXPECT_LT(theta0, 1e-13);
  EXPECT_LT(theta1, 1e-13);
  const auto top = testing::make_setup<HeavyTop>("celledoni2021");
  const double on_top =
      distance_from_theta_half<HeavyTop, SlgiTheta0>(top.model, top.model.cotangent_point(top.initial), 0.01, 1);
  std::printf("heavy top, one step of h = 0.01: theta = 0 from theta = 1/2: %.2e\n", on_top);
  EXPECT_GT(on_top, 1e-6);
}

struct Fig3Run {
  double casimir = 0.0, body_momentum = 0.0, orthogonality = 0.0;  // largest changes
  double band = 0.0, first_mean = 0.0, last_mean = 0.0;             // of E - E0
};

template <class Integrator>
Fig3Run fig3_run(double h, double T) {
  const auto s = testing::make_setup<HeavyTop>("celledoni2021");
  const FixedStep step{h};
  Integrator integrator(s.model);
  auto y = s.initial;
  double initial[3];
  s.model.evaluate_invariants(y, initial);
  const double scale = y.tail<3>().norm();
  std::vector<double> energy_error;
  Fig3Run run;
  integrate(integrator, y, 0.0, T, step, [&](double, const HeavyTop::State& x) {
    double now[3];
    s.model.evaluate_invariants(x, now);
    energy_error.push_back(now[0] - initial[0]);
    run.casimir = std::max(run.casimir, std::abs(now[1] - initial[1]) / scale);
    run.body_momentum = std::max(run.body_momentum, std::abs(now[2] - initial[2]) / scale);
    const Mat3 q = Eigen::Map<const Mat3>(x.data());
    run.orthogonality = std::max(run.orthogonality, (q.transpose() * q - Mat3::Identity()).norm());
    run.band = std::max(run.band, std::abs(energy_error.back()));
  });
  const std::size_t n = std::min<std::size_t>(1000, energy_error.size() / 2);
  for (std::size_t k = 0; k < n; ++k) {
    run.first_mean += energy_error[1 + k] / n;
    run.last_mean += energy_error[energy_error.size() - 1 - k] / n;
  }
  std::printf("%s, h = %g, T = %g: band %.3e, means %.4e -> %.4e, casimir %.2e, Pi.X %.2e, orth %.2e\n",
              std::string(Integrator::declaration.name).c_str(), h, T, run.band, run.first_mean,
              run.last_mean, run.casimir, run.body_momentum, run.orthogonality);
  return run;
}

template <class Integrator>
void expect_fig3_conservation() {
  const Fig3Run run = fig3_run<Integrator>(0.01, 60.0);
  EXPECT_LT(run.casimir, 1e-10);
  EXPECT_LT(run.body_momentum, 1e-10);
  EXPECT_LE(run.orthogonality, 1e-12);
  EXPECT_LT(std::abs(run.last_mean - run.first_mean), 0.05 * run.band) << "the energy drifts";
}

TEST(HeavyTopFig3, ThetaHalfConservesWithoutDrift) { expect_fig3_conservation<ThetaHalf>(); }
TEST(HeavyTopFig3, Theta0ConservesWithoutDrift) { expect_fig3_conservation<Theta0>(); }

TEST(HeavyTopFig3, Rkmk4DriftsAtTheSameStep) {
  const Fig3Run run = fig3_run<Rkmk4Method::Integrator<HeavyTop>>(0.01, 60.0);
  EXPECT_GT(std::abs(run.last_mean - run.first_mean), 0.05 * run.band);
}

TEST(HeavyTopFig3, ThetaHalfEnergyBandIsSecondOrder) {
  const double coarse = fig3_run<ThetaHalf>(0.00025, 1.0).band, fine = fig3_run<ThetaHalf>(0.000125, 1.0).band;
  EXPECT_NEAR(coarse / fine, 4.0, 0.2);
}

TEST(HeavyTopSlgi, UnsolvableStepFailsTyped) {
  const auto s = testing::make_setup<HeavyTop>("celledoni2021");
  auto integrator = ThetaHalf(s.model);
  auto y = s.initial;
  y.tail<3>() *= 1e300;  // pi x omega overflows: Newton's residual is not finite
  try {
    integrator.step(2.0, y, 0.01);
    FAIL() << "a step whose field overflows was solved";
  } catch (const NonConvergence& e) {
    EXPECT_EQ(e.time(), 2.0);
    EXPECT_NE(std::string(e.what()).find("residual"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace geomint
