// Unit tests of geometry/se3.hpp against independent references: 4x4 homogeneous matrices
// built here (support/matrix_lie.hpp), Eigen's matrix exponential and inverse, iterated matrix
// commutators, and finite differences of Eigen's exponential for dexp.
//
// kEps = 2^-52. Group elements have |r| <= 2 and algebra elements are of order one unless said
// otherwise, so products and sums carry roundoff of a few kEps times (1 + |r|)^2.

#include "geometry/se3.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/matrix_lie.hpp"
#include "support/random.hpp"

namespace {

namespace se3 = geomint::se3;
using geomint::testing::dexp_se3_fd;
using geomint::testing::dexp_se3_fd_matrix;
using geomint::testing::expm;
using geomint::testing::hat4;
using geomint::testing::homogeneous;
using geomint::testing::kRichardsonTol;
using geomint::testing::Mat3;
using geomint::testing::Mat4;
using geomint::testing::Mat6;
using geomint::testing::Rng;
using geomint::testing::show;
using geomint::testing::Vec3;
using geomint::testing::Vec6;
using geomint::testing::vee4;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kPi = std::numbers::pi;

se3::Element random_element(Rng& rng, double translation_scale = 2.0) {
  se3::Element g;
  g.rotation = rng.rotation();  // from a quaternion, not from so3::exp
  g.translation = rng.vec3(translation_scale);
  return g;
}
Mat4 matrix_of(const se3::Element& g) { return homogeneous(g.rotation, g.translation); }
std::string show(const se3::Element& g) {
  return "R =\n" + show(g.rotation) + "\nr = " + show(g.translation);
}
Vec6 make(const Vec3& u, const Vec3& v) {
  Vec6 xi;
  xi << u, v;
  return xi;
}
/// The 6x6 matrix of a linear map on R^6 from its values on the basis.
template <class F>
Mat6 matrix_of_map(const F& f) {
  Mat6 m;
  for (int i = 0; i < 6; ++i) m.col(i) = f(Vec6::Unit(i));
  return m;
}
/// ad_x^k y by iterated 4x4 matrix commutators.
Vec6 ad_power(const Vec6& x, const Vec6& y, int k) {
  const Mat4 xm = hat4(x);
  Mat4 m = hat4(y);
  for (int i = 0; i < k; ++i) m = Mat4(xm * m - m * xm);
  return vee4(m);
}

/// Norms of the rotational part A of x = (A, a) at which dexpinv is checked: zero, tiny, both
/// sides of the switch of dexpinv_g2 / g2~ at |A| = 2 and of RodriguesCoefficients, near pi,
/// and up to 6 (dexpinv is singular at 2 pi).
const std::vector<double> kRotationNorms = {0.0,
                                            1e-12,
                                            1e-8,
                                            std::nextafter(1e-4, 0.0),
                                            std::nextafter(1e-4, 1.0),
                                            1e-3,
                                            0.1,
                                            std::nextafter(1.0, 0.0),
                                            1.0,
                                            1.9,
                                            std::nextafter(2.0, 0.0),
                                            2.0,
                                            std::nextafter(2.0, 3.0),
                                            2.1,
                                            kPi - 1e-6,
                                            kPi,
                                            4.0,
                                            5.0,
                                            6.0};

/// x = (A, a) with |A| from kRotationNorms and a of norm ~1 along A (screw, rho = |A||a|),
/// orthogonal to A (rho = 0), random, and zero; plus pure translations.
std::vector<Vec6> hard_algebra_elements(Rng& rng) {
  std::vector<Vec6> xs;
  for (double r : kRotationNorms) {
    const Vec3 n = rng.unit3();
    xs.push_back(make(r * n, 0.8 * n));
    xs.push_back(make(r * n, rng.orthogonal_unit(n)));
    xs.push_back(make(r * n, rng.vec3()));
    xs.push_back(make(r * n, Vec3::Zero()));
  }
  xs.push_back(make(Vec3::Zero(), rng.vec3()));
  return xs;
}

// ---------------------------------------------------------------------------------------------
// Element

TEST(Se3Element, MatrixIsHomogeneousForm) {
  GEOMINT_SEEDED_RNG(rng, 201);
  const se3::Element g = random_element(rng);
  EXPECT_EQ(g.matrix(), matrix_of(g));
  EXPECT_EQ(se3::Element::identity().matrix(), Mat4::Identity());
}

TEST(Se3Element, ProductIsMatrixProduct) {
  GEOMINT_SEEDED_RNG(rng, 202);
  for (int i = 0; i < 50; ++i) {
    const se3::Element a = random_element(rng), b = random_element(rng);
    SCOPED_TRACE("a: " + show(a) + "\nb: " + show(b));
    // Each entry is a 3- or 4-term dot product of entries bounded by 1 + |r| <= 3.
    EXPECT_EIGEN_NEAR((a * b).matrix(), Mat4(matrix_of(a) * matrix_of(b)), 16 * kEps);
  }
}

TEST(Se3Element, ProductIsAssociativeWithIdentity) {
  GEOMINT_SEEDED_RNG(rng, 203);
  for (int i = 0; i < 50; ++i) {
    const se3::Element a = random_element(rng), b = random_element(rng), c = random_element(rng);
    SCOPED_TRACE("a: " + show(a) + "\nb: " + show(b) + "\nc: " + show(c));
    // Two products of entries bounded by 3, in two orders: a few dozen kEps.
    EXPECT_EIGEN_NEAR(((a * b) * c).matrix(), (a * (b * c)).matrix(), 32 * kEps);
    EXPECT_EQ((a * se3::Element::identity()).matrix(), a.matrix());
    EXPECT_EQ((se3::Element::identity() * a).matrix(), a.matrix());
  }
}

TEST(Se3Element, InverseIsMatrixInverse) {
  GEOMINT_SEEDED_RNG(rng, 204);
  for (int i = 0; i < 50; ++i) {
    const se3::Element g = random_element(rng);
    SCOPED_TRACE(show(g));
    // Eigen's LU inverse of a matrix with condition number <= (1 + |r|)^2 ~ 20; the
    // translation entries r - R R^T r carry a few roundings of |r|.
    const double scale = 1.0 + g.translation.norm();
    EXPECT_EIGEN_NEAR(g.inverse().matrix(), Mat4(matrix_of(g).inverse()), 16 * kEps * scale);
    EXPECT_EIGEN_NEAR((g * g.inverse()).matrix(), Mat4::Identity(), 16 * kEps * scale);
    EXPECT_EIGEN_NEAR((g.inverse() * g).matrix(), Mat4::Identity(), 16 * kEps * scale);
  }
}

// ---------------------------------------------------------------------------------------------
// hat, exp

TEST(Se3Hat, IsFourByFourMatrixOfTwist) {
  GEOMINT_SEEDED_RNG(rng, 205);
  const Vec3 u = rng.vec3(), v = rng.vec3();
  SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
  const Vec6 xi = se3::make(u, v);
  EXPECT_EQ(xi.head<3>(), u);
  EXPECT_EQ(xi.tail<3>(), v);
  EXPECT_EQ(se3::hat(xi), hat4(xi));
}

TEST(Se3Exp, MatchesEigenMatrixExponential) {
  GEOMINT_SEEDED_RNG(rng, 206);
  std::vector<Vec6> xs = hard_algebra_elements(rng);
  for (int i = 0; i < 30; ++i) xs.push_back(rng.vec6(2.0));
  for (const Vec6& x : xs) {
    SCOPED_TRACE("x = " + show(x) + ", |A| = " + show(x.head<3>().norm()));
    // Entries bounded by 1 + |J(A) a| <= 1 + |a|; a few roundings on both sides (Eigen's Pade
    // with at most two squarings here).
    const double scale = 1.0 + x.tail<3>().norm();
    EXPECT_EIGEN_NEAR(se3::exp(x).matrix(), Mat4(expm(hat4(x))), 16 * kEps * scale);
  }
}

TEST(Se3Exp, PureTranslationAndPureRotation) {
  GEOMINT_SEEDED_RNG(rng, 207);
  const Vec3 v = rng.vec3(), n = rng.unit3();
  SCOPED_TRACE("v = " + show(v) + ", n = " + show(n));
  const se3::Element t = se3::exp(make(Vec3::Zero(), v));
  EXPECT_EQ(t.rotation, Mat3::Identity());
  EXPECT_EQ(t.translation, v);
  const se3::Element r = se3::exp(make(2.0 * n, Vec3::Zero()));
  EXPECT_EIGEN_NEAR(r.rotation, Mat3(Eigen::AngleAxisd(2.0, n).toRotationMatrix()), 8 * kEps);
  EXPECT_EQ(r.translation, Vec3::Zero());
}

// ---------------------------------------------------------------------------------------------
// bracket, ad, Ad, Ad_star

TEST(Se3Bracket, IsMatrixCommutator) {
  GEOMINT_SEEDED_RNG(rng, 208);
  for (int i = 0; i < 50; ++i) {
    const Vec6 x = rng.vec6(2.0), y = rng.vec6(2.0), z = rng.vec6(2.0);
    SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
    const Vec6 expected = vee4(Mat4(hat4(x) * hat4(y) - hat4(y) * hat4(x)));
    // Sums of two or three products of entries bounded by 2: a few roundings of numbers <= 8.
    EXPECT_EIGEN_NEAR(se3::bracket(x, y), expected, 8 * kEps);
    EXPECT_EQ(se3::ad(x, y), se3::bracket(x, y));
    // Jacobi identity (entries of the double brackets bounded by ~50, rounded a few times).
    const Vec6 jacobi = se3::bracket(x, se3::bracket(y, z)) + se3::bracket(y, se3::bracket(z, x)) +
                        se3::bracket(z, se3::bracket(x, y));
    EXPECT_EIGEN_NEAR(jacobi, Vec6::Zero(), 64 * kEps);
  }
}

TEST(Se3Ad, IsConjugationByHomogeneousMatrix) {
  GEOMINT_SEEDED_RNG(rng, 209);
  for (int i = 0; i < 50; ++i) {
    const se3::Element g = random_element(rng);
    const Vec6 xi = rng.vec6();
    SCOPED_TRACE(show(g) + "\nxi = " + show(xi));
    const Mat4 gm = matrix_of(g);
    const Vec6 expected = vee4(Mat4(gm * hat4(xi) * gm.inverse()));
    // Entries ~ |r| |u| + |v| <= 8; Eigen's inverse and two products, a few roundings of each
    // entry (~18 eps seen in seed sweeps, 32 allowed).
    EXPECT_EIGEN_NEAR(se3::Ad(g, xi), expected, 32 * kEps);
  }
}

TEST(Se3Ad, IsHomomorphismAndIntertwinesExp) {
  GEOMINT_SEEDED_RNG(rng, 210);
  for (int i = 0; i < 30; ++i) {
    const se3::Element a = random_element(rng), b = random_element(rng);
    const Vec6 xi = rng.vec6();
    SCOPED_TRACE("a: " + show(a) + "\nb: " + show(b) + "\nxi = " + show(xi));
    // Entries <= ~10 after two applications, a few roundings each (~20 eps seen, 32 allowed).
    EXPECT_EIGEN_NEAR(se3::Ad(a * b, xi), se3::Ad(a, se3::Ad(b, xi)), 32 * kEps);
    // exp(Ad_g xi) = g exp(xi) g^{-1}, with Eigen's exponential and inverse.
    const Mat4 gm = matrix_of(a);
    EXPECT_EIGEN_NEAR(Mat4(expm(hat4(se3::Ad(a, xi)))), Mat4(gm * expm(hat4(xi)) * gm.inverse()),
                      32 * kEps);
  }
}

TEST(Se3AdStar, IsDualOfAdOfInverse) {
  // <Ad*_g mu, xi> = <mu, Ad_{g^-1} xi> for all mu, xi, i.e. the matrix of Ad*_g is the
  // transpose of that of Ad_{g^-1}; the latter from conjugation of 4x4 matrices by G^-1.
  GEOMINT_SEEDED_RNG(rng, 211);
  for (int i = 0; i < 30; ++i) {
    const se3::Element g = random_element(rng);
    SCOPED_TRACE(show(g));
    const Mat4 gm = matrix_of(g), gi = gm.inverse();
    const Mat6 ad_inv = matrix_of_map([&](const Vec6& e) { return vee4(Mat4(gi * hat4(e) * gm)); });
    const Mat6 ad_star = matrix_of_map([&](const Vec6& e) { return se3::Ad_star(g, e); });
    EXPECT_EIGEN_NEAR(ad_star, Mat6(ad_inv.transpose()), 64 * kEps);
    const Vec6 mu = rng.vec6(), xi = rng.vec6();
    SCOPED_TRACE("mu = " + show(mu) + ", xi = " + show(xi));
    // A dot product's rounding is bounded by a few eps times sum_i |a_i b_i| <= |a| |b|.
    const Vec6 lhs = se3::Ad_star(g, mu), rhs = ad_inv * xi;
    EXPECT_NEAR(lhs.dot(xi), mu.dot(rhs),
                16 * kEps * (lhs.norm() * xi.norm() + mu.norm() * rhs.norm()));
  }
}

TEST(Se3AdStar, IsLeftActionAndPreservesPairingWithAd) {
  GEOMINT_SEEDED_RNG(rng, 212);
  for (int i = 0; i < 30; ++i) {
    const se3::Element a = random_element(rng), b = random_element(rng);
    const Vec6 mu = rng.vec6(), xi = rng.vec6();
    SCOPED_TRACE("a: " + show(a) + "\nb: " + show(b) + "\nmu = " + show(mu));
    // Ad*_{ab} = Ad*_a Ad*_b for Ad*_g = Ad_{g^-1}^T.
    // Entries <= ~10 after two applications, a few roundings each.
    EXPECT_EIGEN_NEAR(se3::Ad_star(a * b, mu), se3::Ad_star(a, se3::Ad_star(b, mu)), 32 * kEps);
    // <Ad*_g mu, Ad_g xi> = <mu, xi>. The factors have entries ~ (1 + |r|) |mu| and may cancel
    // in the dot product: the rounding is a few eps times |Ad*_g mu| |Ad_g xi|.
    const Vec6 lhs = se3::Ad_star(a, mu), rhs = se3::Ad(a, xi);
    EXPECT_NEAR(lhs.dot(rhs), mu.dot(xi), 16 * kEps * lhs.norm() * rhs.norm());
  }
}

// ---------------------------------------------------------------------------------------------
// apply_ad_function (the closed form of Celledoni Section 2.3 for phi(ad_x) y)

TEST(Se3ApplyAdFunction, PowersOfZMatchIteratedCommutators) {
  // phi(z) = z^k has phi(0) = 0 for k >= 1 and, with alpha = |A|:
  //   z^0: phi0 = 1;  z^1: g1 = 1;  z^2: g2 = 1;
  //   z^3: phi_-(alpha) = -alpha^3, g1 = -alpha^2, g1~ = -2;
  //   z^4: phi_+(alpha) = alpha^4,  g2 = -alpha^2, g2~ = -2.
  // Each power exercises one coefficient of the formula, including the rho terms.
  GEOMINT_SEEDED_RNG(rng, 213);
  for (int i = 0; i < 30; ++i) {
    const Vec6 x = rng.vec6(1.5), y = rng.vec6();
    SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
    const double a2 = x.head<3>().squaredNorm();
    const se3::AdFunctionCoefficients coefficients[] = {
        {1, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {0, 0, 0, 1, 0}, {0, -a2, -2, 0, 0}, {0, 0, 0, -a2, -2}};
    for (int k = 0; k <= 4; ++k) {
      SCOPED_TRACE("phi(z) = z^" + std::to_string(k));
      const Vec6 expected = ad_power(x, y, k);
      // Both sides sum up to ~10 terms of size |x|^k |y| (|x| <= 2.6): roundoff relative to
      // that scale, not to the (possibly cancelling) result.
      const double scale = std::pow(x.norm(), k) * y.norm();
      EXPECT_EIGEN_NEAR(se3::apply_ad_function(coefficients[k], x, y), expected, 16 * kEps * scale);
    }
  }
}

/// Coefficients of phi(z) = e^z (in long double, to keep the cancelling numerators accurate).
se3::AdFunctionCoefficients exp_coefficients(double alpha_in) {
  const long double a = alpha_in, s = std::sin(a), c = std::cos(a);
  return {1.0, static_cast<double>(s / a), static_cast<double>((a * c - s) / (a * a * a)),
          static_cast<double>((1 - c) / (a * a)),
          static_cast<double>((a * s - 2 * (1 - c)) / (a * a * a * a))};
}
/// Coefficients of phi(z) = (e^z - 1) / z (dexp): phi_+ = sin(a)/a, phi_- = (1 - cos a)/a.
se3::AdFunctionCoefficients dexp_coefficients(double alpha_in) {
  const long double a = alpha_in, s = std::sin(a), c = std::cos(a);
  const long double g1 = (1 - c) / (a * a), g2 = (a - s) / (a * a * a);
  const long double g1p = (a * s - 2 * (1 - c)) / (a * a * a);
  const long double g2p = ((1 - c) * a - 3 * (a - s)) / (a * a * a * a);
  return {1.0, static_cast<double>(g1), static_cast<double>(g1p / a), static_cast<double>(g2),
          static_cast<double>(g2p / a)};
}

TEST(Se3ApplyAdFunction, ExponentialGivesAdjointOfExp) {
  // exp(ad_x) y = Ad_{exp x} y = vee(exp(X) Y exp(-X)) with Eigen's exponential.
  GEOMINT_SEEDED_RNG(rng, 214);
  for (double alpha : {0.3, 1.0, 2.0, 3.0, kPi, 5.0}) {
    for (int i = 0; i < 5; ++i) {
      const Vec6 x = make(rng.with_norm(alpha), rng.vec3()), y = rng.vec6();
      SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
      const Vec6 expected = vee4(Mat4(expm(hat4(x)) * hat4(y) * expm(Mat4(-hat4(x)))));
      // The long-double coefficients are accurate to ~1e-17; the terms rho g2~ A x (A x B) etc.
      // have size up to ~(1 + |x|^2) |y|; Eigen's exponentials carry a few eps.
      EXPECT_EIGEN_NEAR(se3::apply_ad_function(exp_coefficients(alpha), x, y), expected,
                        64 * kEps * (1 + x.squaredNorm()) * y.norm());
    }
  }
}

TEST(Se3ApplyAdFunction, DexpCoefficientsMatchFiniteDifferences) {
  GEOMINT_SEEDED_RNG(rng, 215);
  for (double alpha : {0.3, 1.0, 2.0, 3.0, kPi, 5.0, 6.0}) {
    for (int i = 0; i < 5; ++i) {
      const Vec6 x = make(rng.with_norm(alpha), rng.vec3()), y = rng.vec6();
      SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
      EXPECT_EIGEN_NEAR(se3::apply_ad_function(dexp_coefficients(alpha), x, y), dexp_se3_fd(x, y),
                        kRichardsonTol);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// dexpinv (exact, Celledoni Section 2.3)

TEST(Se3Dexpinv, InvertsFiniteDifferenceDexp) {
  // w = dexp_x(y) by Richardson differences of Eigen's exponential (error < kRichardsonTol for
  // |x|, |y| of order one); dexpinv_x(w) must return y up to that error times ||dexpinv_x||,
  // which is estimated as ||M^-1||_2 for the finite-difference matrix M of dexp_x (SVD).
  GEOMINT_SEEDED_RNG(rng, 216);
  for (const Vec6& x : hard_algebra_elements(rng)) {
    const Mat6 m = dexp_se3_fd_matrix(x);
    const double inv_norm = 1.0 / Eigen::JacobiSVD<Mat6>(m).singularValues()(5);
    for (int i = 0; i < 3; ++i) {
      const Vec6 y = rng.vec6();
      SCOPED_TRACE("x = " + show(x) + ", |A| = " + show(x.head<3>().norm()) + ", y = " + show(y) +
                   ", ||dexpinv_x|| ~ " + show(inv_norm));
      const Vec6 w = dexp_se3_fd(x, y);
      EXPECT_EIGEN_NEAR(se3::dexpinv(x, w), y, inv_norm * kRichardsonTol);
    }
  }
}

TEST(Se3Dexpinv, MatrixIsInverseOfFiniteDifferenceDexpMatrix) {
  // The whole linear map at once: [dexpinv_x(e_i)] = M^-1 with M from finite differences.
  GEOMINT_SEEDED_RNG(rng, 217);
  for (const Vec6& x : hard_algebra_elements(rng)) {
    SCOPED_TRACE("x = " + show(x) + ", |A| = " + show(x.head<3>().norm()));
    const Mat6 m = dexp_se3_fd_matrix(x);
    const Mat6 m_inv = m.inverse();
    const double inv_norm = 1.0 / Eigen::JacobiSVD<Mat6>(m).singularValues()(5);
    const Mat6 got = matrix_of_map([&](const Vec6& e) { return se3::dexpinv(x, e); });
    // delta(M^-1) ~ ||M^-1||^2 delta(M), delta(M) < sqrt(6) kRichardsonTol.
    EXPECT_EIGEN_NEAR(got, m_inv, 3 * inv_norm * inv_norm * kRichardsonTol);
  }
}

TEST(Se3Dexpinv, InvertsClosedFormDexp) {
  // dexp_x by the Section 2.3 formula with the phi = (e^z - 1)/z coefficients (checked against
  // finite differences above), to roundoff level.
  GEOMINT_SEEDED_RNG(rng, 218);
  for (double alpha : {0.3, 1.0, 1.9, 2.1, 3.0, kPi, 5.0, 6.0}) {
    for (int i = 0; i < 5; ++i) {
      const Vec6 x = make(rng.with_norm(alpha), rng.vec3()), y = rng.vec6();
      SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
      const Vec6 w = se3::apply_ad_function(dexp_coefficients(alpha), x, y);
      // Roundoff ~ a few eps times the size of the terms (<= ~30 |y|) times ||dexpinv|| (<= ~100
      // at |A| = 6 with |a| ~ 1).
      EXPECT_EIGEN_NEAR(se3::dexpinv(x, w), y, 1e-13);
    }
  }
}

TEST(Se3Dexpinv, IdentityAtZeroAndPureTranslation) {
  GEOMINT_SEEDED_RNG(rng, 219);
  const Vec6 y = rng.vec6();
  EXPECT_EQ(se3::dexpinv(Vec6::Zero(), y), y);
  // x = (0, a): ad_x y = (0, a x B) and ad_x^2 = 0, so the series stops: y - (0, a x B) / 2.
  const Vec3 a = rng.vec3();
  SCOPED_TRACE("y = " + show(y) + ", a = " + show(a));
  const Vec6 expected = make(y.head<3>(), y.tail<3>() - 0.5 * a.cross(Vec3(y.head<3>())));
  EXPECT_EIGEN_NEAR(se3::dexpinv(make(Vec3::Zero(), a), y), expected, 4 * kEps);
}

TEST(Se3Dexpinv, MatchesTwelveTermSeriesForSmallX) {
  // For |ad_x| <= 2 |x| <= 0.4 the terms after ad^12 are below 1.3e-11 * 0.4^14 ~ 4e-17.
  GEOMINT_SEEDED_RNG(rng, 220);
  for (double r : {1e-8, 1e-4, 1e-3, 0.01, 0.1, 0.2}) {
    for (int i = 0; i < 5; ++i) {
      const Vec6 x = r * rng.vec6().normalized(), y = rng.vec6();
      SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
      EXPECT_EIGEN_NEAR(se3::dexpinv(x, y), se3::dexpinv_series(x, y, 12), 8 * kEps);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// dexpinv_series

/// B_j / j! for j = 0..16 from the Bernoulli numbers (B_1 = -1/2).
double bernoulli_over_factorial(int j) {
  static const double num[] = {1, -1, 1, 0, -1, 0, 1, 0, -1, 0, 5, 0, -691, 0, 7, 0, -3617};
  static const double den[] = {1, 2, 6, 1, 30, 1, 42, 1, 30, 1, 66, 1, 2730, 1, 6, 1, 510};
  double fact = 1.0;
  for (int i = 2; i <= j; ++i) fact *= i;
  return num[j] / den[j] / fact;
}
int leading_omitted_power(int k) { return (k + 1 >= 3 && (k + 1) % 2 == 1) ? k + 2 : k + 1; }

TEST(Se3DexpinvSeries, LowOrdersAreIteratedCommutators) {
  GEOMINT_SEEDED_RNG(rng, 221);
  const Vec6 x = rng.vec6(), y = rng.vec6();
  SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
  const Vec6 a1 = ad_power(x, y, 1), a2 = ad_power(x, y, 2), a4 = ad_power(x, y, 4);
  EXPECT_EQ(se3::dexpinv_series(x, y, 0), y);
  EXPECT_EIGEN_NEAR(se3::dexpinv_series(x, y, 1), Vec6(y - a1 / 2), 16 * kEps);
  EXPECT_EIGEN_NEAR(se3::dexpinv_series(x, y, 3), Vec6(y - a1 / 2 + a2 / 12), 64 * kEps);
  EXPECT_EIGEN_NEAR(se3::dexpinv_series(x, y, 4), Vec6(y - a1 / 2 + a2 / 12 - a4 / 720), 64 * kEps);
}

TEST(Se3DexpinvSeries, ConvergesWithExpectedOrder) {
  // Truncating after ad^k leaves c_p ad_x^p y + c_q ad_x^q y + ..., p as for so(3), q the next
  // power with B_q != 0. Scaling x by r scales the leading omitted term by r^p. The error must
  // match the leading term (computed with 4x4 commutators) up to the next term's relative size
  // t (also computed with commutators; 50% margin for the rest of the tail) plus roundoff, and
  // halving r must divide it by 2^p.
  GEOMINT_SEEDED_RNG(rng, 222);
  const Vec6 xhat = rng.vec6().normalized(), y = rng.vec6();
  const double rot = xhat.head<3>().norm();
  SCOPED_TRACE("direction of x = " + show(xhat) + ", y = " + show(y));
  for (int k = 0; k <= 12; ++k) {
    const int p = leading_omitted_power(k);
    const int q = leading_omitted_power(p);  // the next nonzero term after p
    const double cp = std::abs(bernoulli_over_factorial(p));
    const double lead_at_1 = cp * ad_power(xhat, y, p).norm();
    // Start where the leading error is 1e-4, but with |r A| <= 1.8 so that the series
    // converges fast (the next term is ~ (|r A| / 2 pi)^2 of the leading one).
    double r = std::min(1.8 / rot, std::pow(1e-4 / lead_at_1, 1.0 / p));
    double prev_err = -1.0, prev_t = 0.0, prev_roundoff = 0.0;
    int halvings = 0;
    for (; lead_at_1 * std::pow(r, p) > 1e-13; r *= 0.5) {
      const Vec6 x = r * xhat;
      SCOPED_TRACE("k = " + std::to_string(k) + ", p = " + std::to_string(p) + ", r = " + show(r));
      const Vec6 lead = bernoulli_over_factorial(p) * ad_power(x, y, p);
      const Vec6 next = bernoulli_over_factorial(q) * ad_power(x, y, q);
      const double t = next.norm() / lead.norm();
      const Vec6 exact = se3::dexpinv(x, y), series = se3::dexpinv_series(x, y, k);
      const Vec6 err = exact - series;  // the omitted terms
      // Roundoff in err: a few eps times the largest terms summed, ~ |y| + |[x, y]| / 2.
      const double roundoff = 16 * kEps * (y.norm() + ad_power(x, y, 1).norm()) / lead.norm();
      EXPECT_NEAR((err - lead).norm() / lead.norm(), 0.0, 1.5 * t + roundoff);
      if (prev_err > 0) {
        const double slope_tol =
            std::log2(1 + 2 * (prev_t + t)) + 2 * (prev_roundoff + roundoff) + 0.01;
        EXPECT_NEAR(std::log2(prev_err / err.norm()), p, slope_tol);
        ++halvings;
      }
      prev_err = err.norm();
      prev_t = t;
      prev_roundoff = roundoff;
    }
    EXPECT_GE(halvings, 1) << "k = " << k;
  }
}

}  // namespace
