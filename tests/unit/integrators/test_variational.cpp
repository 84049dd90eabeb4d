// Label `unit`: the variational integrators on (S^2)^n against the paper's own equations.
//
//   - one step of the implicit VI satisfies the discrete equations as LLM writes them before
//     any Cayley coordinates: (3.10) with F_i q_i replaced by q_{k+1,i}, and (3.12), to
//     round-off, and lands on (TS^2)^n;
//   - on a diagonal inertia the explicit VI (Cor. 3) is the exact solution of the implicit
//     one's equations (Cor. 2): the two agree to round-off;
//   - steps that have no solution are typed failures.

#include <gtest/gtest.h>

#include <cmath>

#include "errors/exit_status_errors.hpp"
#include "integrators/integrate.hpp"
#include "integrators/variational_explicit.hpp"
#include "integrators/variational_implicit.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/spherical_pendulum.hpp"
#include "support/eigen_matchers.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;
using Model = DoubleSphericalPendulum;

TEST(ImplicitVariational, StepSatisfiesLlmDiscreteEquations) {
  const auto s = testing::make_setup<Model>("lee2009");
  const auto& m = s.model.inertia();
  for (double h : {0.1, 0.01}) {
    ImplicitVariational<Model> vi(s.model);
    Model::State y0 = s.initial;
    for (int k = 0; k < 25; ++k) vi.step(k * h, y0, h);  // somewhere along the trajectory
    Model::State y1 = y0;
    vi.step(25 * h, y1, h);
    Model::Points q0 = Model::positions(y0), q1 = Model::positions(y1), g0 = q0, g1 = q1;
    const Model::Points w0 = Model::velocities(y0), w1 = Model::velocities(y1);
    s.model.potential_gradient(q0, g0);
    s.model.potential_gradient(q1, g1);
    for (int i = 0; i < 2; ++i) {
      // (3.10): q_i x sum_j M_ij (q_{k+1,j} - q_{k,j})
      //         = h M_ii w_i - q_i x sum_{j!=i} M_ij (q_j x h w_j) - h^2/2 q_i x dV_k/dq_i
      Vec3 lhs = Vec3::Zero(), rhs = h * m(i, i) * w0.col(i);
      for (int j = 0; j < 2; ++j) {
        lhs += m(i, j) * (q1.col(j) - q0.col(j));
        if (j != i) rhs -= q0.col(i).cross(m(i, j) * q0.col(j).cross(h * w0.col(j)));
      }
      rhs -= 0.5 * h * h * q0.col(i).cross(g0.col(i));
      EXPECT_EIGEN_NEAR(q0.col(i).cross(lhs), rhs, 1e-13 * m.norm() * h) << "(3.10), h = " << h;
      // (3.12): M_ii w'_i - q'_i x sum_{j!=i} M_ij (q'_j x w'_j)
      //         = 1/h q'_i x sum_j M_ij (q'_j - q_j) - h/2 q'_i x dV_{k+1}/dq_i
      Vec3 left = m(i, i) * w1.col(i), sum = Vec3::Zero();
      for (int j = 0; j < 2; ++j) {
        if (j != i) left -= q1.col(i).cross(m(i, j) * q1.col(j).cross(w1.col(j)));
        sum += m(i, j) * (q1.col(j) - q0.col(j));
      }
      const Vec3 right = q1.col(i).cross(sum) / h - 0.5 * h * q1.col(i).cross(g1.col(i));
      EXPECT_EIGEN_NEAR(left, right, 1e-13 * m.norm() / h) << "(3.12), h = " << h;
    }
    EXPECT_LT(Model::unit_length_defect(y1), 1e-15);
    EXPECT_LT(Model::tangency_defect(y1), 1e-14);
  }
}

TEST(ExplicitVariational, SolvesTheImplicitEquationsOnADiagonalInertia) {
  const auto s = testing::make_setup<SphericalPendulum>("swing");
  const FixedStep step{0.05};
  const double t_end = 5.0;
  const auto explicit_end = testing::final_state<ExplicitVariational<SphericalPendulum>>(s.model, s.initial, step, t_end);
  const auto implicit_end = testing::final_state<ImplicitVariational<SphericalPendulum>>(s.model, s.initial, step, t_end);
  EXPECT_EIGEN_NEAR(explicit_end, implicit_end, 1e-12);
}

TEST(ExplicitVariational, AStepWithoutSolutionIsNonConvergence) {
  const auto s = testing::make_setup<SphericalPendulum>("swing");
  ExplicitVariational<SphericalPendulum> vi(s.model);
  auto y = s.initial;
  EXPECT_THROW(vi.step(0.0, y, 2.0), NonConvergence);  // |h w| > 1: (3.17) asks for a point off the sphere
}

TEST(ImplicitVariational, AStepWithoutSolutionIsNonConvergence) {
  const auto s = testing::make_setup<Model>("lee2009");
  ImplicitVariational<Model> vi(s.model);
  auto y = s.initial;
  try {
    // h far beyond any step the Cayley equation (3.16) can be solved for
    integrate(vi, y, 0.0, 500.0, FixedStep{50.0}, [](double, const auto&) {});
    FAIL() << "expected a typed failure";
  } catch (const IntegrationFailure& e) {
    EXPECT_TRUE(e.kind() == FailureKind::NonConvergence || e.kind() == FailureKind::NonFinite)
        << e.what();
  }
}

}  // namespace
}  // namespace geomint
