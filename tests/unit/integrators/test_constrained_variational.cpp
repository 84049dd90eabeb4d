// Label `unit`: the constrained variational integrators (integrators/constrained_variational.hpp)
// on the smallest constrained system, a particle on a sphere of radius l in uniform gravity
// written in Cartesian coordinates (one constraint |x|^2 = l^2), against
//   - the conical pendulum, an exact relative equilibrium: at angle th from the downward
//     vertical it turns at W^2 = g / (l cos th) (NOTES-dutoit 3.1);
//   - the constraint, at round-off after every step;
//   - the discrete Noether momentum about the vertical, conserved to round-off;
//   - the symmetry of the map (a step of -h undoes a step of h);
//   - each other: the recurrence (constrained_vi) and RATTLE give the same positions;
//   - a step far too large for Newton's method, which must fail typed.
// The models of the registry (sphere_charges, astrojax) are checked in tests/conservation and
// tests/order; this fixture has a closed-form solution, so it tests the integrator alone.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>

#include "integrators/constrained_variational.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/options.hpp"

namespace geomint {
namespace {

/// A particle of mass m on |x| = l, V = m g x_z (z up); state (x, x').
class CartesianPendulum {
 public:
  using State = Eigen::Matrix<double, 6, 1>;
  using Positions = Eigen::Vector3d;
  using Constraints = Eigen::Matrix<double, 1, 1>;
  using ConstraintJacobian = Eigen::Matrix<double, 1, 3>;
  using PositionMatrix = Eigen::Matrix3d;
  static constexpr bool kConstantPotentialGradient = true;
  static constexpr double kL = 1.3, kG = 9.81, kM = 2.0;

  Eigen::Index positions_dimension() const { return 3; }
  Eigen::Index constraint_count() const { return 1; }
  const Positions& mass() const { return mass_; }
  void configuration(double, const State& y, Positions& x, Positions& v) const {
    x = y.head<3>();
    v = y.tail<3>();
  }
  void set_configuration(double, const Positions& x, const Positions& v, State& y) const {
    y << x, v;
  }
  double constrained_potential(const Positions& x) const { return kM * kG * x.z(); }
  void constrained_gradient(const Positions&, Positions& grad) const { grad = {0, 0, kM * kG}; }
  void constraints(double, const Positions& x, Constraints& g) const {
    g(0) = x.squaredNorm() - kL * kL;
  }
  void constraint_jacobian(double, const Positions& x, ConstraintJacobian& dg) const {
    dg = 2.0 * x.transpose();
  }
  void constraint_rate(double, const Positions&, Constraints& g) const { g.setZero(); }
  void constraint_curvature(double, const Positions&, const Positions& v, Constraints& g) const {
    g(0) = 2.0 * v.squaredNorm();
  }

 private:
  Positions mass_ = Positions::Constant(kM);
};
static_assert(ConstrainedLagrangian<CartesianPendulum>);

using State = CartesianPendulum::State;
constexpr double kTheta = 0.7;
const double kRate = std::sqrt(CartesianPendulum::kG / (CartesianPendulum::kL * std::cos(kTheta)));

/// The conical pendulum at time t.
State conical(double t) {
  const double l = CartesianPendulum::kL;
  const Eigen::Vector3d x(l * std::sin(kTheta) * std::cos(kRate * t),
                          l * std::sin(kTheta) * std::sin(kRate * t), -l * std::cos(kTheta));
  State y;
  y << x, kRate * Eigen::Vector3d::UnitZ().cross(x);
  return y;
}

template <class Method>
State integrate(double h, int steps, State y = conical(0.0)) {
  CartesianPendulum model;
  ConstrainedVariational<CartesianPendulum, Method> vi(model);
  for (int k = 0; k < steps; ++k) vi.step(k * h, y, h);
  return y;
}

template <class Method>
double error_at_one(double h) {
  const int steps = static_cast<int>(std::lround(1.0 / h));
  const State error = integrate<Method>(h, steps) - conical(1.0);
  return error.head<3>().norm();
}

template <class Method>
class ConstrainedVariationalTest : public ::testing::Test {};
using Methods = ::testing::Types<ConstrainedVi, Rattle>;
TYPED_TEST_SUITE(ConstrainedVariationalTest, Methods);

TYPED_TEST(ConstrainedVariationalTest, ConicalPendulumConvergesAtSecondOrder) {
  const double e1 = error_at_one<TypeParam>(0.01), e2 = error_at_one<TypeParam>(0.005);
  const double order = std::log2(e1 / e2);
  this->RecordProperty("order", std::to_string(order));
  EXPECT_NEAR(order, 2.0, 0.05) << e1 << " " << e2;
}

TYPED_TEST(ConstrainedVariationalTest, KeepsTheConstraintsAndTheNoetherMomentumAtRoundOff) {
  CartesianPendulum model;
  const double h = 0.01;
  ConstrainedVariational<CartesianPendulum, TypeParam> vi(model);
  State y = conical(0.0);
  y.tail<3>() += Eigen::Vector3d(0.3, -0.2, 0.0);  // off the relative equilibrium
  y.tail<3>() -= y.tail<3>().dot(y.head<3>()) / y.head<3>().squaredNorm() * y.head<3>();
  const auto jz = [](const State& s) { return s(0) * s(4) - s(1) * s(3); };
  const double jz0 = jz(y);
  double worst_g = 0, worst_tangency = 0, worst_jz = 0;
  for (int k = 0; k < 10000; ++k) {
    vi.step(k * h, y, h);
    worst_g = std::max(worst_g, std::abs(y.head<3>().squaredNorm() / (CartesianPendulum::kL * CartesianPendulum::kL) - 1.0));
    worst_tangency = std::max(worst_tangency, std::abs(y.head<3>().dot(y.tail<3>())));
    worst_jz = std::max(worst_jz, std::abs(jz(y) - jz0) / std::abs(jz0));
  }
  EXPECT_LE(worst_g, 1e-13);
  EXPECT_LE(worst_tangency, 1e-12);
  EXPECT_LE(worst_jz, 1e-11);
}

TYPED_TEST(ConstrainedVariationalTest, AStepOfMinusHUndoesAStepOfH) {
  CartesianPendulum model;
  ConstrainedVariational<CartesianPendulum, TypeParam> vi(model);
  State y = conical(0.0);
  y.tail<3>() += Eigen::Vector3d(0.5, 0.1, 0.0);
  y.tail<3>() -= y.tail<3>().dot(y.head<3>()) / y.head<3>().squaredNorm() * y.head<3>();
  const State y0 = y;
  vi.step(0.0, y, 0.05);
  vi.step(0.05, y, -0.05);
  EXPECT_LE((y - y0).lpNorm<Eigen::Infinity>(), 1e-14);
}

TYPED_TEST(ConstrainedVariationalTest, AStepNewtonCannotSolveFailsTyped) {
  CartesianPendulum model;
  ConstrainedVariational<CartesianPendulum, TypeParam> vi(model);
  State y = conical(0.0);
  y.tail<3>() *= 40.0;
  try {
    vi.step(2.0, y, 50.0);
    FAIL() << "no failure";
  } catch (const NonConvergence& e) {
    EXPECT_EQ(e.time(), 2.0);
    EXPECT_NE(std::string(e.what()).find("residual"), std::string::npos) << e.what();
  }
}

TEST(ConstrainedVariational, TheRecurrenceAndRattleShareTheirPositions) {
  State y0 = conical(0.0);
  y0.tail<3>() += Eigen::Vector3d(0.3, -0.2, 0.0);
  y0.tail<3>() -= y0.tail<3>().dot(y0.head<3>()) / y0.head<3>().squaredNorm() * y0.head<3>();
  const State shake = integrate<ConstrainedVi>(0.01, 2000, y0);
  const State rattle = integrate<Rattle>(0.01, 2000, y0);
  EXPECT_LE((shake - rattle).head<3>().norm(), 1e-11) << (shake - rattle).transpose();
  EXPECT_GT((integrate<Rattle>(0.0101, 2000, y0) - rattle).head<3>().norm(), 1e-4);  // a control
}

TEST(ConstrainedVariational, TheMultiplierIsMinusTheTensionOverTheLength) {
  // On the conical pendulum the constraint force Dg^T mu = 2 mu x balances m x'' + m g e_z,
  // so mu = -m (W^2 l sin^2 th + g cos th) / (2 l)... written from the tension T of the rod:
  // T = m g / cos th, force -T x / l = 2 mu x, mu = -T / (2 l).
  CartesianPendulum model;
  const double h = 0.001;
  ConstrainedVariational<CartesianPendulum, ConstrainedVi> vi(model);
  State y = conical(0.0);
  for (int k = 0; k < 100; ++k) vi.step(k * h, y, h);
  const double tension = CartesianPendulum::kM * CartesianPendulum::kG / std::cos(kTheta);
  EXPECT_NEAR(vi.multiplier()(0), -tension / (2.0 * CartesianPendulum::kL), 1e-4 * tension);
}

}  // namespace
}  // namespace geomint
