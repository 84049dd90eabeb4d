// Unit tests of geometry/so3.hpp against independent references: definitions written out
// entry by entry, Eigen's Pade-based matrix exponential and logarithm, Eigen::AngleAxis,
// long-double closed forms and power series, and finite differences.
//
// u = 2^-53 ~ 1.1e-16 is the unit roundoff; kEps = 2u. Tolerances are stated as multiples of
// kEps with the reason next to them.

#include "geometry/so3.hpp"

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/matrix_lie.hpp"
#include "support/random.hpp"

namespace {

namespace so3 = geomint::so3;
using geomint::testing::expm;
using geomint::testing::kRichardsonTol;
using geomint::testing::logm;
using geomint::testing::Mat3;
using geomint::testing::show;
using geomint::testing::skew;
using geomint::testing::unskew;
using geomint::testing::Vec3;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kPi = std::numbers::pi;

/// Rotation angles at which every formula is checked: zero, tiny, both sides of the series
/// switches of RodriguesCoefficients (t = 1e-4 and t = 1) and of log (1e-4, 3), moderate,
/// near pi and beyond (dexpinv is singular only at 2 pi).
std::vector<double> hard_norms() {
  return {0.0,
          1e-12,
          1e-8,
          1e-6,
          std::nextafter(1e-4, 0.0),
          1e-4,
          std::nextafter(1e-4, 1.0),
          1e-3,
          0.1,
          0.5,
          std::nextafter(1.0, 0.0),
          1.0,
          std::nextafter(1.0, 2.0),
          2.0,
          2.999,
          3.001,
          kPi - 1e-3,
          kPi - 1e-6,
          kPi - 1e-10,
          kPi,
          4.0,
          6.0};
}

/// Vectors of the hard norms along fixed and random directions.
std::vector<Vec3> hard_vectors(geomint::testing::Rng& rng, int random_directions = 2) {
  std::vector<Vec3> out;
  for (double r : hard_norms()) {
    out.push_back(r * Vec3::UnitZ());
    out.push_back(r * Vec3(1.0, -2.0, 2.0) / 3.0);
    for (int k = 0; k < random_directions; ++k) out.push_back(rng.with_norm(r));
  }
  return out;
}

/// ||dexpinv_u||_2 = max(1, (a/2) / |sin(a/2)|), a = |u|: ad_u is skew, so dexpinv_u = phi(ad_u)
/// is normal and its norm is the largest |phi| over the eigenvalues 0, +-i a of ad_u.
double dexpinv_norm(double a) {
  return a == 0.0 ? 1.0 : std::max(1.0, 0.5 * a / std::abs(std::sin(0.5 * a)));
}

// ---------------------------------------------------------------------------------------------
// hat, vee, bracket

TEST(So3Hat, HatTimesVectorIsCrossProduct) {
  GEOMINT_SEEDED_RNG(rng, 1);
  for (int i = 0; i < 50; ++i) {
    const Vec3 u = rng.vec3(10.0), v = rng.vec3(10.0);
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    const Vec3 cross(u(1) * v(2) - u(2) * v(1), u(2) * v(0) - u(0) * v(2),
                     u(0) * v(1) - u(1) * v(0));
    // Each component is a difference of two products either way: a few roundings of |u||v|.
    EXPECT_EIGEN_NEAR(so3::hat(u) * v, cross, 4 * kEps * u.norm() * v.norm());
  }
}

TEST(So3Hat, HatIsSkewAndVeeInvertsIt) {
  GEOMINT_SEEDED_RNG(rng, 2);
  for (int i = 0; i < 50; ++i) {
    const Vec3 u = rng.vec3(10.0);
    SCOPED_TRACE("u = " + show(u));
    const Mat3 h = so3::hat(u);
    EXPECT_EQ(h, skew(u));  // both only place the entries: exact
    EXPECT_EQ(Mat3(h + h.transpose()), Mat3::Zero());
    EXPECT_EQ(so3::vee(h), u);  // (u - (-u)) / 2 is exact
  }
}

TEST(So3Hat, VeeTakesSkewPartOfGeneralMatrix) {
  GEOMINT_SEEDED_RNG(rng, 3);
  for (int i = 0; i < 50; ++i) {
    const Vec3 u = rng.vec3();
    Mat3 s = Mat3::Zero();
    for (int r = 0; r < 3; ++r)
      for (int c = r; c < 3; ++c) s(r, c) = s(c, r) = rng.uniform(-1.0, 1.0);
    SCOPED_TRACE("u = " + show(u) + ", symmetric part =\n" + show(s));
    // Each entry of skew(u) + s is rounded once (|entry| <= 2), then halved differences.
    EXPECT_EIGEN_NEAR(so3::vee(skew(u) + s), u, 4 * kEps);
  }
}

TEST(So3Bracket, IsMatrixCommutator) {
  GEOMINT_SEEDED_RNG(rng, 4);
  for (int i = 0; i < 50; ++i) {
    const Vec3 u = rng.vec3(3.0), v = rng.vec3(3.0);
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    const Mat3 commutator = skew(u) * skew(v) - skew(v) * skew(u);
    // Products of 3-term sums of |u||v|-sized terms: a handful of roundings.
    EXPECT_EIGEN_NEAR(so3::bracket(u, v), unskew(commutator), 8 * kEps * u.norm() * v.norm());
  }
}

// ---------------------------------------------------------------------------------------------
// RodriguesCoefficients

struct RodriguesReference {
  long double a, b, c;
};

/// sin t / t, (1 - cos t) / t^2, (t - sin t) / t^3 in long double: alternating power series
/// sum_k (-t^2)^k / (2k + m)! for t < 1.5 (terms below 1e-30, no cancellation beyond a factor
/// ~2), closed forms above (t - sin t >= 0.5 there: cancellation costs at most a factor 3).
RodriguesReference rodrigues_reference(double t_in) {
  const long double t = t_in, t2 = t * t;
  if (t_in < 1.5) {
    long double a = 0, b = 0, c = 0, term = 1;  // term = (-t^2)^k / (2k+1)!
    for (int k = 0; k < 40; ++k) {
      a += term;
      const long double tb = term / (2 * k + 2);  // (-t^2)^k / (2k+2)!
      b += tb;
      c += tb / (2 * k + 3);  // (-t^2)^k / (2k+3)!
      term *= -t2 / ((2.0L * k + 2) * (2.0L * k + 3));
    }
    return {a, b, c};
  }
  return {std::sin(t) / t, (1 - std::cos(t)) / t2, (t - std::sin(t)) / (t2 * t)};
}

TEST(So3RodriguesCoefficients, MatchLongDoubleReferenceAcrossSwitchPoints) {
  static_assert(std::numeric_limits<long double>::digits >= 64, "needs extended long double");
  GEOMINT_SEEDED_RNG(rng, 5);
  std::vector<double> ts = hard_norms();
  for (double t : {1e-300, 1e-20, 5e-5, 2e-4, 1.5, 2.5, 5.0, 2 * kPi - 0.1}) ts.push_back(t);
  for (int i = 0; i < 300; ++i) ts.push_back(std::pow(10.0, rng.uniform(-6.0, std::log10(6.2))));
  for (double t : ts) {
    SCOPED_TRACE("t = " + show(t));
    const so3::RodriguesCoefficients k(t);
    const RodriguesReference ref = rodrigues_reference(t);
    // a = sin t / t and b = 2 sin^2(t/2) / t^2: glibc's sin is correctly rounded to within
    // 1 ulp, plus up to three more roundings; the series branch (t < 1e-4) drops t^4/120 < 1e-18.
    EXPECT_REL_NEAR(k.a, static_cast<double>(ref.a), 3 * kEps);
    EXPECT_REL_NEAR(k.b, static_cast<double>(ref.b), 3 * kEps);
    // c: above t = 1 the difference t - sin t (exact by Sterbenz for t < 1.9) magnifies the
    // half-ulp error of sin t by sin t / (t - sin t) <= 5.3 (at t = 1): 5.3 * u + 3 u ~ 4 kEps.
    EXPECT_REL_NEAR(k.c, static_cast<double>(ref.c), 5 * kEps);
  }
}

// ---------------------------------------------------------------------------------------------
// exp

TEST(So3Exp, MatchesEigenMatrixExponential) {
  GEOMINT_SEEDED_RNG(rng, 6);
  std::vector<Vec3> us = hard_vectors(rng);
  for (int i = 0; i < 30; ++i) us.push_back(rng.vec3(4.0));
  for (const Vec3& u : us) {
    SCOPED_TRACE("u = " + show(u) + ", |u| = " + show(u.norm()));
    // Entries are bounded by 1; Rodrigues has a few roundings, Eigen's degree-13 Pade with at
    // most one squaring (the 1-norm of skew(u) is < 2 |u| <= 12 < 2 * 5.37) a few more.
    EXPECT_EIGEN_NEAR(so3::exp(u), expm(skew(u)), 16 * kEps);
  }
}

TEST(So3Exp, OffDiagonalEntriesAreRelativelyAccurateNearZero) {
  // Near 0 the off-diagonal entries of exp(u) are O(|u|) and must not inherit the absolute
  // rounding of the identity: compare with the Taylor series sum_{k=1}^{10} U^k / k! (the
  // omitted terms are below |u|^11 / 11!, far below eps |u| for |u| <= 1e-3).
  GEOMINT_SEEDED_RNG(rng, 7);
  for (double r : {1e-12, 1e-8, 1e-6, 1e-5, std::nextafter(1e-4, 0.0), 1e-4,
                   std::nextafter(1e-4, 1.0), 1e-3}) {
    const Vec3 u = rng.with_norm(r);
    SCOPED_TRACE("u = " + show(u));
    const Mat3 U = skew(u);
    Mat3 series = Mat3::Zero(), term = Mat3::Identity();
    for (int k = 1; k <= 10; ++k) {
      term = term * U / k;
      series += term;
    }
    const Mat3 got = so3::exp(u);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if (i != j) {
          EXPECT_NEAR(got(i, j), series(i, j), 4 * kEps * r) << i << "," << j;
        }
  }
}

TEST(So3Exp, IsRotationFixingItsAxis) {
  GEOMINT_SEEDED_RNG(rng, 8);
  std::vector<Vec3> us = hard_vectors(rng);
  for (double r : {10.0, 100.0, 1e4}) us.push_back(rng.with_norm(r));  // many turns
  for (const Vec3& u : us) {
    SCOPED_TRACE("u = " + show(u));
    const Mat3 rot = so3::exp(u);
    // Each entry of I + a U + b U^2 (bounded by 1) carries ~4 roundings of O(1) terms, and
    // R^T R and det R sum three such products: ~10 eps seen in seed sweeps, 16 allowed. (For
    // |u| = 1e4 the argument reduction in sin/cos is still exact, so the same bound holds.)
    EXPECT_EIGEN_NEAR(Mat3(rot.transpose() * rot), Mat3::Identity(), 16 * kEps);
    EXPECT_NEAR(rot.determinant(), 1.0, 16 * kEps);
    EXPECT_EIGEN_NEAR(rot * u, u, 8 * kEps * u.norm());
  }
}

TEST(So3Exp, IsRotationByNormAboutDirection) {
  // Against Eigen::AngleAxis (sin and cos of the angle, independent of Rodrigues' a, b).
  GEOMINT_SEEDED_RNG(rng, 9);
  for (double r : hard_norms()) {
    if (r == 0.0) continue;
    const Vec3 n = rng.unit3();
    SCOPED_TRACE("angle = " + show(r) + ", axis = " + show(n));
    const Mat3 expected = Eigen::AngleAxisd(r, n).toRotationMatrix();
    EXPECT_EIGEN_NEAR(so3::exp(r * n), expected, 8 * kEps);
  }
}

// ---------------------------------------------------------------------------------------------
// log

TEST(So3Log, InvertsExpBelowPi) {
  GEOMINT_SEEDED_RNG(rng, 10);
  for (const Vec3& u : hard_vectors(rng, 4)) {
    const double t = u.norm();
    // At angle pi the sign of the axis is not determined by R, and within a few ulps of pi it
    // is decided by roundoff: u = pi * n may have |u| = pi - 1 ulp, and log(exp(u)) = -u is
    // then as right as u. Those are checked in NearPiRecoversAngleAndAxis and ExactlyPi.
    if (t > kPi - 1e-12) continue;
    SCOPED_TRACE("u = " + show(u) + ", |u| = " + show(t));
    const Mat3 rot = expm(skew(u));  // Eigen's exponential, not so3::exp
    // The entries of rot carry errors ~ 8 kEps (relative to |u| in the off-diagonal entries
    // when |u| is small). Below angle 3, log scales vee(rot) by t / sin t; from 3 on it reads
    // the axis off the symmetric part, which is well conditioned.
    const double gain = t < 3.0 && t > 0.0 ? t / std::sin(t) : 1.0;
    const double tol = 16 * kEps * gain * (t < 3.0 ? t : 1.0);
    EXPECT_EIGEN_NEAR(so3::log(rot), u, tol);
  }
}

TEST(So3Log, MatchesEigenMatrixLogarithm) {
  GEOMINT_SEEDED_RNG(rng, 11);
  for (int i = 0; i < 50; ++i) {
    const Mat3 rot = rng.rotation();  // from a random quaternion
    const Eigen::AngleAxisd aa(rot);
    if (aa.angle() > 3.0) continue;  // Eigen's log loses accuracy near eigenvalue -1
    SCOPED_TRACE("R =\n" + show(rot));
    const Vec3 expected = unskew(logm(rot));
    // Both are accurate to ~eps * t / sin t <= 21 eps in this range.
    EXPECT_EIGEN_NEAR(so3::log(rot), expected, 64 * kEps);
  }
}

TEST(So3Log, WrapsAnglesBeyondPiToPrincipalValue) {
  GEOMINT_SEEDED_RNG(rng, 12);
  for (double t : {kPi + 1e-10, kPi + 1e-6, 3.5, 4.0, 5.0, 6.0, 2 * kPi - 1e-3}) {
    const Vec3 n = rng.unit3();
    SCOPED_TRACE("angle = " + show(t) + ", axis = " + show(n));
    // A rotation by t about n is a rotation by 2 pi - t about -n.
    EXPECT_EIGEN_NEAR(so3::log(expm(skew(t * n))), Vec3(-(2 * kPi - t) * n), 32 * kEps);
  }
}

TEST(So3Log, NearPiRecoversAngleAndAxis) {
  GEOMINT_SEEDED_RNG(rng, 13);
  for (double delta : {1e-3, 1e-6, 1e-8, 1e-10, 1e-12}) {
    for (int i = 0; i < 20; ++i) {
      const double t = kPi - delta;
      const Vec3 n = rng.unit3();
      SCOPED_TRACE("angle = pi - " + show(delta) + ", axis = " + show(n));
      const Mat3 rot = Eigen::AngleAxisd(t, n).toRotationMatrix();
      // From angle 3 on, the angle comes from atan2(|vee R|, (tr R - 1)/2) and the axis from
      // the symmetric part (R + R^T)/2 - cos(t) I = (1 - cos t) n n^T with 1 - cos t ~ 2: the
      // O(eps) errors in the entries of R move the result by O(eps). The sign of the axis comes
      // from vee R = sin(t) n, |sin t| = delta >= 1e-12, far above the entry errors.
      EXPECT_EIGEN_NEAR(so3::log(rot), Vec3(t * n), 32 * kEps);
      EXPECT_EIGEN_NEAR(so3::exp(so3::log(rot)), rot, 16 * kEps);
    }
  }
}

TEST(So3Log, ExactlyPi) {
  GEOMINT_SEEDED_RNG(rng, 14);
  std::vector<Vec3> axes = {Vec3::UnitX(),
                            Vec3::UnitY(),
                            Vec3::UnitZ(),
                            -Vec3::UnitY(),
                            Vec3(1, 1, 0).normalized(),
                            Vec3(1, 1, 1).normalized(),
                            Vec3(-1, 2, -2).normalized()};
  for (int i = 0; i < 30; ++i) axes.push_back(rng.unit3());
  for (const Vec3& n : axes) {
    SCOPED_TRACE("axis = " + show(n));
    // R = 2 n n^T - I: a rotation by pi, exactly symmetric in floating point (n_i n_j = n_j n_i),
    // so vee(R) = 0 exactly and the sign of the axis is set by the documented convention.
    const Mat3 rot = 2.0 * n * n.transpose() - Mat3::Identity();
    ASSERT_EQ(rot, rot.transpose());
    const Vec3 w = so3::log(rot);
    EXPECT_REL_NEAR(w.norm(), kPi, 4 * kEps);
    EXPECT_EIGEN_NEAR(w.cross(n), Vec3::Zero(), 16 * kEps);
    EXPECT_EIGEN_NEAR(so3::exp(w), rot, 16 * kEps);
    EXPECT_EIGEN_NEAR(expm(skew(w)), rot, 16 * kEps);
    // Convention: the largest component (in magnitude) is positive, unless two tie.
    Eigen::Index k = 0;
    const double largest = w.cwiseAbs().maxCoeff(&k);
    int ties = 0;
    for (int j = 0; j < 3; ++j) ties += std::abs(w(j)) > largest * (1 - 1e-12) ? 1 : 0;
    if (ties == 1) {
      EXPECT_GT(w(k), 0.0) << "log R = " << show(w);
    }
  }
  // Exactly pi from rounded trigonometry: AngleAxis(pi, n) has sin(pi) ~ 1.2e-16 entries.
  for (int i = 0; i < 20; ++i) {
    const Vec3 n = rng.unit3();
    SCOPED_TRACE("AngleAxis(pi), axis = " + show(n));
    const Mat3 rot = Eigen::AngleAxisd(kPi, n).toRotationMatrix();
    const Vec3 w = so3::log(rot);
    EXPECT_REL_NEAR(w.norm(), kPi, 4 * kEps);
    EXPECT_EIGEN_NEAR(so3::exp(w), rot, 16 * kEps);
  }
}

TEST(So3Log, IdentityGivesZero) { EXPECT_EQ(so3::log(Mat3::Identity()), Vec3::Zero()); }

// ---------------------------------------------------------------------------------------------
// left_jacobian

TEST(So3LeftJacobian, IsBlockOfSixBySixExponential) {
  // exp([[U, I], [0, 0]]) = [[exp U, sum_k U^k / (k+1)!], [0, I]] and the upper-right block is
  // the left Jacobian J(u) = int_0^1 exp(s U) ds.
  GEOMINT_SEEDED_RNG(rng, 15);
  for (const Vec3& u : hard_vectors(rng)) {
    SCOPED_TRACE("u = " + show(u) + ", |u| = " + show(u.norm()));
    Eigen::Matrix<double, 6, 6> big = Eigen::Matrix<double, 6, 6>::Zero();
    big.topLeftCorner<3, 3>() = skew(u);
    big.topRightCorner<3, 3>() = Mat3::Identity();
    const Mat3 expected = expm(big).topRightCorner<3, 3>();
    // Entries of J are bounded by 1; as for exp, a few roundings on each side.
    EXPECT_EIGEN_NEAR(so3::left_jacobian(u), expected, 16 * kEps);
  }
}

TEST(So3LeftJacobian, IsTranslationPartOfSe3Exponential) {
  GEOMINT_SEEDED_RNG(rng, 16);
  for (const Vec3& u : hard_vectors(rng)) {
    const Vec3 v = rng.vec3(2.0);
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    Eigen::Matrix4d x = Eigen::Matrix4d::Zero();
    x.topLeftCorner<3, 3>() = skew(u);
    x.topRightCorner<3, 1>() = v;
    const Vec3 expected = expm(x).topRightCorner<3, 1>();
    EXPECT_EIGEN_NEAR(Vec3(so3::left_jacobian(u) * v), expected, 16 * kEps * v.norm());
  }
}

// ---------------------------------------------------------------------------------------------
// cayley

TEST(So3Cayley, MatchesDefinitionWithEigenInverse) {
  GEOMINT_SEEDED_RNG(rng, 17);
  for (double r : {0.0, 1e-8, 1e-3, 0.1, 0.5, 1.0, 2.0, 10.0}) {
    for (int i = 0; i < 5; ++i) {
      const Vec3 f = rng.with_norm(r);
      SCOPED_TRACE("f = " + show(f));
      const Mat3 F = skew(f);
      const Mat3 expected = (Mat3::Identity() + F) * (Mat3::Identity() - F).inverse();
      // The singular values of I - F are 1 and sqrt(1 + |f|^2): the inverse (cofactors over the
      // determinant 1 + |f|^2) and the product with I + F lose a factor ~(1 + |f|) at most.
      EXPECT_EIGEN_NEAR(so3::cayley(f), expected, 8 * kEps * (1.0 + r));
    }
  }
}

TEST(So3Cayley, IsRotationByTwiceArctanAboutF) {
  GEOMINT_SEEDED_RNG(rng, 18);
  for (double r : {1e-8, 1e-3, 0.1, 1.0, 10.0, 1e3, 1e8}) {
    const Vec3 f = rng.with_norm(r);
    SCOPED_TRACE("f = " + show(f));
    const Mat3 expected = Eigen::AngleAxisd(2.0 * std::atan(r), f / r).toRotationMatrix();
    const Mat3 got = so3::cayley(f);
    // (1 - |f|^2) / (1 + |f|^2) etc.: a few roundings of entries bounded by 1 (for |f| = 1e8
    // the f f^T / (1 + f.f) entries are formed from 1e16-sized numbers, still relative).
    EXPECT_EIGEN_NEAR(got, expected, 8 * kEps);
    EXPECT_EIGEN_NEAR(Mat3(got.transpose() * got), Mat3::Identity(), 8 * kEps);
    EXPECT_NEAR(got.determinant(), 1.0, 8 * kEps);
  }
  EXPECT_EQ(so3::cayley(Vec3::Zero()), Mat3::Identity());
}

// ---------------------------------------------------------------------------------------------
// dexp and dexpinv

TEST(So3Dexp, MatchesFiniteDifferencesOfEigenExp) {
  // d/de exp(u + e v) exp(u)^T at e = 0, by Richardson-extrapolated central differences of
  // Eigen's matrix exponential (support/finite_difference.hpp: error ~3e-13 for unit v).
  GEOMINT_SEEDED_RNG(rng, 19);
  for (const Vec3& u : hard_vectors(rng)) {
    const Vec3 v = rng.unit3();
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    EXPECT_EIGEN_NEAR(so3::dexp(u, v), geomint::testing::dexp_so3_fd(u, v), kRichardsonTol);
  }
}

TEST(So3Dexp, MatchesPowerSeries) {
  // dexp_u = sum_k ad_u^k / (k+1)!, summed to 60 terms (the tail is below 1e-30 for |u| <= 6).
  GEOMINT_SEEDED_RNG(rng, 20);
  for (const Vec3& u : hard_vectors(rng)) {
    const Vec3 v = rng.unit3();
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    Vec3 sum = Vec3::Zero(), term = v;
    double fact = 1.0;  // (k+1)!
    for (int k = 0; k < 60; ++k) {
      fact *= k + 1;
      sum += term / fact;
      term = u.cross(term);
    }
    // The largest series term is |u|^k / (k+1)! <= 6^5/6! ~ 11 at |u| = 6: roundoff ~ 11 * eps
    // in the sum; the closed form has a few roundings of terms up to 1 + |u| b + |u|^2 c ~ 3.
    const double largest = std::max(1.0, std::pow(u.norm(), 5) / 720.0);
    EXPECT_EIGEN_NEAR(so3::dexp(u, v), sum, 8 * kEps * largest);
  }
}

TEST(So3Dexpinv, InvertsFiniteDifferenceDexp) {
  GEOMINT_SEEDED_RNG(rng, 21);
  for (const Vec3& u : hard_vectors(rng)) {
    const Vec3 v = rng.unit3();
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    const Vec3 w = geomint::testing::dexp_so3_fd(u, v);
    // The finite-difference error (< kRichardsonTol) is amplified by at most ||dexpinv_u||.
    EXPECT_EIGEN_NEAR(so3::dexpinv(u, w), v, dexpinv_norm(u.norm()) * kRichardsonTol);
  }
}

TEST(So3Dexpinv, IsTwoSidedInverseOfDexp) {
  GEOMINT_SEEDED_RNG(rng, 22);
  for (const Vec3& u : hard_vectors(rng)) {
    const Vec3 v = rng.unit3();
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    const double k = dexpinv_norm(u.norm());
    // dexpinv sums terms of size up to |u|^2 g2(|u|) ~ k, and amplifies the roundoff in
    // dexp's result by at most k; dexp has norm <= 1: errors ~ a few eps * k either way.
    EXPECT_EIGEN_NEAR(so3::dexpinv(u, so3::dexp(u, v)), v, 16 * kEps * k);
    EXPECT_EIGEN_NEAR(so3::dexp(u, so3::dexpinv(u, v)), v, 16 * kEps * k);
  }
}

TEST(So3Dexpinv, ActsAsIdentityAlongU) {
  // ad_u u = 0, so dexp_u(u) = dexpinv_u(u) = u (the flow of exp(t u) has derivative u).
  GEOMINT_SEEDED_RNG(rng, 23);
  for (const Vec3& u : hard_vectors(rng)) {
    SCOPED_TRACE("u = " + show(u));
    EXPECT_EIGEN_NEAR(so3::dexpinv(u, u), u, 8 * kEps * (1 + u.squaredNorm()) * u.norm());
    EXPECT_EIGEN_NEAR(so3::dexp(u, u), u, 8 * kEps * (1 + u.squaredNorm()) * u.norm());
  }
}

// ---------------------------------------------------------------------------------------------
// dexpinv_series

/// The power p of the leading omitted term after truncation at ad^k:
/// p = k + 1, or k + 2 when B_{k+1} = 0 (odd k + 1 >= 3).
int leading_omitted_power(int k) { return (k + 1 >= 3 && (k + 1) % 2 == 1) ? k + 2 : k + 1; }
/// c_j = B_j / j!.
double bernoulli_over_factorial(int j) {
  // Bernoulli numbers B_0 .. B_14 (B_1 = -1/2), as rationals from the literature.
  static const double num[] = {1, -1, 1, 0, -1, 0, 1, 0, -1, 0, 5, 0, -691, 0, 7};
  static const double den[] = {1, 2, 6, 1, 30, 1, 42, 1, 30, 1, 66, 1, 2730, 1, 6};
  double fact = 1.0;
  for (int i = 2; i <= j; ++i) fact *= i;
  return num[j] / den[j] / fact;
}

TEST(So3DexpinvSeries, ConvergesWithExpectedOrder) {
  // With v orthogonal to u, ad_u^j v has norm |u|^j, and the series truncated after ad_u^k
  // differs from the exact dexpinv by c_p ad_u^p v + c_{p+2} ad_u^{p+2} v + ..., c_j = B_j/j!,
  // p = leading_omitted_power(k). Halving |u| divides the error by 2^p up to a relative
  // correction ~ (|u| / 2 pi)^2 from the next term.
  GEOMINT_SEEDED_RNG(rng, 24);
  const Vec3 n = rng.unit3();
  const Vec3 v = rng.orthogonal_unit(n);
  SCOPED_TRACE("direction of u = " + show(n) + ", v = " + show(v));
  for (int k = 0; k <= 12; ++k) {
    const int p = leading_omitted_power(k);
    const double cp = std::abs(bernoulli_over_factorial(p));
    // Start where the leading error is 1e-4 (but |u| <= 1.6) and halve while it stays above
    // 1e-13: roundoff in exact - series is ~4e-16, so the measured error is good to 4e-3.
    double r = std::min(1.6, std::pow(1e-4 / cp, 1.0 / p));
    double prev_err = -1.0;
    int halvings = 0;
    for (; cp * std::pow(r, p) > 1e-13; r *= 0.5) {
      const Vec3 u = r * n;
      SCOPED_TRACE("k = " + std::to_string(k) + ", p = " + std::to_string(p) +
                   ", |u| = " + show(r));
      const double err = (so3::dexpinv_series(u, v, k) - so3::dexpinv(u, v)).norm();
      // With ad_u^2 v = -|u|^2 v the omitted even terms all have the sign of the leading one,
      // and c_{j+2} / c_j -> -1 / (2 pi)^2 (from below in magnitude), so their sum relative to
      // the leading term is at most ~ q / (1 - q), q = (|u| / 2 pi)^2 (<= 0.07 at |u| = 1.6);
      // 20% margin. For p = 1 the next term is c_2 |u|^2, r / 6 of the leading one. Plus the
      // 4e-3 roundoff.
      const double q = r * r / (4 * kPi * kPi);
      const double tail = 1.2 * q / (1 - q) + (p == 1 ? r / 6 : 0.0);
      EXPECT_NEAR(err / (cp * std::pow(r, p)), 1.0, tail + 4e-3);
      if (prev_err > 0) {
        // The slope over [r, 2r] is p + log2 of the ratio of the tails at 2r and r.
        EXPECT_NEAR(std::log2(prev_err / err), p, std::log2(1 + 4 * tail) + 0.01);
        ++halvings;
      }
      prev_err = err;
    }
    EXPECT_GE(halvings, 1) << "k = " << k;
  }
}

TEST(So3DexpinvSeries, TwelveTermsMatchExactForSmallU) {
  // The omitted terms start at B_14/14! |u|^14 < 1.4e-11 * 0.2^14 ~ 2e-21.
  GEOMINT_SEEDED_RNG(rng, 25);
  for (double r : {0.0, 1e-8, 1e-3, 0.01, 0.1, 0.2}) {
    const Vec3 u = rng.with_norm(r), v = rng.unit3();
    SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
    EXPECT_EIGEN_NEAR(so3::dexpinv_series(u, v, 12), so3::dexpinv(u, v), 4 * kEps);
  }
}

TEST(So3DexpinvSeries, LowOrdersAreTheWrittenOutSums) {
  // (8): v - [u,v]/2 + [u,[u,v]]/12 - [u,[u,[u,[u,v]]]]/720, brackets as cross products.
  GEOMINT_SEEDED_RNG(rng, 26);
  const Vec3 u = rng.vec3(), v = rng.vec3();
  SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
  const Vec3 a1 = u.cross(v), a2 = u.cross(a1), a3 = u.cross(a2), a4 = u.cross(a3);
  EXPECT_EQ(so3::dexpinv_series(u, v, 0), v);
  EXPECT_EQ(so3::dexpinv_series(u, v, -1), v);
  EXPECT_EIGEN_NEAR(so3::dexpinv_series(u, v, 1), Vec3(v - a1 / 2), 4 * kEps);
  EXPECT_EIGEN_NEAR(so3::dexpinv_series(u, v, 2), Vec3(v - a1 / 2 + a2 / 12), 4 * kEps);
  EXPECT_EIGEN_NEAR(so3::dexpinv_series(u, v, 3), Vec3(v - a1 / 2 + a2 / 12), 4 * kEps);
  EXPECT_EIGEN_NEAR(so3::dexpinv_series(u, v, 4), Vec3(v - a1 / 2 + a2 / 12 - a4 / 720), 4 * kEps);
}

}  // namespace
