// Label `unit`: the ConstrainedLagrangian view of point masses on spheres about fixed pivots
// (models/bodies_on_spheres.hpp), on the n bodies (Kozlov-Harin), the spring pendula (pivots on
// a square, radius l) and the molecules (all pairs and cut off), against independent
// derivations (sphere_charges, the view's fourth user, has the same checks in its own test):
//   - configuration and set_configuration are inverse on (TS^2)^n, every body at distance r
//     from its pivot with its velocity normal to the radius;
//   - g vanishes at a configuration; Dg is the derivative of g along any direction (Richardson)
//     and annihilates the configuration's velocity; Dg a + curvature is g'' along x + t v + t^2 a / 2;
//   - the constrained potential is the sphere form's, its gradient the derivative of the
//     potential and its Hessian the derivative of the gradient (Richardson), also at points off
//     the spheres (the midpoint rule evaluates them inside);
//   - the accelerations of the index-1 constrained form M x'' = -dV/dx + Dg^T mu,
//     Dg x'' + curvature = 0, solved here as one linear system, are those of the sphere form's
//     vector field (LLM), mapped to the bodies: x_i'' = r (w_i' x q_i + w_i x q_i').

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "models/sphere_lj.hpp"
#include "models/sphere_nbody.hpp"
#include "models/spring_pendula.hpp"
#include "models/views.hpp"
#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;

static_assert(ConstrainedLagrangian<SphereNBody>);
static_assert(ConstrainedLagrangian<SpringPendula>);
static_assert(ConstrainedLagrangian<SphereLennardJones>);

/// Four bodies of mass 1.3, gamma = 0.8; no two within 0.8 (chord) of each other or of antipodes, so
/// that c_ij = x_i . x_j stays inside (-1, 1) with |x_i| up to 1.15.
// kStep: the finite differences' step, 2e-3 times the length over which V varies (c_ij within 0.1
// of 1, springs of length 0.1, molecules 0.6 apart) to keep the truncation below the tolerance.
struct NBody {
  using Model = SphereNBody;
  static constexpr double kStep = 2e-4;
  static Model make() {
    ParameterSet p = Model::default_parameters();
    p.set("n", 4);
    p.set("m", 1.3);
    p.set("gamma", 0.8);
    return Model(p);
  }
  static bool apart(const Vec3& a, const Vec3& b) { return (a - b).norm() > 0.8 && (a + b).norm() > 0.8; }
};

/// The springs' square of pivots of side 0.1 with links of 0.13 and unequal springs.
struct Springs {
  using Model = SpringPendula;
  static constexpr double kStep = 1e-4;
  static Model make() {
    ParameterSet p = Model::default_parameters();
    p.set("l", 0.13);
    p.set("m", 0.17);
    return Model(p);
  }
  static bool apart(const Vec3&, const Vec3&) { return true; }
};

/// Five molecules, sigma = 0.5, eps = 1.3, m = 0.9, none closer than 0.6 (1.2 sigma).
template <int kCutoffTenths>
struct Molecules {
  using Model = SphereLennardJones;
  static constexpr double kStep = 2e-4;
  static Model make() {
    ParameterSet p = Model::default_parameters();
    p.set("n", 5);
    p.set("sigma", 0.5);
    p.set("epsilon", 1.3);
    p.set("m", 0.9);
    p.set("cutoff", kCutoffTenths / 10.0);
    return Model(p);
  }
  static bool apart(const Vec3& a, const Vec3& b) { return (a - b).norm() > 0.6; }
};

template <class Setup>
class BodiesOnSpheresTest : public ::testing::Test {
 protected:
  using Model = typename Setup::Model;
  using State = typename Model::State;
  using Positions = typename Model::Positions;
  using Constraints = typename Model::Constraints;
  static constexpr double kStep = Setup::kStep;

  const Model model_ = Setup::make();
  const Eigen::Index n_ = model_.bodies();

  State random_state(testing::Rng& rng) const {
    return testing::random_sphere_state<State>(rng, n_, Setup::apart);
  }
  /// The positions of y with each body moved along its radius to 0.85..1.15 r.
  Positions off_spheres(testing::Rng& rng, const State& y) const {
    Positions x, v;
    model_.configuration(0.0, y, x, v);
    for (Eigen::Index i = 0; i < n_; ++i) {
      const Vec3 pivot = x.template segment<3>(3 * i) - model_.radius() * y.template segment<3>(3 * i);
      x.template segment<3>(3 * i) = pivot + rng.uniform(0.85, 1.15) * (x.template segment<3>(3 * i) - pivot);
    }
    return x;
  }
  Constraints g_at(const Positions& x) const {
    Constraints g;
    model_.constraints(0.0, x, g);
    return g;
  }
  Positions gradient_at(const Positions& x) const {
    Positions grad;
    model_.constrained_gradient(x, grad);
    return grad;
  }
  Positions random_direction(testing::Rng& rng) const {
    return rng.template cube<Eigen::Dynamic>(1.0, 3 * n_);
  }
};

using Setups = ::testing::Types<NBody, Springs, Molecules<0>, Molecules<25>>;
TYPED_TEST_SUITE(BodiesOnSpheresTest, Setups);

TYPED_TEST(BodiesOnSpheresTest, ConfigurationAndSetConfigurationAreInverse) {
  GEOMINT_SEEDED_RNG(rng, 311);
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = this->random_state(rng);
    typename TestFixture::Positions x, v;
    this->model_.configuration(0.0, y, x, v);
    EXPECT_EIGEN_NEAR(this->g_at(x), TestFixture::Constraints::Zero(this->n_), 1e-15);
    typename TestFixture::State back;
    this->model_.set_configuration(0.0, x, v, back);
    EXPECT_EIGEN_NEAR(back, y, 1e-14 * (1.0 + y.norm()));
  }
}

TYPED_TEST(BodiesOnSpheresTest, ConstraintsJacobianAndCurvatureAlongCurves) {
  GEOMINT_SEEDED_RNG(rng, 312);
  const auto& model = this->model_;
  for (int trial = 0; trial < 5; ++trial) {
    typename TestFixture::Positions x, v;
    model.configuration(0.0, this->random_state(rng), x, v);
    const typename TestFixture::Positions a = this->random_direction(rng), u = this->random_direction(rng);
    typename TestFixture::Model::ConstraintJacobian dg;
    model.constraint_jacobian(0.0, x, dg);
    const auto along_u = testing::richardson_derivative([&](double s) { return this->g_at(x + s * u); });
    EXPECT_EIGEN_NEAR(dg * u, along_u, testing::kRichardsonTol);
    EXPECT_EIGEN_NEAR(dg * v, TestFixture::Constraints::Zero(this->n_), 1e-14);
    // g(x(t)) is a quartic in t: the Richardson second difference is exact up to round-off.
    const auto curve = [&](double s) { return this->g_at(x + s * v + 0.5 * s * s * a); };
    const auto second = [&](double h) { return Eigen::VectorXd((curve(h) - 2.0 * curve(0.0) + curve(-h)) / (h * h)); };
    typename TestFixture::Constraints curvature, rate;
    model.constraint_curvature(0.0, x, v, curvature);
    model.constraint_rate(0.0, x, rate);
    EXPECT_EIGEN_NEAR(dg * a + curvature, (4.0 * second(5e-3) - second(1e-2)) / 3.0, 1e-8);
    EXPECT_EIGEN_NEAR(rate, TestFixture::Constraints::Zero(this->n_), 0.0);
  }
}

TYPED_TEST(BodiesOnSpheresTest, ThePotentialIsTheSphereFormsAndItsDerivativesAreItsGradientAndHessian) {
  GEOMINT_SEEDED_RNG(rng, 313);
  const auto& model = this->model_;
  const Eigen::Index d = 3 * this->n_;
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = this->random_state(rng);
    typename TestFixture::Positions on, v;
    model.configuration(0.0, y, on, v);
    EXPECT_NEAR(model.constrained_potential(on), model.potential(TestFixture::Model::positions(y)),
                1e-14 * (1.0 + std::abs(model.potential(TestFixture::Model::positions(y)))));
    const typename TestFixture::Positions x = this->off_spheres(rng, y);
    const typename TestFixture::Positions grad = this->gradient_at(x);
    typename TestFixture::Model::PositionMatrix hess;
    model.potential_hessian(x, hess);
    Eigen::MatrixXd fd(d, d);
    for (Eigen::Index c = 0; c < d; ++c) {
      const double dv = testing::richardson_derivative([&](double s) {
        typename TestFixture::Positions xs = x;
        xs(c) += s;
        return Eigen::Matrix<double, 1, 1>(model.constrained_potential(xs));
      }, TestFixture::kStep)(0);
      EXPECT_NEAR(grad(c), dv, 1e-9 * (1.0 + std::abs(dv))) << "component " << c;
      fd.col(c) = testing::richardson_derivative([&](double s) {
        typename TestFixture::Positions xs = x;
        xs(c) += s;
        return Eigen::VectorXd(this->gradient_at(xs));
      }, TestFixture::kStep);
    }
    EXPECT_EIGEN_NEAR(hess, fd, 1e-9 * (1.0 + fd.cwiseAbs().maxCoeff()));
    EXPECT_EIGEN_NEAR(hess, hess.transpose(), 1e-15 * hess.cwiseAbs().maxCoeff());
  }
}

TYPED_TEST(BodiesOnSpheresTest, AccelerationsAreThoseOfTheSphereForm) {
  GEOMINT_SEEDED_RNG(rng, 314);
  const auto& model = this->model_;
  const Eigen::Index n = this->n_, d = 3 * n;
  for (int trial = 0; trial < 5; ++trial) {
    const auto y = this->random_state(rng);
    typename TestFixture::Positions x, v;
    model.configuration(0.0, y, x, v);
    const typename TestFixture::Positions grad = this->gradient_at(x);
    typename TestFixture::Model::ConstraintJacobian dg;
    typename TestFixture::Constraints curvature;
    model.constraint_jacobian(0.0, x, dg);
    model.constraint_curvature(0.0, x, v, curvature);
    // [M, -Dg^T; Dg, 0] (x'', mu) = (-dV/dx, -curvature).
    Eigen::MatrixXd system = Eigen::MatrixXd::Zero(d + n, d + n);
    system.topLeftCorner(d, d) = model.mass().asDiagonal();
    system.topRightCorner(d, n) = -dg.transpose();
    system.bottomLeftCorner(n, d) = dg;
    Eigen::VectorXd rhs(d + n);
    rhs << -grad, -curvature;
    const Eigen::VectorXd constrained = system.fullPivLu().solve(rhs).head(d);

    typename TestFixture::State dy = y;
    model.rhs(0.0, y, dy);
    Eigen::VectorXd sphere(d);
    for (Eigen::Index i = 0; i < n; ++i) {
      const Vec3 q = y.template segment<3>(3 * i), w = y.template segment<3>(3 * (n + i));
      const Vec3 dq = dy.template segment<3>(3 * i), dw = dy.template segment<3>(3 * (n + i));
      sphere.segment<3>(3 * i) = model.radius() * (dw.cross(q) + w.cross(dq));
    }
    EXPECT_EIGEN_NEAR(constrained, sphere, 1e-11 * (1.0 + sphere.norm()));
  }
}

}  // namespace
}  // namespace geomint
