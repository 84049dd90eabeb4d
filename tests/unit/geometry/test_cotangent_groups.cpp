// Unit tests of geometry/cotangent_so3.hpp and geometry/cotangent_se3.hpp: T*G = G ⋉ g* of
// Celledoni (11) for G = SO(3), SO(3) x R^3 and SE(3), with so3::dexp, se3::dexp and se3::log.
//
// References, all built here without the code under test: group and algebra elements as 3x3,
// 7x7 and 4x4 matrices, Ad by conjugation, ad by commutators, exp by Eigen's Pade exponential,
// dexp by finite differences of it and by long-double power series of ad. For the form (13):
// canonical coordinates (q, p) on T*G, Hamiltonian flows written out in matrix coordinates (the
// heavy top integrated by RK4), and the cotangent lifts of left and right multiplication.
//
// Every check of the form that can tell its sign has a negative control that must fail: the same
// check with "+ <mu, [xi1, xi2]>" in (13), which is (13) at -mu. The lifts of multiplications
// preserve either sign (they preserve <mu, [xi1, xi2]> on its own), so they cannot be controls.
//
// kEps = 2^-52. Group elements have |translation| <= 2 sqrt(3), momenta are of order one.

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <string>
#include <type_traits>
#include <vector>

#include "geometry/cotangent_se3.hpp"
#include "geometry/cotangent_so3.hpp"
#include "geometry/se3.hpp"
#include "geometry/so3.hpp"
#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/matrix_lie.hpp"
#include "support/random.hpp"

namespace {

namespace so3 = geomint::so3;
namespace se3 = geomint::se3;
using geomint::CotangentSE3;
using geomint::CotangentSO3;
using geomint::CotangentSO3xR3;
using geomint::testing::dexp_se3_fd;
using geomint::testing::dexp_so3_fd;
using geomint::testing::expm;
using geomint::testing::hat4;
using geomint::testing::homogeneous;
using geomint::testing::kRichardsonTol;
using geomint::testing::Mat3;
using geomint::testing::Mat4;
using geomint::testing::Mat6;
using geomint::testing::richardson_derivative;
using geomint::testing::Rng;
using geomint::testing::show;
using geomint::testing::skew;
using geomint::testing::unskew;
using geomint::testing::Vec3;
using geomint::testing::Vec6;
using geomint::testing::vee4;
using Mat7 = Eigen::Matrix<double, 7, 7>;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr double kPi = std::numbers::pi;

/// Norms of the rotational part of algebra elements: the hard cases near 0 and pi, both sides of
/// the series switches at 1 and 3, and beyond pi (exp and dexp have no singularity there).
const std::vector<double> kHardNorms = {0.0,   1e-9, 1e-5,  1e-3,       0.5, 1.0,
                                        2.999, 3.0,  3.001, kPi - 1e-6, kPi, 5.0};

// ---------------------------------------------------------------------------------------------
// Matrix representations, and a potential V on each group for the Hamiltonian flow checks with
// its right-trivialised gradient <grad V(g), xi> = d/de V(exp(e xi) g) at e = 0.

template <class C>
struct Rep;

/// SO(3): 3x3 rotations; V(g) = a . (g b).
template <>
struct Rep<CotangentSO3> {
  using Mat = Mat3;
  static Mat group(const Mat3& g) { return g; }
  static Mat hat(const Vec3& xi) { return skew(xi); }
  static Vec3 vee(const Mat& m) { return unskew(m); }
  static Mat3 identity() { return Mat3::Identity(); }
  static Mat3 random_group(Rng& rng) { return rng.rotation(); }
  static Vec3 algebra(Rng& rng, double rotation_norm) { return rng.with_norm(rotation_norm); }
  static double potential(const Mat3& g) { return kA.dot(g * kB); }
  /// a . (xi x g b) = xi . (g b x a).
  static Vec3 potential_gradient(const Mat3& g) { return (g * kB).cross(kA); }
  static inline const Vec3 kA{0.3, -1.1, 0.7}, kB{0.9, 0.4, -0.5};
};

/// SO(3) x R^3: 7x7 block-diagonal matrices diag(R, [[I, x], [0, 1]]); V(R, x) = a . (R x).
template <>
struct Rep<CotangentSO3xR3> {
  using Mat = Mat7;
  using Group = CotangentSO3xR3::Group;
  static Mat group(const Group& g) {
    Mat m = Mat::Identity();
    m.topLeftCorner<3, 3>() = g.rotation;
    m.block<3, 1>(3, 6) = g.translation;
    return m;
  }
  static Mat hat(const Vec6& xi) {
    Mat m = Mat::Zero();
    m.topLeftCorner<3, 3>() = skew(xi.head<3>());
    m.block<3, 1>(3, 6) = xi.tail<3>();
    return m;
  }
  static Vec6 vee(const Mat& m) {
    return se3::make(unskew(m.topLeftCorner<3, 3>()), m.block<3, 1>(3, 6));
  }
  static Group identity() { return {}; }
  static Group random_group(Rng& rng) { return {rng.rotation(), rng.vec3(2.0)}; }
  static Vec6 algebra(Rng& rng, double rotation_norm) {
    return se3::make(rng.with_norm(rotation_norm), rng.vec3());
  }
  static double potential(const Group& g) { return kA.dot(g.rotation * g.translation); }
  /// exp(e u) R (x + e v): a . (u x R x + R v) = u . (R x x a) + v . (R^T a).
  static Vec6 potential_gradient(const Group& g) {
    return se3::make((g.rotation * g.translation).cross(kA), g.rotation.transpose() * kA);
  }
  static inline const Vec3 kA{0.3, -1.1, 0.7};
};

/// SE(3): 4x4 homogeneous matrices; V(g) = a . p + |p|^2 / 2 for the moved point p = R b + r.
template <>
struct Rep<CotangentSE3> {
  using Mat = Mat4;
  static Mat group(const se3::Element& g) { return homogeneous(g.rotation, g.translation); }
  static Mat hat(const Vec6& xi) { return hat4(xi); }
  static Vec6 vee(const Mat& m) { return vee4(m); }
  static se3::Element identity() { return {}; }
  static se3::Element random_group(Rng& rng) { return {rng.rotation(), rng.vec3(2.0)}; }
  static Vec6 algebra(Rng& rng, double rotation_norm) {
    return se3::make(rng.with_norm(rotation_norm), rng.vec3());
  }
  static Vec3 point(const se3::Element& g) { return g.rotation * kB + g.translation; }
  static double potential(const se3::Element& g) {
    const Vec3 p = point(g);
    return kA.dot(p) + 0.5 * p.squaredNorm();
  }
  /// Along (u, v) the point moves by u x p + v: (a + p) . (u x p + v).
  static Vec6 potential_gradient(const se3::Element& g) {
    const Vec3 p = point(g);
    return se3::make(p.cross(kA), kA + p);
  }
  static inline const Vec3 kA{0.3, -1.1, 0.7}, kB{0.9, 0.4, -0.5};
};

template <class C>
using Sq = Eigen::Matrix<double, C::kDim, C::kDim>;
template <class C>
using Vec2d = Eigen::Matrix<double, 2 * C::kDim, 1>;
template <class C>
using Mat2d = Eigen::Matrix<double, 2 * C::kDim, 2 * C::kDim>;

/// The matrix of a linear map on the algebra, column by column.
template <class C, class F>
Sq<C> matrix_of_map(const F& f) {
  Sq<C> m;
  for (int i = 0; i < C::kDim; ++i) m.col(i) = f(C::Algebra::Unit(i));
  return m;
}

/// Ad_G by conjugation, G hat(xi) G^-1, with Eigen's inverse.
template <class C>
Sq<C> ad_group_matrix(const typename Rep<C>::Mat& g) {
  using R = Rep<C>;
  const typename R::Mat gi = g.inverse();
  return matrix_of_map<C>([&](const typename C::Algebra& e) { return R::vee(g * R::hat(e) * gi); });
}

/// ad_xi by matrix commutators.
template <class C>
Sq<C> ad_algebra_matrix(const typename C::Algebra& xi) {
  using R = Rep<C>;
  return matrix_of_map<C>([&](const typename C::Algebra& e) {
    return R::vee(R::hat(xi) * R::hat(e) - R::hat(e) * R::hat(xi));
  });
}

/// exp(hat(xi)) by Eigen's Pade approximation.
template <class C>
typename Rep<C>::Mat matrix_exp(const typename C::Algebra& xi) {
  return expm(typename Rep<C>::Mat(Rep<C>::hat(xi)));
}

/// dexp_xi by Richardson differences of Eigen's exponential: d/de exp(xi + e e_i) exp(-xi).
template <class C>
Sq<C> dexp_fd_matrix(const typename C::Algebra& xi) {
  using M = typename Rep<C>::Mat;
  const M inv = matrix_exp<C>(-xi);
  return matrix_of_map<C>([&](const typename C::Algebra& e) {
    const M d = richardson_derivative([&](double s) { return matrix_exp<C>(xi + s * e); });
    return Rep<C>::vee(d * inv);
  });
}

template <class C>
typename C::Point random_point(Rng& rng) {
  return {Rep<C>::random_group(rng), Rep<C>::algebra(rng, 1.0)};
}

/// The point (g, mu), for failure messages.
template <class C>
std::string show_point(const typename C::Point& p) {
  return "g =\n" + show(Rep<C>::group(p.g)) + "\nmu = " + show(p.mu);
}

template <class C>
class CotangentGroup : public ::testing::Test {};

using Groups = ::testing::Types<CotangentSO3, CotangentSO3xR3, CotangentSE3>;
class GroupNames {
 public:
  template <class C>
  static std::string GetName(int) {
    if (std::is_same_v<C, CotangentSO3>) return "SO3";
    if (std::is_same_v<C, CotangentSO3xR3>) return "SO3xR3";
    return "SE3";
  }
};
TYPED_TEST_SUITE(CotangentGroup, Groups, GroupNames);

// ---------------------------------------------------------------------------------------------
// The product (11)

TYPED_TEST(CotangentGroup, ProductIsSemidirectProductOfMatrices) {
  // (g1, mu1)(g2, mu2) = (g1 g2, mu1 + Ad*_{g1^-1} mu2) with Ad*_h = (Ad_h)^T from conjugation.
  using C = TypeParam;
  using R = Rep<C>;
  using M = typename R::Mat;
  GEOMINT_SEEDED_RNG(rng, 601);
  for (int i = 0; i < 30; ++i) {
    const typename C::Point a = random_point<C>(rng), b = random_point<C>(rng);
    SCOPED_TRACE("a: " + show_point<C>(a) + "\nb: " + show_point<C>(b));
    const typename C::Point ab = C::product(a, b);
    const M ga = R::group(a.g);
    // Sums of products of entries bounded by 1 + |r| <= 4.5: a few dozen kEps.
    EXPECT_EIGEN_NEAR(R::group(ab.g), M(ga * R::group(b.g)), 64 * kEps);
    const typename C::Algebra expected = a.mu + ad_group_matrix<C>(ga.inverse()).transpose() * b.mu;
    // Entries of Ad are <= 1 + |r|, times |mu| <= sqrt(6), with Eigen's inverse: ~64 kEps.
    EXPECT_EIGEN_NEAR(ab.mu, expected, 64 * kEps);
  }
}

TYPED_TEST(CotangentGroup, ProductIsAssociativeWithIdentityAndInverse) {
  using C = TypeParam;
  using R = Rep<C>;
  using M = typename R::Mat;
  GEOMINT_SEEDED_RNG(rng, 602);
  const typename C::Point e{R::identity(), C::Algebra::Zero()};
  for (int i = 0; i < 30; ++i) {
    const typename C::Point a = random_point<C>(rng), b = random_point<C>(rng),
                            c = random_point<C>(rng);
    SCOPED_TRACE("a: " + show_point<C>(a) + "\nb: " + show_point<C>(b));
    const typename C::Point left = C::product(C::product(a, b), c);
    const typename C::Point right = C::product(a, C::product(b, c));
    // Two products in two orders; the momenta pass through two Ad*, each scaling by up to
    // 1 + |r| <= 4.5, so their entries reach ~50 and carry a few roundings of that.
    EXPECT_EIGEN_NEAR(R::group(left.g), R::group(right.g), 64 * kEps);
    EXPECT_EIGEN_NEAR(left.mu, right.mu, 512 * kEps);
    for (const typename C::Point& p : {C::product(a, e), C::product(e, a)}) {
      EXPECT_EQ(R::group(p.g), R::group(a.g));  // products with exact ones and zeros
      EXPECT_EQ(p.mu, a.mu);
    }
    for (const typename C::Point& p :
         {C::product(a, C::inverse(a)), C::product(C::inverse(a), a)}) {
      EXPECT_EIGEN_NEAR(R::group(p.g), M(M::Identity()), 64 * kEps);
      EXPECT_EIGEN_NEAR(p.mu, typename C::Algebra(C::Algebra::Zero()), 64 * kEps);
    }
  }
}

TYPED_TEST(CotangentGroup, LeftActionIsCotangentLiftThenFibreTranslation) {
  // (h, nu) = (e, nu)(h, 0), and acting on T*G from the left:
  //  - (e, nu) translates the fibres: (g, mu) -> (g, mu + nu);
  //  - (h, 0) is the cotangent lift of L_h, and (h, 0) acting from the right that of R_h: they
  //    cover g -> h g (resp. g h) and preserve the Liouville form theta_(g,mu)(dg) = <mu, dg g^-1>,
  //    which characterises cotangent lifts among the maps linear on the fibres.
  using C = TypeParam;
  using R = Rep<C>;
  using M = typename R::Mat;
  using A = typename C::Algebra;
  GEOMINT_SEEDED_RNG(rng, 603);
  for (int i = 0; i < 30; ++i) {
    const typename C::Point p = random_point<C>(rng);
    const typename C::Group h = R::random_group(rng);
    const A nu = R::algebra(rng, 1.0), xi = R::algebra(rng, 1.0);
    SCOPED_TRACE(show_point<C>(p) + "\nh =\n" + show(R::group(h)) + "\nnu = " + show(nu) +
                 ", xi = " + show(xi));
    const typename C::Point hn = C::product({R::identity(), nu}, {h, A::Zero()});
    EXPECT_EQ(R::group(hn.g), R::group(h));
    EXPECT_EQ(hn.mu, nu);
    const typename C::Point shifted = C::product({R::identity(), nu}, p);
    EXPECT_EQ(R::group(shifted.g), R::group(p.g));
    EXPECT_EQ(shifted.mu, A(p.mu + nu));

    const M g = R::group(p.g), hm = R::group(h), dg = R::hat(xi) * g;
    const double theta = p.mu.dot(R::vee(dg * g.inverse()));
    const typename C::Point left = C::product({h, A::Zero()}, p);
    const typename C::Point right = C::product(p, {h, A::Zero()});
    EXPECT_EIGEN_NEAR(R::group(left.g), M(hm * g), 64 * kEps);
    EXPECT_EIGEN_NEAR(R::group(right.g), M(g * hm), 64 * kEps);
    // Three matrix products and Eigen's inverse of entries <= ~5, then a dot product with
    // momenta <= ~20: a few hundred kEps.
    EXPECT_NEAR(left.mu.dot(R::vee(M(hm * dg) * M(hm * g).inverse())), theta, 512 * kEps);
    EXPECT_NEAR(right.mu.dot(R::vee(M(dg * hm) * M(g * hm).inverse())), theta, 512 * kEps);
  }
}

// ---------------------------------------------------------------------------------------------
// Ad*, ad*, dexp*

TYPED_TEST(CotangentGroup, AdStarIsTransposeOfAdAndRightAction) {
  // (10): <Ad*_g mu, xi> = <mu, Ad_g xi>, so the matrix of Ad*_g is (Ad_g)^T, and Ad*_{gh} =
  // Ad*_h Ad*_g.
  using C = TypeParam;
  using R = Rep<C>;
  using A = typename C::Algebra;
  GEOMINT_SEEDED_RNG(rng, 604);
  for (int i = 0; i < 30; ++i) {
    const typename C::Group g = R::random_group(rng), h = R::random_group(rng);
    const A mu = R::algebra(rng, 1.0), xi = R::algebra(rng, 1.0);
    SCOPED_TRACE("g =\n" + show(R::group(g)) + "\nmu = " + show(mu) + ", xi = " + show(xi));
    const Sq<C> ad_g = ad_group_matrix<C>(R::group(g));
    const Sq<C> got = matrix_of_map<C>([&](const A& e) { return C::Ad_star(g, e); });
    // Entries of Ad_g are <= 1 + |r| <= 4.5, rounded a few times by the conjugation.
    EXPECT_EIGEN_NEAR(got, Sq<C>(ad_g.transpose()), 64 * kEps);
    EXPECT_NEAR(C::Ad_star(g, mu).dot(xi), mu.dot(ad_g * xi), 64 * kEps);
    const typename C::Group gh = C::product({g, A::Zero()}, {h, A::Zero()}).g;
    EXPECT_EIGEN_NEAR(C::Ad_star(gh, mu), C::Ad_star(h, C::Ad_star(g, mu)), 128 * kEps);
  }
}

TYPED_TEST(CotangentGroup, AdStarOfExpIsTransposeOfAdOfMatrixExponential) {
  using C = TypeParam;
  using R = Rep<C>;
  GEOMINT_SEEDED_RNG(rng, 605);
  for (double r : kHardNorms) {
    for (int i = 0; i < 3; ++i) {
      const typename C::Algebra xi = R::algebra(rng, r), mu = R::algebra(rng, 1.0);
      SCOPED_TRACE("xi = " + show(xi) + ", mu = " + show(mu));
      const typename C::Algebra expected = ad_group_matrix<C>(matrix_exp<C>(xi)).transpose() * mu;
      // exp(xi) has entries <= 1 + |J(A) a| <= 3 from Eigen's Pade (a few kEps each), then
      // the conjugation: as for Ad above.
      EXPECT_EIGEN_NEAR(C::Ad_star_exp(xi, mu), expected, 64 * kEps);
    }
  }
}

TYPED_TEST(CotangentGroup, AdStarInfinitesimalIsTransposeOfAdAndDerivativeOfAdStar) {
  // ad*_xi = (ad_xi)^T, with ad_xi from matrix commutators (and the bracket checked against
  // them); and ad*_xi mu = d/dt Ad*_{exp(t xi)} mu at t = 0.
  using C = TypeParam;
  using R = Rep<C>;
  using A = typename C::Algebra;
  GEOMINT_SEEDED_RNG(rng, 606);
  for (int i = 0; i < 30; ++i) {
    const A xi = R::algebra(rng, 1.5), eta = R::algebra(rng, 1.0), mu = R::algebra(rng, 1.0);
    SCOPED_TRACE("xi = " + show(xi) + ", mu = " + show(mu));
    const Sq<C> ad = ad_algebra_matrix<C>(xi);
    // Differences of two products of entries <= 1.7: a few roundings.
    EXPECT_EIGEN_NEAR(C::bracket(xi, eta), A(ad * eta), 8 * kEps);
    const Sq<C> got = matrix_of_map<C>([&](const A& e) { return C::ad_star(xi, e); });
    EXPECT_EIGEN_NEAR(got, Sq<C>(ad.transpose()), 8 * kEps);
    const A derivative = richardson_derivative(
        [&](double t) { return A(ad_group_matrix<C>(matrix_exp<C>(t * xi)).transpose() * mu); });
    // Derivatives of order one (|xi|, |mu| < 3): the Richardson bound.
    EXPECT_EIGEN_NEAR(C::ad_star(xi, mu), derivative, kRichardsonTol);
  }
}

TYPED_TEST(CotangentGroup, DexpStarIsTransposeOfFiniteDifferenceDexp) {
  // dexp*_xi = (dexp_xi)^T, with dexp_xi from finite differences of Eigen's exponential, at the
  // hard sizes of the rotational part (near 0 and pi).
  using C = TypeParam;
  using R = Rep<C>;
  using A = typename C::Algebra;
  GEOMINT_SEEDED_RNG(rng, 607);
  for (double r : kHardNorms) {
    for (int i = 0; i < 3; ++i) {
      const A xi = R::algebra(rng, r);
      SCOPED_TRACE("xi = " + show(xi) + ", |rotational part| = " + show(r));
      const Sq<C> got = matrix_of_map<C>([&](const A& e) { return C::dexp_star(xi, e); });
      // The Richardson bound (exp(xi + s e) and its derivatives are of order one).
      EXPECT_EIGEN_NEAR(got, Sq<C>(dexp_fd_matrix<C>(xi).transpose()), kRichardsonTol);
    }
  }
}

TYPED_TEST(CotangentGroup, ExpLeftIsMatrixExponentialAndLogRightRatioInvertsIt) {
  using C = TypeParam;
  using R = Rep<C>;
  using M = typename R::Mat;
  GEOMINT_SEEDED_RNG(rng, 608);
  for (double r : kHardNorms) {
    if (r > kPi) continue;  // log returns the principal value
    for (int i = 0; i < 3; ++i) {
      const typename C::Algebra xi = R::algebra(rng, r);
      const typename C::Group a = R::random_group(rng);
      SCOPED_TRACE("xi = " + show(xi) + ", |rotational part| = " + show(r) + ", a =\n" +
                   show(R::group(a)));
      typename C::Group b = a;
      C::exp_left(xi, b);
      // Entries <= 1 + |r| + |J a| <= 6, products of Pade and Rodrigues exponentials.
      EXPECT_EIGEN_NEAR(R::group(b), M(matrix_exp<C>(xi) * R::group(a)), 64 * kEps);
      const typename C::Algebra back = C::log_right_ratio(a, b);
      if (r == kPi) {
        // The sign of the axis of a half-turn is not determined: check exp(back) a = b.
        typename C::Group again = a;
        C::exp_left(back, again);
        EXPECT_EIGEN_NEAR(R::group(again), R::group(b), 64 * kEps);
      } else {
        // b a^-1 carries a few kEps of rounding; log is well conditioned up to pi - 1e-6 (its
        // axis from the symmetric part there) and the translation's dexpinv has norm <= pi / 2.
        EXPECT_EIGEN_NEAR(back, xi, 64 * kEps);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// dexp on so(3) and se(3)

/// x = (A, a) with |A| = r and a along A (a screw), orthogonal to A, or random.
std::vector<Vec6> se3_hard_elements(Rng& rng) {
  std::vector<Vec6> xs;
  for (double r : kHardNorms) {
    const Vec3 n = rng.unit3();
    xs.push_back(se3::make(r * n, 0.8 * n));
    xs.push_back(se3::make(r * n, rng.orthogonal_unit(n)));
    xs.push_back(se3::make(r * n, rng.vec3()));
  }
  return xs;
}

TEST(Dexp, MatchesFiniteDifferencesOfMatrixExponential) {
  // d/de exp(u + e v) exp(u)^-1 at e = 0 = hat(dexp_u v), by Richardson differences of Eigen's
  // exponential (3x3 and 4x4): the Richardson bound, derivatives being of order one.
  GEOMINT_SEEDED_RNG(rng, 609);
  for (double r : kHardNorms) {
    for (int i = 0; i < 3; ++i) {
      const Vec3 u = rng.with_norm(r), v = rng.unit3();
      SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
      EXPECT_EIGEN_NEAR(so3::dexp(u, v), dexp_so3_fd(u, v), kRichardsonTol);
    }
  }
  for (const Vec6& x : se3_hard_elements(rng)) {
    const Vec6 y = rng.vec6();
    SCOPED_TRACE("x = " + show(x) + ", |A| = " + show(x.head<3>().norm()) + ", y = " + show(y));
    EXPECT_EIGEN_NEAR(se3::dexp(x, y), dexp_se3_fd(x, y), kRichardsonTol);
  }
}

TEST(Dexp, ComposedWithDexpinvIsIdentity) {
  // Both ways, up to |A| = 6 (dexpinv is singular at 2 pi). On so(3) ||dexp_u|| <= 1 and
  // ||dexpinv_u|| = max(1, (r/2) / |sin(r/2)|) (21 at r = 6); on se(3) the a-blocks add factors
  // up to ~(1 + |a|). The roundings of the inner result (a few kEps times its size) are
  // magnified by the outer map's norm: 16 kEps times those gains (at most 0.13 of it measured).
  GEOMINT_SEEDED_RNG(rng, 610);
  std::vector<double> norms = kHardNorms;
  norms.push_back(6.0);
  for (double r : norms) {
    const double gain = r == 0.0 ? 1.0 : std::max(1.0, 0.5 * r / std::sin(0.5 * r));
    for (int i = 0; i < 3; ++i) {
      const Vec3 u = rng.with_norm(r), v = rng.unit3();
      SCOPED_TRACE("u = " + show(u) + ", v = " + show(v));
      EXPECT_EIGEN_NEAR(so3::dexp(u, so3::dexpinv(u, v)), v, 16 * kEps * gain);
      EXPECT_EIGEN_NEAR(so3::dexpinv(u, so3::dexp(u, v)), v, 16 * kEps * gain);
      const Vec6 x = se3::make(u, rng.vec3()), y = rng.vec6();
      SCOPED_TRACE("x = " + show(x) + ", y = " + show(y));
      const double scale = 16 * kEps * gain * (1 + x.tail<3>().norm()) * (1 + x.tail<3>().norm());
      EXPECT_EIGEN_NEAR(se3::dexp(x, se3::dexpinv(x, y)), y, scale);
      EXPECT_EIGEN_NEAR(se3::dexpinv(x, se3::dexp(x, y)), y, scale);
    }
  }
}

/// Entry by entry, |got - expected| <= tol.
::testing::AssertionResult within(const Mat3& got, const Mat3& expected, const Mat3& tol) {
  if (((got - expected).cwiseAbs().array() <= tol.array()).all())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got =\n"
         << show(got) << "\nexpected =\n"
         << show(expected) << "\ndifference / tolerance =\n"
         << show(Mat3((got - expected).cwiseAbs().cwiseQuotient(tol)));
}

using LMat3 = Eigen::Matrix<long double, 3, 3>;
using LMat6 = Eigen::Matrix<long double, 6, 6>;

/// sum_k X^k / (k+1)! in long double, 60 terms: for ||X|| <= 6 the tail is below 6^60 / 61!
/// ~ 2e-37 relative to the leading 1.
template <class LMat>
LMat phi_series(const LMat& x) {
  LMat sum = LMat::Zero(), term = LMat::Identity();
  for (int k = 0; k < 60; ++k) {
    sum += term / (k + 1);
    term = (term * x / (k + 1)).eval();
  }
  return sum;
}
LMat3 skew_ld(const Vec3& u) { return skew(u).cast<long double>(); }

TEST(Dexp, HardSizesMatchLongDoubleSeries) {
  // dexp_u = phi(ad_u), phi(z) = (e^z - 1)/z, summed as a long-double series of 3x3 and 6x6
  // matrices ad = [[A^, 0], [a^, A^]]. The tolerance is relative to the terms making up each
  // entry: on so(3) 1 on the diagonal and |u|/2 + |u|^2/6 off it, so near 0 the off-diagonal
  // entries must be right relative to |u| (a naive (1 - cos |u|)/|u|^2 would be wrong by a
  // relative ~eps/|u|^2); on the se(3) block [a^ ...] the entries are ~|a| (1 + |A|)^2. Each
  // entry carries a few roundings of its terms: 8 kEps (at most 0.13 of it measured).
  GEOMINT_SEEDED_RNG(rng, 611);
  for (double r : {0.0, 1e-9, 1e-5, 1e-3, kPi - 1e-6, kPi}) {
    for (int i = 0; i < 4; ++i) {
      const Vec3 n = rng.unit3(), u = r * n;
      const Vec3 a = i % 2 == 0 ? Vec3(0.8 * n) : rng.vec3();
      SCOPED_TRACE("u = " + show(u) + ", a = " + show(a));
      const Mat3 got = matrix_of_map<CotangentSO3>([&](const Vec3& e) { return so3::dexp(u, e); });
      const Mat3 expected = phi_series(skew_ld(u)).cast<double>();
      Mat3 rotation_tol = Mat3::Constant(8 * kEps * (r / 2 + r * r / 6));
      rotation_tol.diagonal().array() += 8 * kEps;
      EXPECT_TRUE(within(got, expected, rotation_tol));

      LMat6 ad = LMat6::Zero();
      ad.topLeftCorner<3, 3>() = ad.bottomRightCorner<3, 3>() = skew_ld(u);
      ad.bottomLeftCorner<3, 3>() = skew_ld(a);
      const Vec6 x = se3::make(u, a);
      const Mat6 got6 = matrix_of_map<CotangentSE3>([&](const Vec6& e) { return se3::dexp(x, e); });
      const Mat6 expected6 = phi_series(ad).cast<double>();
      EXPECT_TRUE(within(got6.topLeftCorner<3, 3>(), expected, rotation_tol));
      EXPECT_TRUE(within(got6.bottomRightCorner<3, 3>(), expected, rotation_tol));
      EXPECT_EQ(Mat3(got6.topRightCorner<3, 3>()), Mat3::Zero());
      EXPECT_EIGEN_NEAR(Mat3(got6.bottomLeftCorner<3, 3>()),
                        Mat3(expected6.bottomLeftCorner<3, 3>()),
                        8 * kEps * a.norm() * (1 + r) * (1 + r));
    }
  }
}

TEST(So3DexpStar, OfMinusXiIsDexpOfXi) {
  // (15) relies on dexp*_{-xi} = (dexp_{-xi})^T = dexp_xi, checked as 3x3 matrices with
  // dexp_xi from finite differences of Eigen's exponential. Control: dexp*_{+xi} is not dexp_xi;
  // their difference is the antisymmetric part 2 b hat(xi), b = (1 - cos r)/r^2, whose largest
  // entry 2 b max|xi_i| >= 2 b r / sqrt(3) > b r, far above the Richardson bound for r >= 1e-5.
  GEOMINT_SEEDED_RNG(rng, 612);
  for (double r : kHardNorms) {
    for (int i = 0; i < 3; ++i) {
      const Vec3 xi = rng.with_norm(r);
      SCOPED_TRACE("xi = " + show(xi));
      const Mat3 fd = dexp_fd_matrix<CotangentSO3>(xi);
      const Mat3 star_minus = matrix_of_map<CotangentSO3>(
          [&](const Vec3& e) { return CotangentSO3::dexp_star(-xi, e); });
      EXPECT_EIGEN_NEAR(star_minus, fd, kRichardsonTol);
      EXPECT_EQ(star_minus,
                matrix_of_map<CotangentSO3>([&](const Vec3& e) { return so3::dexp(xi, e); }));
      if (r >= 1e-5) {
        const Mat3 star_plus = matrix_of_map<CotangentSO3>(
            [&](const Vec3& e) { return CotangentSO3::dexp_star(xi, e); });
        const double b = so3::RodriguesCoefficients(r).b;
        EXPECT_GT((star_plus - fd).cwiseAbs().maxCoeff(), b * r);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The symplectic form (13)

/// The matrix W(mu) of (13) at (g, mu) in the chart (xi, dnu): omega(v1, v2) = v1^T W v2, from
/// cotangent_symplectic_form on basis vectors.
template <class C>
Mat2d<C> form_matrix(const typename C::Algebra& mu) {
  constexpr int d = C::kDim;
  Mat2d<C> w;
  for (int i = 0; i < 2 * d; ++i) {
    for (int j = 0; j < 2 * d; ++j) {
      const Vec2d<C> v1 = Vec2d<C>::Unit(i), v2 = Vec2d<C>::Unit(j);
      w(i, j) =
          geomint::cotangent_symplectic_form<C>(mu, v1.template head<d>(), v1.template tail<d>(),
                                                v2.template head<d>(), v2.template tail<d>());
    }
  }
  return w;
}

/// The canonical form <dp2, dq1> - <dp1, dq2> in linear coordinates (q, p).
template <class C>
Mat2d<C> canonical_matrix() {
  constexpr int d = C::kDim;
  Mat2d<C> w = Mat2d<C>::Zero();
  w.template topRightCorner<d, d>() = Sq<C>::Identity();
  w.template bottomLeftCorner<d, d>() = -Sq<C>::Identity();
  return w;
}

/// The point reached from p along the chart vector v = (xi, dnu): (exp(xi) g, mu + dnu).
template <class C>
typename C::Point chart_point(const typename C::Point& p, const Vec2d<C>& v) {
  typename C::Point q = p;
  C::exp_left(v.template head<C::kDim>(), q.g);
  q.mu += v.template tail<C::kDim>();
  return q;
}

/// The chart coordinates of q at base: (log(q.g base.g^-1), q.mu - base.mu).
template <class C>
Vec2d<C> chart_coordinates(const typename C::Point& base, const typename C::Point& q) {
  Vec2d<C> v;
  v << C::log_right_ratio(base.g, q.g), q.mu - base.mu;
  return v;
}

/// The Jacobian at p of f: T*G -> R^2d in the chart at p, by Richardson differences.
template <class C, class F>
Mat2d<C> chart_jacobian(const typename C::Point& p, const F& f) {
  Mat2d<C> jac;
  for (int i = 0; i < 2 * C::kDim; ++i) {
    jac.col(i) = richardson_derivative(
        [&](double s) { return Vec2d<C>(f(chart_point<C>(p, s * Vec2d<C>::Unit(i)))); });
  }
  return jac;
}

/// The Jacobian at p of phi: T*G -> T*G in the charts at p and at phi(p).
template <class C, class Phi>
Mat2d<C> map_jacobian(const typename C::Point& p, const Phi& phi) {
  const typename C::Point image = phi(p);
  return chart_jacobian<C>(
      p, [&](const typename C::Point& q) { return chart_coordinates<C>(image, phi(q)); });
}

/// How far the map with chart Jacobian `jac` from (g0, mu0) to (g1, mu1) is from preserving (13)
/// and the wrong-sign form (13) at -mu: max |J^T W(mu1) J - W(mu0)|.
struct Defects {
  double form, wrong_sign;
};
template <class C>
Defects symplecticity_defects(const Mat2d<C>& jac, const typename C::Algebra& mu0,
                              const typename C::Algebra& mu1) {
  const auto defect = [&](const typename C::Algebra& m0, const typename C::Algebra& m1) {
    return (jac.transpose() * form_matrix<C>(m1) * jac - form_matrix<C>(m0)).cwiseAbs().maxCoeff();
  };
  return {defect(mu0, mu1), defect(-mu0, -mu1)};
}

// Tolerances of the symplectic checks. The Jacobians come from Richardson differences, whose
// entries are right to ~1e-12 here (support/finite_difference.hpp: below kRichardsonTol = 1e-11
// for maps of order one), and J^T W J - W sums 2d products of them with entries of W <= 1 + |mu|:
// defects of a few 1e-12 are expected, and up to 7e-12 were measured over eight seeds (the heavy
// top, where RK4's own O(h^4) non-symplecticity adds ~1e-13). 1e-10 leaves a factor > 10.
// The wrong sign changes W by 2 <mu, [xi1, xi2]>-type terms of order |mu| ~ 1; the smallest
// wrong-sign defect measured was 0.07 (potential flow), against the 1e-3 required.
constexpr double kFormTol = 1e-10;
constexpr double kWrongSignMin = 1e-3;

TYPED_TEST(CotangentGroup, FormIsAntisymmetricNondegenerateWithBracketBlock) {
  // W(mu) = [[B, I], [-I, 0]] with B_ij = -<mu, [e_i, e_j]> from matrix commutators (B =
  // hat(mu) on so(3)); det W = det(I) = 1 whatever B, so (13) is nondegenerate.
  using C = TypeParam;
  using R = Rep<C>;
  constexpr int d = C::kDim;
  GEOMINT_SEEDED_RNG(rng, 613);
  for (int i = 0; i < 10; ++i) {
    const typename C::Algebra mu = R::algebra(rng, 2.0);
    SCOPED_TRACE("mu = " + show(mu));
    const Mat2d<C> w = form_matrix<C>(mu);
    EXPECT_EQ(w, Mat2d<C>(-w.transpose()));  // sums of products of exact zeros and ones
    Mat2d<C> expected = canonical_matrix<C>();
    for (int a = 0; a < d; ++a) {
      for (int b = 0; b < d; ++b) {
        const typename C::Algebra ea = C::Algebra::Unit(a), eb = C::Algebra::Unit(b);
        expected(a, b) = -mu.dot(R::vee(R::hat(ea) * R::hat(eb) - R::hat(eb) * R::hat(ea)));
      }
    }
    EXPECT_EIGEN_NEAR(w, expected, 4 * kEps);
    if constexpr (std::is_same_v<C, CotangentSO3>) {
      EXPECT_EIGEN_NEAR(Mat3(w.template topLeftCorner<3, 3>()), skew(mu), 4 * kEps);
    }
    const Eigen::FullPivLU<Mat2d<C>> lu(w);
    EXPECT_EQ(lu.rank(), 2 * d);
    EXPECT_NEAR(w.determinant(), 1.0, 1e-12);  // LU with |mu| <= 3.5 entries
  }
}

TYPED_TEST(CotangentGroup, FormIsCanonicalFormInExponentialCoordinates) {
  // The definition of (13): right-trivialise the canonical form of T*G. In the coordinates
  // g = exp(q) g0, the momentum conjugate to q is p = dexp*_q mu, since
  //   <p, dq> = <p_g, dg> = <mu, dg g^-1> = <mu, dexp_q dq>,
  // and the canonical form is <dp2, dq1> - <dp1, dq2> in (q, p). Its pullback by
  // (g, mu) -> (q, p) must be (13); with the wrong sign it is not.
  using C = TypeParam;
  using R = Rep<C>;
  GEOMINT_SEEDED_RNG(rng, 614);
  const typename C::Group g0 = R::random_group(rng);
  for (double r : {0.0, 0.5, 1.5, 2.5}) {
    for (int i = 0; i < 2; ++i) {
      typename C::Point p{g0, R::algebra(rng, 2.0)};
      C::exp_left(R::algebra(rng, r), p.g);
      SCOPED_TRACE(show_point<C>(p));
      const auto canonical_coordinates = [&](const typename C::Point& x) {
        const typename C::Algebra q = C::log_right_ratio(g0, x.g);
        Vec2d<C> qp;
        qp << q, C::dexp_star(q, x.mu);
        return qp;
      };
      const Mat2d<C> jac = chart_jacobian<C>(p, canonical_coordinates);
      const Mat2d<C> pulled_back = jac.transpose() * canonical_matrix<C>() * jac;
      EXPECT_EIGEN_NEAR(pulled_back, form_matrix<C>(p.mu), kFormTol);
      EXPECT_GT((pulled_back - form_matrix<C>(-p.mu)).cwiseAbs().maxCoeff(), kWrongSignMin);
    }
  }
}

TYPED_TEST(CotangentGroup, LiftsOfMultiplicationsPreserveForm) {
  // The cotangent lifts of L_h and R_h, (h, 0) acting from the left and from the right, are
  // symplectic. They also preserve the wrong-sign form, since they keep <dnu, xi> and
  // <mu, [xi1, xi2]> separately (L_h: xi -> Ad_h xi, mu -> Ad*_{h^-1} mu; R_h: xi, mu fixed):
  // they check (13)'s invariance, not its sign.
  using C = TypeParam;
  using R = Rep<C>;
  using A = typename C::Algebra;
  GEOMINT_SEEDED_RNG(rng, 615);
  for (int i = 0; i < 5; ++i) {
    const typename C::Point p = random_point<C>(rng);
    const typename C::Group h = R::random_group(rng);
    SCOPED_TRACE(show_point<C>(p) + "\nh =\n" + show(R::group(h)));
    const auto left = [&](const typename C::Point& x) { return C::product({h, A::Zero()}, x); };
    const auto right = [&](const typename C::Point& x) { return C::product(x, {h, A::Zero()}); };
    const Defects dl = symplecticity_defects<C>(map_jacobian<C>(p, left), p.mu, left(p).mu);
    const Defects dr = symplecticity_defects<C>(map_jacobian<C>(p, right), p.mu, right(p).mu);
    EXPECT_LT(dl.form, kFormTol);
    EXPECT_LT(dr.form, kFormTol);
    EXPECT_LT(dl.wrong_sign, kFormTol);
    EXPECT_LT(dr.wrong_sign, kFormTol);
  }
}

TYPED_TEST(CotangentGroup, PotentialFlowPreservesForm) {
  // H(g, mu) = V(g): by (14) f = (0, -grad V), and by (12) the exact flow is
  // (g, mu) -> (g, mu - t grad V(g)). It preserves (13) because the bracket term cancels the
  // antisymmetric part of the second derivative of V; the wrong sign doubles it instead.
  using C = TypeParam;
  using R = Rep<C>;
  using A = typename C::Algebra;
  GEOMINT_SEEDED_RNG(rng, 616);
  constexpr double t = 0.7;
  for (int i = 0; i < 5; ++i) {
    const typename C::Point p = random_point<C>(rng);
    SCOPED_TRACE(show_point<C>(p));
    // The gradient written in Rep, against finite differences of V along exp(e xi) g.
    const A xi = R::algebra(rng, 1.0);
    const double dv = geomint::testing::richardson_derivative_scalar(
        [&](double s) {
          typename C::Group g = p.g;
          C::exp_left(s * xi, g);
          return R::potential(g);
        },
        0.0, geomint::testing::kRichardsonStep);
    EXPECT_NEAR(R::potential_gradient(p.g).dot(xi), dv, 10 * kRichardsonTol);  // V up to ~20

    const auto flow = [&](const typename C::Point& x) {
      return typename C::Point{x.g, A(x.mu - t * R::potential_gradient(x.g))};
    };
    const Defects d = symplecticity_defects<C>(map_jacobian<C>(p, flow), p.mu, flow(p).mu);
    EXPECT_LT(d.form, kFormTol);
    EXPECT_GT(d.wrong_sign, kWrongSignMin);
  }
}

// The heavy top in spatial momentum (Celledoni (21)-(22)) as a Hamiltonian on T*SO(3):
//   H(g, mu) = 1/2 mu . g I^-1 g^T mu + kappa . (g chi),
//   f1 = dH/dmu = w = g I^-1 g^T mu,  f2 = -R_g^* dH/dg = mu x w + kappa x g chi  (14),
//   g' = hat(f1) g,  mu' = f2 - ad*_{f1} mu = f2 - hat(f1)^T mu  (12),
// integrated by RK4 in the matrix coordinates (g, mu) in R^{3x3} x R^3, not on the group.
struct TopState {
  Mat3 g;
  Vec3 mu;
};
const Mat3 kInertiaInv = Eigen::Vector3d(1.0, 1.0 / 1.7, 1.0 / 2.6).asDiagonal();
const Vec3 kKappa(0.3, -0.4, 1.5), kChi(0.2, 0.1, 0.9);

double top_energy(const TopState& s) {
  return 0.5 * s.mu.dot(s.g * kInertiaInv * s.g.transpose() * s.mu) + kKappa.dot(s.g * kChi);
}
TopState top_field(const TopState& s) {
  const Vec3 f1 = s.g * kInertiaInv * s.g.transpose() * s.mu;
  const Vec3 f2 = s.mu.cross(f1) + kKappa.cross(s.g * kChi);
  return {skew(f1) * s.g, f2 - skew(f1).transpose() * s.mu};
}
TopState axpy(const TopState& s, double h, const TopState& k) {
  return {s.g + h * k.g, s.mu + h * k.mu};
}
/// Time 1 in 1000 RK4 steps: global error ~1e-13 for frequencies of order one, and the
/// non-symplecticity of RK4 (O(h^4) per unit time) is of that size too.
CotangentSO3::Point top_flow(const CotangentSO3::Point& p) {
  constexpr int kSteps = 1000;
  constexpr double h = 1.0 / kSteps;
  TopState s{p.g, p.mu};
  for (int n = 0; n < kSteps; ++n) {
    const TopState k1 = top_field(s), k2 = top_field(axpy(s, h / 2, k1));
    const TopState k3 = top_field(axpy(s, h / 2, k2)), k4 = top_field(axpy(s, h, k3));
    s = {s.g + h / 6 * (k1.g + 2 * k2.g + 2 * k3.g + k4.g),
         s.mu + h / 6 * (k1.mu + 2 * k2.mu + 2 * k3.mu + k4.mu)};
  }
  return {s.g, s.mu};
}

TEST(CotangentSO3Form, HeavyTopFlowPreservesForm) {
  // The strongest check of the sign of (13): the time-1 flow of a Hamiltonian whose vector
  // field is (12) with (14), itself computed without the code under test, must preserve (13),
  // and does not preserve the wrong-sign form (mu changes along the flow, and the Jacobian mixes
  // dnu into xi). The energy and pi . kappa (Celledoni (21)) show that the flow is the top's.
  GEOMINT_SEEDED_RNG(rng, 617);
  for (int i = 0; i < 3; ++i) {
    const CotangentSO3::Point p{rng.rotation(), rng.vec3(1.5)};
    SCOPED_TRACE(show_point<CotangentSO3>(p));
    const CotangentSO3::Point end = top_flow(p);
    // RK4 error ~1e-13 on quantities of order one.
    EXPECT_NEAR(top_energy({end.g, end.mu}), top_energy({p.g, p.mu}), 1e-11);
    EXPECT_NEAR(end.mu.dot(kKappa), p.mu.dot(kKappa), 1e-11);
    const Defects d =
        symplecticity_defects<CotangentSO3>(map_jacobian<CotangentSO3>(p, top_flow), p.mu, end.mu);
    EXPECT_LT(d.form, kFormTol);
    EXPECT_GT(d.wrong_sign, kWrongSignMin);
  }
}

}  // namespace
