// Label `order`: every catalogued integrator against exact solutions (no reference solver in
// the loop):
//   - the conical pendulum (models/conical_pendulum.hpp, spherical_pendulum preset `conical`):
//     fixed-step methods reach their nominal order within +-0.2 at T = 1 over the steps 0.02,
//     0.01, 0.005, 0.0025 (four times larger from order 5 up, which would otherwise reach
//     round-off); adaptive ones converge:
//     their global error falls with each tolerance step, and four decades of tolerance buy at
//     least a factor 50 (10^4 for most; 100 for cvode_adams_proj, which restarts at order 1
//     every step). Local error control does not bound the global error by the tolerance:
//     CVODE's is about 200 times its tolerance here (2e-8 at 1e-10), so no such bound is
//     asserted; a variable-order method (CVODE, Bulirsch-Stoer) has no single order to fit;
//   - the torque-free rigid body (models/free_rigid_body.hpp) against its solution in Jacobi
//     elliptic functions (models/rigid_body_solution.hpp), the same way from steps twice as
//     large (0.04 down, not 0.02: from 4 x 0.02 only two errors of the Yoshida-6 composition of
//     SLGI theta = 1/2 are above round-off);
//   - the tetrahedral equilibrium of four bodies on the sphere (sphere_nbody preset
//     `tetrahedron`): every method leaves it where it is, to 1e-12, over T = 1.
// A new integrator is checked here by being catalogued.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "catalogue/integrator_on_model.hpp"
#include "models/conical_pendulum.hpp"
#include "models/free_rigid_body.hpp"
#include "models/rigid_body_solution.hpp"
#include "models/sphere_nbody.hpp"
#include "models/spherical_pendulum.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

constexpr double kT = 1.0;
constexpr double kRoundOff = 1e-12;  // below this an error is rounding, not truncation

/// Every catalogued integrator that runs on `model`, from y0 to kT, against the exact final
/// state `exact`: fixed-step methods at their nominal order, adaptive ones converging (see the
/// file comment).
template <class Model>
void expect_every_integrator_converges(const Model& model, const typename Model::State& y0,
                                       const typename Model::State& exact, double coarsest) {
  int checked = 0;
  for (const CompiledIntegrator<Model>& method : compiled_integrators<Model>()) {
    if (!method.runs) continue;
    SCOPED_TRACE(std::string(method.name()));
    ++checked;
    std::string table;
    const auto error = [&](const StepControl& control) {
      return (testing::final_state(method, model, y0, control, kT) - exact).norm();
    };
    if (method.entry->adaptive) {
      std::vector<double> errors;
      for (double tol : {1e-6, 1e-8, 1e-10}) {
        errors.push_back(error(Tolerances{tol, tol}));
        table += " tol=" + std::to_string(tol) + " err=" + std::to_string(errors.back());
      }
      EXPECT_LT(errors[1], errors[0]) << table;
      EXPECT_LT(errors[2], errors[1]) << table;
      EXPECT_LT(errors[2], errors[0] / 50) << table;
    } else {
      const int order = method.on_model->order;  // on this model
      std::vector<std::pair<double, double>> points;
      for (double h : {coarsest, coarsest / 2, coarsest / 4, coarsest / 8}) {
        const FixedStep step{order >= 5 ? 4 * h : h};
        points.emplace_back(step.h, error(step));
        char entry[64];
        std::snprintf(entry, sizeof entry, " h=%.4g err=%.3e", step.h, points.back().second);
        table += entry;
      }
      const OrderFit fit = fit_order(points, kRoundOff);
      ASSERT_GE(fit.used, 3) << table;
      EXPECT_NEAR(fit.order, order, 0.2) << table << " (" << fit.note << ")";
    }
  }
  EXPECT_GT(checked, 0);
}

/// The exact trajectory's derivative (central differences) is the model's vector field: a
/// check of the closed form that involves no integrator.
template <class Model, class Exact>
void expect_solves_the_ode(const Model& model, const Exact& exact) {
  for (double t : {0.0, 0.3, 1.7}) {
    const double e = 1e-5;
    const typename Model::State derivative = (exact.at(t + e) - exact.at(t - e)) / (2 * e);
    typename Model::State f(derivative.size());
    model.rhs(t, exact.at(t), f);
    EXPECT_LT((f - derivative).norm(), 1e-8 * f.norm()) << "t = " << t;
  }
}

TEST(ConicalPendulum, IsAnExactSolution) {
  const auto s = testing::make_setup<SphericalPendulum>("conical");
  const ConicalPendulum exact(ConicalPendulum::kPresetAngle, 1.0, 9.81);
  EXPECT_LT((s.initial - exact.at(0.0)).norm(), 1e-15);
  expect_solves_the_ode(s.model, exact);
}

TEST(ConicalPendulum, EveryIntegratorConvergesToItAtItsOrder) {
  const auto s = testing::make_setup<SphericalPendulum>("conical");
  const ConicalPendulum exact(ConicalPendulum::kPresetAngle, 1.0, 9.81);
  expect_every_integrator_converges(s.model, s.initial, exact.at(kT), 0.02);
}

// The torque-free rigid body, preset `elliptic`: I = (1, 2, 3), Omega(0) = (1, 0, 1), so
// Pi(0) = (1, 0, 3), L^2 = 10 > 2 E I2 = 8, and the elliptic modulus k^2 = 1/3.
const Eigen::Vector3d kInertia(1.0, 2.0, 3.0);

TEST(FreeRigidBody, TheEllipticSolutionIsExact) {
  const auto s = testing::make_setup<FreeRigidBody>("elliptic");
  const RigidBodySolution exact(kInertia, s.initial);
  EXPECT_NEAR(exact.modulus() * exact.modulus(), 1.0 / 3.0, 1e-15);
  EXPECT_LT((exact.at(0.0) - s.initial).norm(), 1e-15);
  expect_solves_the_ode(s.model, exact);
  for (double t : {0.5, 2.0})  // on the orbit, at the energy
    EXPECT_NEAR(exact.at(t).norm(), s.initial.norm(), 1e-13);
}

TEST(FreeRigidBody, EveryIntegratorConvergesToTheEllipticSolutionAtItsOrder) {
  const auto s = testing::make_setup<FreeRigidBody>("elliptic");
  expect_every_integrator_converges(s.model, s.initial, s.model.exact_solution(s.initial, kT), 0.04);
}

TEST(TetrahedralEquilibrium, EveryIntegratorLeavesItInPlace) {
  const auto s = testing::make_setup<SphereNBody>("tetrahedron");
  for (const CompiledIntegrator<SphereNBody>& method : compiled_integrators<SphereNBody>()) {
    if (!method.runs) continue;
    const auto y = testing::final_state(
        method, s.model, s.initial, control_for(*method.entry, FixedStep{0.01}, Tolerances{1e-8, 1e-10}), kT);
    EXPECT_LT((y - s.initial).template lpNorm<Eigen::Infinity>(), kRoundOff) << method.name();
  }
}

}  // namespace
}  // namespace geomint
