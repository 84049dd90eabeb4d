// Label `unit`: geometry/coadjoint_se3_action.hpp, SE(3) acting on se(3)* by the coadjoint
// action, against independent references:
//   - the action is the coadjoint one by its definition: <g . mu, Ad_g xi> = <mu, xi>
//     (se3::Ad, the adjoint action, is tested in test_se3.cpp against 4x4 matrices);
//   - it is a left action: (g1 g2) . mu = g1 . (g2 . mu);
//   - exp_act agrees with the action of Eigen's matrix exponential of the 4x4 hat(xi);
//   - the generator is the derivative of the exp-action, d/dt exp(t xi) . mu at t = 0, by
//     Richardson-extrapolated central differences;
//   - the generator is -ad*_xi mu: <psi_*(xi)|_mu, eta> = -<mu, [xi, eta]> for every eta;
//   - the action keeps the Casimirs |Gamma|^2 and Pi . Gamma (its orbits are the coadjoint ones).

#include "geometry/coadjoint_se3_action.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/matrix_lie.hpp"
#include "support/random.hpp"

namespace {

using geomint::CoadjointSE3Action;
using geomint::testing::expm;
using geomint::testing::hat4;
using geomint::testing::Mat4;
using geomint::testing::Rng;
using geomint::testing::Vec3;
using geomint::testing::Vec6;
namespace se3 = geomint::se3;

// Points have |Pi| <= 10 sqrt 3 and |Gamma| = 1, group elements |r| <= 2 sqrt 3: every value
// compared is a sum of products of size <= ~50, whose rounding is a few kEps of that.
constexpr double kRoundoff = 1e-12;

se3::Element random_element(Rng& rng) {
  se3::Element g;
  g.rotation = rng.rotation();  // from a quaternion, not from so3::exp
  g.translation = rng.vec3(2.0);
  return g;
}

/// A point (Pi, Gamma) with |Pi| up to 10 and |Gamma| = 1, as the heavy top's.
Vec6 random_point(Rng& rng) {
  Vec6 mu;
  mu << rng.vec3(10.0), rng.unit3();
  return mu;
}

Vec6 acted(const se3::Element& g, Vec6 mu) {
  CoadjointSE3Action::act(g, mu);
  return mu;
}

TEST(CoadjointSE3Action, IsTheCoadjointActionByItsDefinition) {
  GEOMINT_SEEDED_RNG(rng, 1);
  for (int trial = 0; trial < 20; ++trial) {
    const se3::Element g = random_element(rng);
    const Vec6 mu = random_point(rng), xi = rng.vec6();
    EXPECT_NEAR(acted(g, mu).dot(se3::Ad(g, xi)), mu.dot(xi), kRoundoff);
  }
}

TEST(CoadjointSE3Action, IsALeftAction) {
  GEOMINT_SEEDED_RNG(rng, 2);
  for (int trial = 0; trial < 20; ++trial) {
    const se3::Element g1 = random_element(rng), g2 = random_element(rng);
    const Vec6 mu = random_point(rng);
    EXPECT_EIGEN_NEAR(acted(g1 * g2, mu), acted(g1, acted(g2, mu)), kRoundoff);
  }
}

TEST(CoadjointSE3Action, ExpActIsTheActionOfTheMatrixExponential) {
  GEOMINT_SEEDED_RNG(rng, 3);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec6 xi = rng.vec6(2.0), mu = random_point(rng);
    const Mat4 e = expm(Mat4(hat4(xi)));
    se3::Element g;
    g.rotation = e.topLeftCorner<3, 3>();
    g.translation = e.topRightCorner<3, 1>();
    Vec6 y = mu;
    CoadjointSE3Action::exp_act(xi, y);
    EXPECT_EIGEN_NEAR(y, acted(g, mu), kRoundoff);
  }
}

TEST(CoadjointSE3Action, GeneratorIsTheDerivativeOfTheExpAction) {
  GEOMINT_SEEDED_RNG(rng, 4);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec6 xi = rng.vec6(), mu = random_point(rng);
    const Vec6 fd = geomint::testing::richardson_derivative([&](double t) {
      Vec6 y = mu;
      CoadjointSE3Action::exp_act(t * xi, y);
      return y;
    });
    Vec6 dy;
    CoadjointSE3Action::generator(xi, mu, dy);
    // |mu| up to 10: the Richardson bound kRichardsonTol scaled by it.
    EXPECT_EIGEN_NEAR(dy, fd, geomint::testing::kRichardsonTol * 10.0);
  }
}

TEST(CoadjointSE3Action, GeneratorIsMinusCoadjointAd) {
  GEOMINT_SEEDED_RNG(rng, 5);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec6 xi = rng.vec6(), eta = rng.vec6(), mu = random_point(rng);
    Vec6 dy;
    CoadjointSE3Action::generator(xi, mu, dy);
    EXPECT_NEAR(dy.dot(eta), -mu.dot(se3::bracket(xi, eta)), kRoundoff);
  }
}

TEST(CoadjointSE3Action, KeepsTheCasimirs) {
  GEOMINT_SEEDED_RNG(rng, 6);
  for (int trial = 0; trial < 20; ++trial) {
    const Vec6 xi = rng.vec6(3.0), mu = random_point(rng);
    Vec6 y = mu;
    CoadjointSE3Action::exp_act(xi, y);
    EXPECT_NEAR(y.tail<3>().squaredNorm(), mu.tail<3>().squaredNorm(), 1e-14);
    EXPECT_NEAR(y.head<3>().dot(y.tail<3>()), mu.head<3>().dot(mu.tail<3>()), 1e-13);
  }
}

}  // namespace
