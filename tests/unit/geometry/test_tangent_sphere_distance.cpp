// Unit tests of TangentSphereProduct::distance, the distance on (TS^2)^N that the
// commutator-free pairs use for error control (Celledoni Section 4.2).
//
// References: closed forms (points on one great circle with transported velocities: d = the
// angle; one base point: d = |w - w~|), invariance under rotations (an isometry of the Sasaki
// metric), and the Sasaki norm of the generator, sqrt(sum_i |u_i x q_i|^2 + |P_i(u_i x w_i +
// v_i x q_i)|^2) with P_i the projection onto T_{q_i}S^2, as the limit of d(y, exp(eps xi) . y)/eps.

#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "geometry/tangent_sphere.hpp"
#include "support/random.hpp"

namespace {

using geomint::testing::Rng;
using geomint::testing::show;
using Product = geomint::TangentSphereProduct<Eigen::Dynamic>;
using Point = Product::Point;
using Vec3 = Eigen::Vector3d;

constexpr double kEps = std::numeric_limits<double>::epsilon();
constexpr Eigen::Index kBodies = 3;

Point random_point(Rng& rng) {
  Point y(6 * kBodies);
  for (Eigen::Index i = 0; i < kBodies; ++i) {
    const Vec3 q = rng.unit3();
    Product::q(y, i) = q;
    Product::w(y, i) = rng.uniform(0.0, 3.0) * rng.orthogonal_unit(q);
  }
  return y;
}

TEST(TangentSphereDistance, VanishesOnEqualPointsAndIsSymmetric) {
  GEOMINT_SEEDED_RNG(rng, 401);
  for (int k = 0; k < 50; ++k) {
    const Point a = random_point(rng), b = random_point(rng);
    SCOPED_TRACE("a = " + show(a) + "\nb = " + show(b));
    // d(a, a): theta = 0 exactly, and w - (q . q) w is a rounding of |w| <= 3 per body.
    EXPECT_LE(Product::distance(a, a), 16 * kEps);
    const double ab = Product::distance(a, b), ba = Product::distance(b, a);
    EXPECT_GT(ab, 0.0);
    EXPECT_NEAR(ab, ba, 64 * kEps * ab);
  }
}

TEST(TangentSphereDistance, IsTheAngleAlongAGreatCircleWithTransportedVelocities) {
  // b = (R_i q_i, R_i w_i) with R_i the rotation by alpha_i about an axis orthogonal to q_i:
  // R_i is the parallel transport along the great circle, so d = sqrt(sum alpha_i^2), not the
  // ambient |q_i - R_i q_i| = 2 sin(alpha_i / 2).
  GEOMINT_SEEDED_RNG(rng, 402);
  for (int k = 0; k < 50; ++k) {
    const Point a = random_point(rng);
    Point b = a;
    double sum = 0.0;
    for (Eigen::Index i = 0; i < kBodies; ++i) {
      const Vec3 q = Product::q(a, i);
      const double alpha = rng.uniform(0.0, 3.0);
      const Eigen::Matrix3d r = Eigen::AngleAxisd(alpha, rng.orthogonal_unit(q)).toRotationMatrix();
      Product::q(b, i) = r * q;
      Product::w(b, i) = r * Product::w(a, i);
      sum += alpha * alpha;
    }
    SCOPED_TRACE("a = " + show(a) + "\nb = " + show(b));
    EXPECT_NEAR(Product::distance(a, b), std::sqrt(sum), 64 * kEps);
  }
}

TEST(TangentSphereDistance, IsTheVelocityDifferenceAtOneBasePoint) {
  GEOMINT_SEEDED_RNG(rng, 403);
  for (int k = 0; k < 50; ++k) {
    const Point a = random_point(rng);
    Point b = random_point(rng);
    for (Eigen::Index i = 0; i < kBodies; ++i) {
      const Vec3 q = Product::q(a, i);
      Product::q(b, i) = q;
      Product::w(b, i) = rng.uniform(0.0, 3.0) * rng.orthogonal_unit(q);
    }
    SCOPED_TRACE("a = " + show(a) + "\nb = " + show(b));
    const double expected = (a.tail(3 * kBodies) - b.tail(3 * kBodies)).norm();
    EXPECT_NEAR(Product::distance(a, b), expected, 64 * kEps);
  }
}

TEST(TangentSphereDistance, IsInvariantUnderACommonRotation) {
  GEOMINT_SEEDED_RNG(rng, 404);
  for (int k = 0; k < 50; ++k) {
    const Point a = random_point(rng), b = random_point(rng);
    const Eigen::Matrix3d r = rng.rotation();
    Point ra = a, rb = b;
    for (Eigen::Index i = 0; i < 2 * kBodies; ++i) {
      ra.segment<3>(3 * i) = r * a.segment<3>(3 * i);
      rb.segment<3>(3 * i) = r * b.segment<3>(3 * i);
    }
    SCOPED_TRACE("a = " + show(a) + "\nb = " + show(b) + "\nR =\n" + show(r));
    // Near antipodal q_i, q~_i the great circle (and the transport along it) is ill-conditioned:
    // a rounding of the inputs moves it by ~eps / (1 + q_i . q~_i).
    double conditioning = 1.0;
    for (Eigen::Index i = 0; i < kBodies; ++i)
      conditioning = std::max(conditioning, 1.0 / (1.0 + Product::q(a, i).dot(Product::q(b, i))));
    const double d = Product::distance(a, b);
    EXPECT_NEAR(Product::distance(ra, rb), d, 64 * kEps * (1.0 + d) * conditioning);
  }
}

TEST(TangentSphereDistance, AgreesWithTheSasakiNormOfTheGeneratorNearby) {
  // d(y, exp(eps xi) . y) = eps |psi_*(xi)|_Sasaki + O(eps^2); at eps = 1e-6 the O(eps) relative
  // term is ~1e-6 (|xi| <= 2, |w| <= 3) and the roundings ~1e-10 relative.
  GEOMINT_SEEDED_RNG(rng, 405);
  constexpr double kStep = 1e-6;
  for (int k = 0; k < 50; ++k) {
    const Point y = random_point(rng);
    Product::Algebra xi(6 * kBodies);
    for (Eigen::Index i = 0; i < kBodies; ++i) xi.segment<6>(6 * i) = rng.vec6(2.0);
    double sasaki2 = 0.0;
    for (Eigen::Index i = 0; i < kBodies; ++i) {
      const Vec3 q = Product::q(y, i), w = Product::w(y, i);
      const Vec3 u = xi.segment<3>(6 * i), v = xi.segment<3>(6 * i + 3);
      const Vec3 dw = u.cross(w) + v.cross(q);
      sasaki2 += u.cross(q).squaredNorm() + (dw - dw.dot(q) * q).squaredNorm();
    }
    Point moved = y;
    const Product::Algebra step = kStep * xi;
    Product::exp_act(step, moved);
    SCOPED_TRACE("y = " + show(y) + "\nxi = " + show(xi));
    EXPECT_NEAR(Product::distance(y, moved) / kStep, std::sqrt(sasaki2),
                1e-4 * std::sqrt(sasaki2));
  }
}

TEST(TangentSphereDistance, AntipodalPositionsGiveTheLargestTransportBound) {
  Point a(6), b(6);
  a << 0, 0, 1, 1, 2, 0;
  b << 0, 0, -1, 0, 3, 0;
  const double expected =
      std::sqrt(std::numbers::pi * std::numbers::pi + std::pow(std::sqrt(5.0) + 3.0, 2));
  EXPECT_NEAR(Product::distance(a, b), expected, 16 * kEps * expected);
}

}  // namespace
