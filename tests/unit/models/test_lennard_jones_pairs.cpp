// Label `unit`: the Lennard-Jones pair sum (models/lennard_jones_pairs.hpp) and its cell list
// (models/cell_list.hpp).
//
//   - all pairs: the gradient and the potential are bitwise those of the loops the vector
//     loops replaced (written out here), whichever instruction set runs;
//   - the cell list visits every pair closer than its reach exactly once, for points on the
//     sphere, off it and outside the cube [-1, 1]^3;
//   - with a cutoff: V and dV/dq against brute-force sums of the shifted-force pair energy
//     written out here, and dV/dq against Richardson-extrapolated differences of V; the pair
//     energy and force vanish at the cutoff.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <set>
#include <span>
#include <utility>

#include "models/cell_list.hpp"
#include "models/lennard_jones_pairs.hpp"
#include "models/sphere_lj.hpp"
#include "support/eigen_matchers.hpp"
#include "support/lj_gradient_check.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using Points = Eigen::Matrix3Xd;
constexpr double kU = std::numeric_limits<double>::epsilon();

/// n random unit vectors, each at least `min_chord` from the earlier ones.
Points random_sphere(testing::Rng& rng, Eigen::Index n, double min_chord) {
  Points q(3, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    bool separated = false;
    while (!separated) {
      q.col(i) = rng.unit3();
      separated = true;
      for (Eigen::Index j = 0; j < i; ++j)
        separated = separated && (q.col(i) - q.col(j)).norm() >= min_chord;
    }
  }
  return q;
}

// ---- All pairs: the earlier loops, bit for bit ------------------------------------------------

/// The all-pairs gradient as computed before the vector loops: for each j, the pair forces
/// f_i = c d over i < j stored, a_i += f_i, then a_j -= their sum in four interleaved lanes.
Points two_pass_gradient(const Points& q, double eps, double sigma) {
  const Eigen::Index n = q.cols();
  Points a = Points::Zero(3, n), f(3, n);
  const double sigma2 = sigma * sigma, eps24 = 24.0 * eps;
  for (Eigen::Index j = 1; j < n; ++j) {
    for (Eigen::Index i = 0; i < j; ++i) {
      const Eigen::Vector3d d = q.col(i) - q.col(j);
      const double inv_r2 = 1.0 / (d(0) * d(0) + d(1) * d(1) + d(2) * d(2));
      const double s2 = sigma2 * inv_r2;
      const double s = s2 * s2 * s2;
      const double c = -eps24 * s * (2.0 * s - 1.0) * inv_r2;
      for (int k = 0; k < 3; ++k) {
        f(k, i) = c * d(k);
        a(k, i) += f(k, i);
      }
    }
    for (int k = 0; k < 3; ++k) {
      double lane[4] = {0.0, 0.0, 0.0, 0.0};
      for (Eigen::Index i = 0; i < j; ++i) lane[i % 4] += f(k, i);
      a(k, j) -= (lane[0] + lane[1]) + (lane[2] + lane[3]);
    }
  }
  return a;
}

/// The all-pairs potential as computed before: e_i += s^2 - s over j > i, then 4 eps times
/// the sum of e in four interleaved lanes.
double earlier_potential(const Points& q, double eps, double sigma) {
  const Eigen::Index n = q.cols();
  Eigen::VectorXd e = Eigen::VectorXd::Zero(n);
  for (Eigen::Index j = 1; j < n; ++j)
    for (Eigen::Index i = 0; i < j; ++i) {
      const Eigen::Vector3d d = q.col(i) - q.col(j);
      const double s2 = sigma * sigma / (d(0) * d(0) + d(1) * d(1) + d(2) * d(2));
      const double s = s2 * s2 * s2;
      e(i) += s * s - s;
    }
  double lane[4] = {0.0, 0.0, 0.0, 0.0};
  for (Eigen::Index i = 0; i < n; ++i) lane[i % 4] += e(i);
  return 4.0 * eps * ((lane[0] + lane[1]) + (lane[2] + lane[3]));
}

void expect_bitwise_earlier(const Points& q, double eps, double sigma) {
  const LennardJonesPairs pairs(eps, sigma, q.cols());
  Points grad(3, q.cols());
  pairs.gradient(q, grad);
  const Points expected = two_pass_gradient(q, eps, sigma);
  Eigen::Index differ = 0;
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (int k = 0; k < 3; ++k) differ += grad(k, i) != expected(k, i);
  EXPECT_EQ(differ, 0) << "of " << 3 * q.cols() << " gradient components, n = " << q.cols();
  EXPECT_EQ(pairs.potential(q), earlier_potential(q, eps, sigma)) << "n = " << q.cols();
}

TEST(LennardJonesPairs, AllPairsAreBitwiseTheEarlierLoops) {
  // The lee2009 molecules, and random molecules in numbers that end mid-group (n mod 4 = 3)
  // and cross the 512-point blocks.
  expect_bitwise_earlier(icosphere(SphereLennardJones::kLee2009Level).vertices, 0.01,
                         SphereLennardJones::lee2009_sigma());
  GEOMINT_SEEDED_RNG(rng, 301);
  for (const Eigen::Index n : {2, 3, 5, 1299})
    expect_bitwise_earlier(random_sphere(rng, n, 0.0), 0.01, 0.05);
}

// ---- The cell list ---------------------------------------------------------------------------

TEST(CellList, VisitsEveryClosePairOnce) {
  GEOMINT_SEEDED_RNG(rng, 302);
  // 400 points on the sphere, 40 off it (radius 0.5 to 1.6, so some outside [-1, 1]^3), and
  // two far outside.
  Points q(3, 442);
  q.leftCols(400) = random_sphere(rng, 400, 0.0);
  for (Eigen::Index i = 400; i < 440; ++i) {
    const double radius = rng.uniform(0.5, 1.6);
    q.col(i) = radius * rng.unit3();
  }
  q.col(440) << 7.0, -0.2, 0.1;
  q.col(441) << 6.9, -0.25, 0.1;
  for (const double reach : {0.05, 0.2, 0.7, 1.5, 5.0}) {
    CellList cells(reach, q.cols());
    cells.build(q);
    const auto& order = cells.order();
    std::set<Eigen::Index> columns(order.begin(), order.end());
    ASSERT_EQ(columns.size(), 442u) << "order is not a permutation";
    std::set<std::pair<Eigen::Index, Eigen::Index>> seen;
    Eigen::Index repeats = 0, backwards = 0;
    cells.for_each_half_shell([&](Eigen::Index k, std::span<const CellList::Run> runs) {
      for (const auto& run : runs)
        for (Eigen::Index i = run.lo; i < run.hi; ++i) {
          backwards += i <= k;
          repeats += !seen.insert(std::minmax(order[k], order[i])).second;
        }
    });
    EXPECT_EQ(repeats, 0) << "reach " << reach;
    EXPECT_EQ(backwards, 0) << "reach " << reach;
    Eigen::Index missed = 0, close = 0;
    for (Eigen::Index i = 0; i < q.cols(); ++i)
      for (Eigen::Index j = i + 1; j < q.cols(); ++j)
        if ((q.col(i) - q.col(j)).norm() < reach) {
          ++close;
          missed += !seen.contains({i, j});
        }
    EXPECT_EQ(missed, 0) << "of " << close << " pairs closer than " << reach << " ("
                         << cells.cells_per_axis() << " cells per axis)";
  }
}

// ---- With a cutoff: brute force and differences ---------------------------------------------

/// The shifted-force pair energy, written out with std::pow: phi(r) - phi(rc) - (r^2 - rc^2)
/// phi'(rc) / (2 rc) below rc, phi = 4 eps [(sigma/r)^12 - (sigma/r)^6].
struct CutPair {
  double eps, sigma, rc;
  double phi(double r) const {
    return 4 * eps * (std::pow(sigma / r, 12) - std::pow(sigma / r, 6));
  }
  double dphi(double r) const {
    return 4 * eps *
           (-12 * std::pow(sigma, 12) / std::pow(r, 13) + 6 * std::pow(sigma, 6) / std::pow(r, 7));
  }
  double energy(double r) const {
    return r < rc ? phi(r) - phi(rc) - (r * r - rc * rc) * dphi(rc) / (2 * rc) : 0.0;
  }
  double force(double r) const { return r < rc ? dphi(r) - r * dphi(rc) / rc : 0.0; }
};

/// sum_{i<j} phi_c and its gradient, in long double, and the round-off scales: the sum of
/// |phi_c| and the largest sum over j of |dphi_c/dq_i| (see test_sphere_lj.cpp).
struct BruteForce {
  double potential, energy_scale, force_scale;
  Points gradient;
};
BruteForce brute_force(const Points& q, const CutPair& pair) {
  const Eigen::Index n = q.cols();
  BruteForce b{0.0, 0.0, 0.0, Points(3, n)};
  long double v = 0.0L;
  for (Eigen::Index i = 0; i < n; ++i) {
    long double g[3] = {0.0L, 0.0L, 0.0L};
    double size = 0.0;
    for (Eigen::Index j = 0; j < n; ++j) {
      if (j == i) continue;
      const Eigen::Vector3d d = q.col(i) - q.col(j);
      const double r = d.norm();
      if (j > i) {
        v += pair.energy(r);
        b.energy_scale += std::abs(pair.energy(r));
      }
      const Eigen::Vector3d term = pair.force(r) / r * d;
      for (int k = 0; k < 3; ++k) g[k] += term(k);
      size += term.norm();
    }
    for (int k = 0; k < 3; ++k) b.gradient(k, i) = static_cast<double>(g[k]);
    b.force_scale = std::max(b.force_scale, size);
  }
  b.potential = static_cast<double>(v);
  return b;
}

TEST(LennardJonesPairs, CutoffMatchesBruteForce) {
  GEOMINT_SEEDED_RNG(rng, 303);
  // 300 molecules no closer than 0.9 sigma on the sphere and 20 off it (radius 0.9 to 1.2),
  // cut at 2.5 sigma (cells of the cutoff), and at 25 sigma beyond the sphere's diameter (one
  // cell, every pair).
  const double eps = 0.01, sigma = 0.05;
  Points q(3, 320);
  q.leftCols(300) = random_sphere(rng, 300, 0.9 * sigma);
  for (Eigen::Index i = 300; i < 320; ++i) {
    bool separated = false;
    while (!separated) {
      const double radius = rng.uniform(0.9, 1.2);
      q.col(i) = radius * rng.unit3();
      separated = true;
      for (Eigen::Index j = 0; j < i; ++j)
        separated = separated && (q.col(i) - q.col(j)).norm() >= 0.9 * sigma;
    }
  }
  for (const double cutoff : {2.5, 25.0}) {
    const LennardJonesPairs pairs(eps, sigma, q.cols(), cutoff);
    const BruteForce b = brute_force(q, {eps, sigma, cutoff * sigma});
    Points grad(3, q.cols());
    pairs.gradient(q, grad);
    // Each pair term carries a few tens of u of relative round-off on either side, as in
    // test_sphere_lj.cpp; 100 u of the terms' sizes covers them and the sums.
    EXPECT_EIGEN_NEAR(grad, b.gradient, 100 * kU * b.force_scale) << "cutoff " << cutoff;
    EXPECT_NEAR(pairs.potential(q), b.potential, 100 * kU * b.energy_scale) << "cutoff " << cutoff;
    // The same again: nothing is left over from the previous evaluation.
    Points again(3, q.cols());
    pairs.gradient(q, again);
    EXPECT_EQ(again, grad);
  }
}

TEST(LennardJonesPairs, CutoffGradientMatchesFiniteDifferences) {
  GEOMINT_SEEDED_RNG(rng, 304);
  const double eps = 0.01, sigma = 0.25, cutoff = 2.5, rc = cutoff * sigma, h = 1e-4;
  // 50 molecules no closer than sigma. phi_c is C^1 but not C^2 at rc, so the difference
  // quotient is only as accurate as below if no pair comes within the stencil (2 h) of rc:
  // molecules that would are drawn again.
  Points q(3, 50);
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    bool admissible = false;
    while (!admissible) {
      q.col(i) = rng.unit3();
      admissible = true;
      for (Eigen::Index j = 0; j < i; ++j) {
        const double r = (q.col(i) - q.col(j)).norm();
        admissible = admissible && r >= sigma && std::abs(r - rc) > 10 * h;
      }
    }
  }
  const LennardJonesPairs pairs(eps, sigma, q.cols(), cutoff);
  const BruteForce b = brute_force(q, {eps, sigma, rc});
  Points grad(3, q.cols());
  pairs.gradient(q, grad);
  // Richardson error (lj_gradient_check.hpp) plus round-off ~10 u sum|phi_c| / h.
  const double roundoff = 10 * kU * b.energy_scale / h;
  testing::expect_lj_gradient_matches_differences(
      q, grad, eps, sigma, h, roundoff, [&](const Points& p) { return pairs.potential(p); }, rc);
}

TEST(LennardJonesPairs, CutPairEnergyAndForceVanishAtTheCutoff) {
  const double eps = 0.01, sigma = 0.1, cutoff = 2.5, rc = cutoff * sigma;
  const LennardJonesPairs cut(eps, sigma, 2, cutoff), all(eps, sigma, 2);
  const CutPair pair{eps, sigma, rc};
  // Relative to the size of the terms that cancel near rc.
  for (const double r : {0.9 * sigma, 1.3 * sigma, 2.0 * sigma, 0.999 * rc}) {
    const double energy_size = std::abs(pair.phi(r)) + std::abs(pair.phi(rc)) +
                               std::abs((r * r - rc * rc) * pair.dphi(rc) / (2 * rc));
    const double force_size = std::abs(pair.dphi(r)) + std::abs(r * pair.dphi(rc) / rc);
    EXPECT_NEAR(cut.pair_energy(r), pair.energy(r), 1e-13 * energy_size) << "r = " << r;
    EXPECT_NEAR(cut.pair_force(r), pair.force(r), 1e-13 * force_size) << "r = " << r;
    EXPECT_REL_NEAR(all.pair_energy(r), pair.phi(r), 1e-13) << "r = " << r;
    EXPECT_REL_NEAR(all.pair_force(r), pair.dphi(r), 1e-13) << "r = " << r;
  }
  // Both vanish at rc (to the round-off of the terms that cancel there) and beyond.
  const double scale = 24 * eps / sigma;
  EXPECT_NEAR(cut.pair_force(rc * (1 - 1e-15)), 0.0, 100 * kU * scale);
  EXPECT_NEAR(cut.pair_energy(rc * (1 - 1e-15)), 0.0, 100 * kU * eps);
  EXPECT_EQ(cut.pair_force(1.01 * rc), 0.0);
  EXPECT_EQ(cut.pair_energy(1.01 * rc), 0.0);
  EXPECT_THROW(LennardJonesPairs(eps, sigma, 2, -1.0), InputError);
}

}  // namespace
}  // namespace geomint
