// Label `unit`: the two quadrotors with a load (models/quadrotors_payload.hpp) and their
// controller (models/load_transport_controller.hpp) against independent facts.
//
//   - The Lie group view: psi_*(f(P))|_P equals the ambient field F(P) at random consistent
//     states (Celledoni Section 6.1), and the product action's generator is the derivative of
//     its exp-action, by central differences.
//   - The product's dexpinv in closed form equals the series (8) to round-off for small
//     arguments (the se(3) and so(3) factors' Section 2.3 formulas against Bernoulli's series).
//   - Under the load law, v' = g e3 + (mu_1 + mu_2)/m_y with mu_i = c_i (F_d . q_i) q_i written
//     here from NOTES 4.5: the block inverse of A(z) in (37) and the u|| law agree.
//   - The desired directions' jets (q_id, q_id', q_id'') equal central differences of q_id
//     along the flow (steps of RK4 forward and backward from a state of the run).
//   - With the load on its desired trajectory, F_d is along e3 and the desired directions are
//     the closed form (0, -+1/2, sqrt3/2) of NOTES 4.5.
//   - The state layout declares the defects of the issue, and a formation angle of 90 degrees or
//     more is refused.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "geometry/so3.hpp"
#include "integrators/classical_methods.hpp"
#include "integrators/explicit_rk.hpp"
#include "models/model_contract.hpp"
#include "models/quadrotors_payload.hpp"
#include "support/eigen_matchers.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using M = QuadrotorsPayload;
using Vec3 = Eigen::Vector3d;

static_assert(Model<M>);
static_assert(LieGroupOde<M>);

M make_model() { return M(M::default_parameters()); }

/// A random point of the manifold: R_i in SO(3), q_i on S^2, w_i tangent, the rest free.
M::State random_state(testing::Rng& rng) {
  M::State y;
  y.segment<3>(M::kY) = rng.vec3(3.0);
  y.segment<3>(M::kV) = rng.vec3(2.0);
  for (int i = 0; i < 2; ++i) {
    Eigen::Map<Eigen::Matrix3d>(y.data() + M::kR[i]) = rng.rotation();
    y.segment<3>(M::kOmega[i]) = rng.vec3(5.0);
    const Vec3 q = rng.unit3();
    Vec3 w = rng.vec3(2.0);
    w -= q.dot(w) * q;
    y.segment<3>(M::kQ[i]) = q;
    y.segment<3>(M::kW[i]) = w;
  }
  return y;
}

TEST(QuadrotorsPayload, GeneratorActsAsTheAmbientField) {
  GEOMINT_SEEDED_RNG(rng, 1);
  const M model = make_model();
  for (int trial = 0; trial < 20; ++trial) {
    const M::State y = random_state(rng);
    const double t = rng.uniform(0.0, 5.0);
    M::State field, acted;
    M::Algebra xi;
    model.rhs(t, y, field);
    model.generator(t, y, xi);
    M::Group::generator(xi, y, acted);
    EXPECT_PRED_FORMAT3(testing::EigenRelNear, acted, field, 1e-14);
  }
}

TEST(QuadrotorsPayload, ProductGeneratorIsTheDerivativeOfTheAction) {
  GEOMINT_SEEDED_RNG(rng, 2);
  const double eps = 1e-5;
  for (int trial = 0; trial < 10; ++trial) {
    const M::State y = random_state(rng);
    M::Algebra xi;
    for (Eigen::Index k = 0; k < xi.size(); ++k) xi[k] = rng.normal();
    M::State plus = y, minus = y, generated;
    M::Group::exp_act(eps * xi, plus);
    M::Group::exp_act(-eps * xi, minus);
    M::Group::generator(xi, y, generated);
    const M::State difference = (plus - minus) / (2.0 * eps);
    EXPECT_PRED_FORMAT3(testing::EigenRelNear, difference, generated, 1e-8);
  }
}

TEST(QuadrotorsPayload, ProductDexpinvIsItsSeriesForSmallArguments) {
  GEOMINT_SEEDED_RNG(rng, 3);
  for (int trial = 0; trial < 10; ++trial) {
    M::Algebra a, b, closed, series;
    for (Eigen::Index k = 0; k < a.size(); ++k) {
      a[k] = 0.01 * rng.normal();
      b[k] = rng.normal();
    }
    M::Group::dexpinv(a, b, closed);
    M::Group::dexpinv_series(a, b, 12, series);
    EXPECT_PRED_FORMAT3(testing::EigenNear, closed, series, 1e-15);
    M::Algebra zero_bracket;
    M::Group::bracket(a, a, zero_bracket);
    EXPECT_PRED_FORMAT3(testing::EigenNear, zero_bracket, M::Algebra::Zero(), 0.0);
  }
}

TEST(QuadrotorsPayload, LoadAccelerationUnderTheParallelLaw) {
  GEOMINT_SEEDED_RNG(rng, 4);
  const M model = make_model();
  const auto& c = model.controller();
  for (int trial = 0; trial < 20; ++trial) {
    const M::State y = random_state(rng);
    const double t = rng.uniform(0.0, 5.0);
    // NOTES 4.5, written out here: F_d, c_i = 1/((r_id . e3)|r_1d + r_2d|), mu_i.
    const double tau = t - 2.5;
    const Vec3 y_d(tau, 0.0, tau * tau - 7.0), dy_d(1.0, 0.0, 2.0 * tau), ddy_d(0.0, 0.0, 2.0);
    const Vec3 force = 0.4 * (-12.0 * (y.segment<3>(M::kY) - y_d) -
                              5.0 * (y.segment<3>(M::kV) - dy_d) + ddy_d - 9.81 * Vec3::UnitZ());
    const double share = 1.0 / (std::cos(std::numbers::pi / 6) * 2.0 * std::cos(std::numbers::pi / 6));
    Vec3 mu_sum = Vec3::Zero();
    for (int i = 0; i < 2; ++i) {
      const Vec3 q = y.segment<3>(M::kQ[i]);
      mu_sum += share * force.dot(q) * q;
    }
    M::State field;
    model.rhs(t, y, field);
    const Vec3 expected = c.g * Vec3::UnitZ() + mu_sum / c.m_y;
    const Vec3 acceleration = field.segment<3>(M::kV);
    EXPECT_PRED_FORMAT3(testing::EigenRelNear, acceleration, expected, 1e-13);
  }
}

TEST(QuadrotorsPayload, DesiredDirectionJetsAreTheirDerivativesAlongTheFlow) {
  const auto setup = testing::make_setup<M>("celledoni2021");
  const M& model = setup.model;
  const FixedStep step{1e-3};
  const double t_end = 1.0;
  const M::State y0 = testing::final_state<ExplicitRk<Rk4Method, M>>(model, setup.initial, step, t_end);
  const double t0 = 1.0, delta = 1e-4;
  ExplicitRk<Rk4Method, M> rk4(model);
  M::State forward = y0, backward = y0;
  rk4.step(t0, forward, delta);
  rk4.step(t0, backward, -delta);
  const auto at = [&](double t, const M::State& y) { return model.controller().desired_directions(t, model.motion(y)); };
  const auto mid = at(t0, y0), next = at(t0 + delta, forward), previous = at(t0 - delta, backward);
  for (int i = 0; i < 2; ++i) {
    const Vec3 first = (next[i].x - previous[i].x) / (2.0 * delta);
    const Vec3 second = (next[i].x - 2.0 * mid[i].x + previous[i].x) / (delta * delta);
    // Central differences are O(delta^2) accurate (the third derivative of q_id is ~100 here:
    // 1e-7 relative); the second difference rounds to ~1e-16 / delta^2.
    EXPECT_PRED_FORMAT3(testing::EigenRelNear, first, mid[i].dx, 1e-6);
    EXPECT_PRED_FORMAT3(testing::EigenRelNear, second, mid[i].ddx, 1e-5);
    EXPECT_GT(mid[i].dx.norm(), 1e-2);  // the check is not vacuous
  }
}

TEST(QuadrotorsPayload, DesiredDirectionsOnTheDesiredTrajectory) {
  const M model = make_model();
  for (double t : {0.0, 1.3, 4.0}) {
    const double tau = t - 2.5;
    M::State y = M::presets()[0].initial_state(model);
    y.segment<3>(M::kY) = Vec3(tau, 0.0, tau * tau - 7.0);
    y.segment<3>(M::kV) = Vec3(1.0, 0.0, 2.0 * tau);
    const auto q_d = model.controller().desired_directions(t, model.motion(y));
    EXPECT_PRED_FORMAT3(testing::EigenNear, q_d[0].x, Vec3(0.0, -0.5, std::sqrt(3.0) / 2), 1e-15);
    EXPECT_PRED_FORMAT3(testing::EigenNear, q_d[1].x, Vec3(0.0, 0.5, std::sqrt(3.0) / 2), 1e-15);
    const auto out = model.outputs(t, y);
    EXPECT_EQ(out[0], 0.0);
  }
}

TEST(QuadrotorsPayload, DeclaresTheDefectsOfItsBlocks) {
  const M model = make_model();
  const std::vector<std::string> names = model.state_layout().defect_names();
  for (const char* name : {"unit_q1", "tangency_w1", "orthogonality_R1", "det_R1", "unit_q2",
                           "tangency_w2", "orthogonality_R2", "det_R2"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  EXPECT_EQ(model.state_layout().dimension(), 42);
  EXPECT_TRUE(model.declared_invariants().empty());
  EXPECT_LE(max_manifold_defect(model, M::presets()[0].initial_state(model)), 2e-16);
}

TEST(QuadrotorsPayload, RefusesLinksThatDoNotPointDown) {
  ParameterSet p = M::default_parameters();
  p.set("formation_angle", 90.0);
  EXPECT_THROW(static_cast<void>(M(p)), InputError);
}

}  // namespace
}  // namespace geomint
