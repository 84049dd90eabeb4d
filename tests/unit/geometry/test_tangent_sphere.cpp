// Unit tests of geometry/tangent_sphere.hpp (Celledoni Section 5.1).
//
// The action psi((R, r), (q, w)) = (R q, R w + r x R q) is the adjoint action of SE(3) on
// se(3) = R^6 restricted to TS^2, so the independent reference for it is conjugation of 4x4
// matrices, G hat4(q, w) G^-1 with G^-1 from Eigen; its generator is then the commutator
// [hat4(xi), hat4(q, w)], and also the t-derivative of the action of exp(t xi) (finite
// differences, with exp from Eigen). (TS^2)^N is checked for N = 2, 3 and Eigen::Dynamic (with 2
// and 5 bodies), entries located by explicit index arithmetic:
//   y = [q_1, ..., q_N, w_1, ..., w_N],  xi = [u_1, v_1, ..., u_N, v_N].

#include "geometry/tangent_sphere.hpp"

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/SVD>
#include <cmath>
#include <limits>
#include <string>

#include "support/eigen_matchers.hpp"
#include "support/finite_difference.hpp"
#include "support/matrix_lie.hpp"
#include "support/random.hpp"

namespace {

namespace se3 = geomint::se3;
namespace ts2 = geomint::ts2;
using geomint::testing::dexp_se3_fd;
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

Vec6 make(const Vec3& a, const Vec3& b) {
  Vec6 x;
  x << a, b;
  return x;
}
se3::Element element_from_matrix(const Mat4& m) {
  se3::Element g;
  g.rotation = m.topLeftCorner<3, 3>();
  g.translation = m.topRightCorner<3, 1>();
  return g;
}
se3::Element random_element(Rng& rng) {
  se3::Element g;
  g.rotation = rng.rotation();
  g.translation = rng.vec3(2.0);
  return g;
}
/// A random point of TS^2: |q| = 1, q . w = 0, |w| <= 2.
void random_tangent(Rng& rng, Vec3& q, Vec3& w) {
  q = rng.unit3();
  w = rng.uniform(0.0, 2.0) * rng.orthogonal_unit(q);
}
/// The reference action: conjugation of hat4(q, w) by the homogeneous matrix of g.
Vec6 adjoint_action(const se3::Element& g, const Vec3& q, const Vec3& w) {
  const Mat4 gm = homogeneous(g.rotation, g.translation);
  return vee4(Mat4(gm * hat4(make(q, w)) * gm.inverse()));
}

// ---------------------------------------------------------------------------------------------
// ts2::act and ts2::generator

TEST(Ts2Act, IsAdjointActionOfSe3) {
  GEOMINT_SEEDED_RNG(rng, 301);
  for (int i = 0; i < 50; ++i) {
    const se3::Element g = random_element(rng);
    const Vec3 q0 = rng.vec3(), w0 = rng.vec3();  // the formula holds on all of R^6
    SCOPED_TRACE("R =\n" + show(g.rotation) + "\nr = " + show(g.translation) + "\nq = " + show(q0) +
                 ", w = " + show(w0));
    Vec3 q = q0, w = w0;
    ts2::act(g, q, w);
    // Entries <= |r| |q| + |w| ~ 6, Eigen's inverse and two 4x4 products: a few roundings.
    EXPECT_EIGEN_NEAR(make(q, w), adjoint_action(g, q0, w0), 32 * kEps);
  }
}

TEST(Ts2Act, IsGroupActionWithIdentity) {
  GEOMINT_SEEDED_RNG(rng, 302);
  for (int i = 0; i < 50; ++i) {
    const se3::Element g1 = random_element(rng), g2 = random_element(rng);
    Vec3 q0, w0;
    random_tangent(rng, q0, w0);
    SCOPED_TRACE("g1: R =\n" + show(g1.rotation) + "\nr = " + show(g1.translation) + "\ng2: R =\n" +
                 show(g2.rotation) + "\nr = " + show(g2.translation) + "\nq = " + show(q0) +
                 ", w = " + show(w0));
    // g1 g2 from the product of homogeneous matrices (not se3::Element::operator*).
    const se3::Element g12 = element_from_matrix(homogeneous(g1.rotation, g1.translation) *
                                                 homogeneous(g2.rotation, g2.translation));
    Vec3 q_a = q0, w_a = w0;
    ts2::act(g12, q_a, w_a);
    Vec3 q_b = q0, w_b = w0;
    ts2::act(g2, q_b, w_b);
    ts2::act(g1, q_b, w_b);
    // Entries up to ~|r1| + |r2| + |w| ~ 8 after two applications.
    EXPECT_EIGEN_NEAR(make(q_a, w_a), make(q_b, w_b), 32 * kEps);

    Vec3 q_id = q0, w_id = w0;
    ts2::act(se3::Element::identity(), q_id, w_id);
    EXPECT_EQ(q_id, q0);
    EXPECT_EQ(w_id, w0);
  }
}

TEST(Ts2Act, PreservesTangentSpheresOfEveryRadius) {
  // The orbits are TS^2_|q| = {|q~| = |q|, q~ . w~ = 0} (Celledoni Section 5.1).
  GEOMINT_SEEDED_RNG(rng, 303);
  for (double radius : {1.0, 0.5, 3.0}) {
    for (int i = 0; i < 30; ++i) {
      const se3::Element g = random_element(rng);
      Vec3 q, w;
      random_tangent(rng, q, w);
      q *= radius;
      SCOPED_TRACE("radius = " + show(radius) + ", q = " + show(q) + ", w = " + show(w));
      ts2::act(g, q, w);
      // |R q| = |q| up to the rounding of R, of R q and of the norm (a few eps, ~5 seen in seed
      // sweeps, 8 allowed); q . w: R w is orthogonal to
      // R q and r x R q is orthogonal to R q exactly in real arithmetic, so only roundings of
      // terms ~ radius (|w| + |r| radius) remain.
      EXPECT_NEAR(q.norm(), radius, 8 * kEps * radius);
      EXPECT_NEAR(q.dot(w), 0.0, 16 * kEps * radius * (2.0 + 4.0 * radius));
    }
  }
}

TEST(Ts2Generator, IsCommutatorWithTwist) {
  GEOMINT_SEEDED_RNG(rng, 304);
  for (int i = 0; i < 50; ++i) {
    const Vec6 xi = rng.vec6(2.0);
    Vec3 q, w;
    random_tangent(rng, q, w);
    SCOPED_TRACE("xi = " + show(xi) + ", q = " + show(q) + ", w = " + show(w));
    Vec3 dq, dw;
    ts2::generator(xi, q, w, dq, dw);
    const Vec6 expected = vee4(Mat4(hat4(xi) * hat4(make(q, w)) - hat4(make(q, w)) * hat4(xi)));
    EXPECT_EIGEN_NEAR(make(dq, dw), expected, 16 * kEps);
    // Tangent to TS^2: d|q|^2/dt = 2 q . dq = 0 and d(q . w)/dt = dq . w + q . dw = 0.
    EXPECT_NEAR(q.dot(dq), 0.0, 16 * kEps);
    EXPECT_NEAR(dq.dot(w) + q.dot(dw), 0.0, 32 * kEps);
  }
}

TEST(Ts2Generator, IsDerivativeOfActionAlongExp) {
  // d/dt psi(exp(t xi), m) at t = 0, with exp(t xi) from Eigen's 4x4 exponential; Richardson
  // differences with step 2e-3 (support/finite_difference.hpp).
  GEOMINT_SEEDED_RNG(rng, 305);
  for (int i = 0; i < 30; ++i) {
    const Vec6 xi = rng.vec6();
    Vec3 q0, w0;
    random_tangent(rng, q0, w0);
    SCOPED_TRACE("xi = " + show(xi) + ", q = " + show(q0) + ", w = " + show(w0));
    const Vec6 fd = geomint::testing::richardson_derivative([&](double t) {
      Vec3 q = q0, w = w0;
      ts2::act(element_from_matrix(expm(Mat4(t * hat4(xi)))), q, w);
      return make(q, w);
    });
    Vec3 dq, dw;
    ts2::generator(xi, q0, w0, dq, dw);
    EXPECT_EIGEN_NEAR(make(dq, dw), fd, kRichardsonTol);
  }
}

// ---------------------------------------------------------------------------------------------
// TangentSphereProduct<N>

template <int N, int Count>
struct Case {
  static constexpr int kN = N;          // template argument
  static constexpr int kCount = Count;  // number of bodies
};

template <class C>
class TangentSphereProductTest : public ::testing::Test {
 protected:
  using Product = geomint::TangentSphereProduct<C::kN>;
  using PointType = typename Product::Point;
  using AlgebraType = typename Product::Algebra;
  static constexpr int kBodies = C::kCount;

  // Explicit layout: q_i at 3i, w_i at 3(n + i); xi_i at 6i.
  static Vec3 q_at(const PointType& y, int i) { return y.template segment<3>(3 * i); }
  static Vec3 w_at(const PointType& y, int i) { return y.template segment<3>(3 * (kBodies + i)); }
  static Vec6 xi_at(const AlgebraType& x, int i) { return x.template segment<6>(6 * i); }

  static PointType random_point(Rng& rng) {
    PointType y(6 * kBodies);
    for (int i = 0; i < kBodies; ++i) {
      Vec3 q, w;
      random_tangent(rng, q, w);
      y.template segment<3>(3 * i) = q;
      y.template segment<3>(3 * (kBodies + i)) = w;
    }
    return y;
  }
  static AlgebraType random_algebra(Rng& rng, double scale) {
    AlgebraType x(6 * kBodies);
    for (int i = 0; i < 6 * kBodies; ++i) x(i) = rng.uniform(-scale, scale);
    return x;
  }
};

using Cases =
    ::testing::Types<Case<2, 2>, Case<3, 3>, Case<Eigen::Dynamic, 2>, Case<Eigen::Dynamic, 5>>;
class CaseNames {
 public:
  template <class C>
  static std::string GetName(int) {
    return (C::kN == Eigen::Dynamic ? "Dynamic" : "Fixed") + std::to_string(C::kCount);
  }
};
TYPED_TEST_SUITE(TangentSphereProductTest, Cases, CaseNames);

TYPED_TEST(TangentSphereProductTest, LayoutIsPositionsFirst) {
  using P = typename TestFixture::Product;
  constexpr int n = TestFixture::kBodies;
  static_assert(TypeParam::kN == Eigen::Dynamic ? P::kDim == Eigen::Dynamic : P::kDim == 6 * n);
  typename TestFixture::PointType y(6 * n);
  for (int k = 0; k < 6 * n; ++k) y(k) = k;
  EXPECT_EQ(P::count(y), n);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(Vec3(P::q(y, i)), Vec3(3 * i, 3 * i + 1, 3 * i + 2)) << "i = " << i;
    EXPECT_EQ(Vec3(P::w(y, i)), Vec3(3 * (n + i), 3 * (n + i) + 1, 3 * (n + i) + 2)) << "i = " << i;
  }
  // Writing through the accessors lands at the same places.
  typename TestFixture::PointType z = TestFixture::PointType::Zero(6 * n);
  P::q(z, n - 1) = Vec3(1, 2, 3);
  P::w(z, 0) = Vec3(4, 5, 6);
  EXPECT_EQ(z.template segment<3>(3 * (n - 1)), Vec3(1, 2, 3));
  EXPECT_EQ(z.template segment<3>(3 * n), Vec3(4, 5, 6));
  EXPECT_EQ(z.squaredNorm(), 91.0);  // 1 + 4 + 9 + 16 + 25 + 36: nothing else was written
}

TYPED_TEST(TangentSphereProductTest, ExpActIsComponentWiseAction) {
  using P = typename TestFixture::Product;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 306);
  for (int rep = 0; rep < 10; ++rep) {
    const auto y0 = TestFixture::random_point(rng);
    const auto xi = TestFixture::random_algebra(rng, 2.0);
    SCOPED_TRACE("y = " + show(y0) + "\nxi = " + show(xi));
    auto y = y0;
    P::exp_act(xi, y);
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE("body " + std::to_string(i));
      const Vec3 q0 = TestFixture::q_at(y0, i), w0 = TestFixture::w_at(y0, i);
      const Vec6 got = make(TestFixture::q_at(y, i), TestFixture::w_at(y, i));
      // Against conjugation by Eigen's exponential of hat4(xi_i) (|u_i| <= 3.5).
      const Mat4 g = expm(hat4(TestFixture::xi_at(xi, i)));
      const Vec6 expected = vee4(Mat4(g * hat4(make(q0, w0)) * g.inverse()));
      EXPECT_EIGEN_NEAR(got, expected, 64 * kEps);
      // And the single-body functions it is built from.
      Vec3 q = q0, w = w0;
      ts2::act(se3::exp(TestFixture::xi_at(xi, i)), q, w);
      EXPECT_EQ(got, make(q, w));
    }
    // Stays on (TS^2)^n (see Ts2Act.PreservesTangentSpheresOfEveryRadius for the bounds).
    EXPECT_LE(P::unit_length_defect(y), 8 * kEps);
    EXPECT_LE(P::tangency_defect(y), 128 * kEps);
  }
}

TYPED_TEST(TangentSphereProductTest, ExpActOfZeroIsIdentity) {
  using P = typename TestFixture::Product;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 307);
  const auto y0 = TestFixture::random_point(rng);
  auto y = y0;
  P::exp_act(TestFixture::AlgebraType::Zero(6 * n), y);
  EXPECT_EQ(y, y0);
}

TYPED_TEST(TangentSphereProductTest, GeneratorIsComponentWiseAndDerivativeOfExpAct) {
  using P = typename TestFixture::Product;
  using Point = typename TestFixture::PointType;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 308);
  for (int rep = 0; rep < 10; ++rep) {
    const Point y = TestFixture::random_point(rng);
    const auto xi = TestFixture::random_algebra(rng, 1.0);
    SCOPED_TRACE("y = " + show(y) + "\nxi = " + show(xi));
    Point dy;  // unsized for N = Eigen::Dynamic: generator sizes it
    P::generator(xi, y, dy);
    ASSERT_EQ(dy.size(), 6 * n);
    for (int i = 0; i < n; ++i) {
      SCOPED_TRACE("body " + std::to_string(i));
      const Vec6 m = make(TestFixture::q_at(y, i), TestFixture::w_at(y, i));
      const Vec6 x = TestFixture::xi_at(xi, i);
      const Vec6 got = make(TestFixture::q_at(dy, i), TestFixture::w_at(dy, i));
      EXPECT_EIGEN_NEAR(got, vee4(Mat4(hat4(x) * hat4(m) - hat4(m) * hat4(x))), 16 * kEps);
      Vec3 dq, dw;
      ts2::generator(x, m.head<3>(), m.tail<3>(), dq, dw);
      EXPECT_EQ(got, make(dq, dw));
    }
    // d/dt exp_act(t xi, y) at t = 0.
    const Point fd = geomint::testing::richardson_derivative([&](double t) {
      Point z = y;
      P::exp_act(typename TestFixture::AlgebraType(t * xi), z);
      return z;
    });
    EXPECT_EIGEN_NEAR(dy, fd, kRichardsonTol);
  }
}

TYPED_TEST(TangentSphereProductTest, BracketIsComponentWiseCommutator) {
  using P = typename TestFixture::Product;
  using Algebra = typename TestFixture::AlgebraType;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 309);
  const Algebra a = TestFixture::random_algebra(rng, 2.0),
                b = TestFixture::random_algebra(rng, 2.0);
  SCOPED_TRACE("a = " + show(a) + "\nb = " + show(b));
  Algebra out;  // unsized for N = Eigen::Dynamic
  P::bracket(a, b, out);
  ASSERT_EQ(out.size(), 6 * n);
  for (int i = 0; i < n; ++i) {
    const Mat4 x = hat4(TestFixture::xi_at(a, i)), y = hat4(TestFixture::xi_at(b, i));
    EXPECT_EIGEN_NEAR(TestFixture::xi_at(out, i), vee4(Mat4(x * y - y * x)), 8 * kEps)
        << "body " << i;
  }
}

TYPED_TEST(TangentSphereProductTest, DexpinvInvertsComponentWiseFiniteDifferenceDexp) {
  using P = typename TestFixture::Product;
  using Algebra = typename TestFixture::AlgebraType;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 310);
  for (int rep = 0; rep < 5; ++rep) {
    const Algebra a = TestFixture::random_algebra(rng, 2.0),
                  b = TestFixture::random_algebra(rng, 1.0);
    SCOPED_TRACE("a = " + show(a) + "\nb = " + show(b));
    // w = dexp_a(b) block by block, by finite differences of Eigen's exponential; the error
    // bound kRichardsonTol is amplified by ||dexpinv_{a_i}|| (estimated from the smallest
    // singular value of the finite-difference matrix of dexp_{a_i}).
    Algebra w(6 * n);
    double amplification = 1.0;
    for (int i = 0; i < n; ++i) {
      const Vec6 ai = TestFixture::xi_at(a, i);
      w.template segment<6>(6 * i) = dexp_se3_fd(ai, TestFixture::xi_at(b, i));
      const Mat6 m = geomint::testing::dexp_se3_fd_matrix(ai);
      amplification = std::max(amplification, 1.0 / Eigen::JacobiSVD<Mat6>(m).singularValues()(5));
    }
    Algebra got;  // unsized for N = Eigen::Dynamic
    P::dexpinv(a, w, got);
    ASSERT_EQ(got.size(), 6 * n);
    EXPECT_EIGEN_NEAR(got, b, amplification * kRichardsonTol);
  }
}

TYPED_TEST(TangentSphereProductTest, DexpinvSeriesIsComponentWiseSeries) {
  using P = typename TestFixture::Product;
  using Algebra = typename TestFixture::AlgebraType;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 311);
  const Algebra a = TestFixture::random_algebra(rng, 1.0),
                b = TestFixture::random_algebra(rng, 1.0);
  SCOPED_TRACE("a = " + show(a) + "\nb = " + show(b));
  // Truncated after ad^2 (= after ad^3): b - [a, b]/2 + [a, [a, b]]/12 per block, with
  // commutators of 4x4 matrices.
  Algebra got;  // unsized for N = Eigen::Dynamic
  P::dexpinv_series(a, b, 3, got);
  ASSERT_EQ(got.size(), 6 * n);
  for (int i = 0; i < n; ++i) {
    const Mat4 x = hat4(TestFixture::xi_at(a, i)), y = hat4(TestFixture::xi_at(b, i));
    const Mat4 c1 = x * y - y * x, c2 = x * c1 - c1 * x;
    const Vec6 expected = vee4(Mat4(y - c1 / 2 + c2 / 12));
    EXPECT_EIGEN_NEAR(TestFixture::xi_at(got, i), expected, 32 * kEps) << "body " << i;
  }
  // With 12 terms and small a the series and the exact dexpinv agree to roundoff (the omitted
  // terms are below 1.3e-11 |ad_a|^14 with |ad_{a_i}| <= 2 |a_i| <= 0.35).
  const Algebra small = 0.1 * a;
  Algebra series, exact;
  P::dexpinv_series(small, b, 12, series);
  P::dexpinv(small, b, exact);
  EXPECT_EIGEN_NEAR(series, exact, 8 * kEps);
}

TYPED_TEST(TangentSphereProductTest, DefectsMeasureDistanceFromManifold) {
  using P = typename TestFixture::Product;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 312);
  // On the manifold: both defects are at roundoff level (|q| = 1 to an ulp; q . w sums three
  // products of size <= |w| <= 2 on top of the ~eps |w| residual of the random point).
  const auto on = TestFixture::random_point(rng);
  EXPECT_LE(P::unit_length_defect(on), 2 * kEps);
  EXPECT_LE(P::tangency_defect(on), 16 * kEps);
  // Off it by known amounts: |q_i| = 1 + delta_i, q_i . w_i = tau_i.
  typename TestFixture::PointType y(6 * n);
  double max_delta = 0.0, max_tau = 0.0;
  for (int i = 0; i < n; ++i) {
    const double delta = rng.uniform(-1e-3, 1e-3), tau = rng.uniform(-1e-2, 1e-2);
    max_delta = std::max(max_delta, std::abs(delta));
    max_tau = std::max(max_tau, std::abs(tau));
    const Vec3 nrm = rng.unit3(), t = rng.orthogonal_unit(nrm);
    y.template segment<3>(3 * i) = (1 + delta) * nrm;
    y.template segment<3>(3 * (n + i)) = t + tau / (1 + delta) * nrm;
  }
  SCOPED_TRACE("y = " + show(y));
  // |(1 + delta) n| and its dot product with w carry a few roundings of numbers of size ~1.
  EXPECT_NEAR(P::unit_length_defect(y), max_delta, 4 * kEps);
  EXPECT_NEAR(P::tangency_defect(y), max_tau, 8 * kEps);
}

TYPED_TEST(TangentSphereProductTest, ProjectIsNearestPointAndIdempotent) {
  using P = typename TestFixture::Product;
  using Point = typename TestFixture::PointType;
  constexpr int n = TestFixture::kBodies;
  GEOMINT_SEEDED_RNG(rng, 313);
  for (int rep = 0; rep < 10; ++rep) {
    Point y = TestFixture::random_point(rng);
    for (int k = 0; k < 6 * n; ++k) y(k) += rng.uniform(-0.1, 0.1);  // well off the manifold
    SCOPED_TRACE("y = " + show(y));
    Point p = y;
    P::project(p);
    // Roundoff: q / |q| to a couple of ulps; w - (q.w) q with |w| <= 2.2 to a few eps |w|.
    const double w_tol = 4 * kEps * 2.2;
    for (int i = 0; i < n; ++i) {
      // q / |q| and the tangential part of w at q / |q|, written out.
      const Vec3 q = TestFixture::q_at(y, i), w = TestFixture::w_at(y, i);
      const Vec3 qn = q / q.norm();
      const Vec3 wt = w - qn.dot(w) * qn;
      EXPECT_EIGEN_NEAR(TestFixture::q_at(p, i), qn, 4 * kEps) << "body " << i;
      EXPECT_EIGEN_NEAR(TestFixture::w_at(p, i), wt, w_tol) << "body " << i;
    }
    EXPECT_LE(P::unit_length_defect(p), 2 * kEps);
    EXPECT_LE(P::tangency_defect(p), w_tol);
    Point pp = p;
    P::project(pp);
    EXPECT_EIGEN_NEAR(pp, p, w_tol);
  }
  // Points on the manifold stay (up to roundoff, as above).
  const Point on = TestFixture::random_point(rng);
  Point p = on;
  P::project(p);
  EXPECT_EIGEN_NEAR(p, on, 4 * kEps * 2.2);
}

}  // namespace
