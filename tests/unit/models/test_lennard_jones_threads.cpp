// Label `unit`: the Lennard-Jones pair sum (models/lennard_jones_pairs.hpp) on several threads
// (models/kernel_threads.hpp).
//
//   - the potential and the gradient are bitwise the same on 1, 2 and 3 threads, over all
//     pairs (2003 molecules: 8 blocks of the all-pairs tiles, the last one partial) and with
//     the cutoff (20000 molecules: 33 planes of cells);
//   - on each thread count they match a direct double loop over the pairs in long double, to
//     100 u of the sizes of the terms summed;
//   - the cell list's threaded build sorts the points as its serial one.
// The molecules: the Fibonacci sphere at the lee2009 density (bench/lj_configurations.hpp),
// each moved at random by up to a tenth of the spacing, so that no symmetry of the spiral
// hides a term summed twice or left out.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include "bench/lj_configurations.hpp"
#include "errors/exit_status_errors.hpp"
#include "models/cell_list.hpp"
#include "models/kernel_threads.hpp"
#include "models/lennard_jones_pairs.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using Points = Eigen::Matrix3Xd;
constexpr double kU = std::numeric_limits<double>::epsilon();

/// The Fibonacci sphere of n points, each moved by up to 0.1 spacing and put back on the sphere.
Points jittered_sphere(testing::Rng& rng, Eigen::Index n) {
  Points q = bench::fibonacci_sphere(n);
  const double spacing = std::pow(2.0, 1.0 / 6.0) * bench::sigma_for(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Vector3d moved =
        q.col(i) + 0.1 * spacing * Eigen::Vector3d(rng.uniform(-1, 1), rng.uniform(-1, 1),
                                                   rng.uniform(-1, 1));
    q.col(i) = moved.normalized();
  }
  return q;
}

/// sum_{i<j} phi (phi_c below r_c = cutoff sigma if cutoff > 0) and its gradient, by a direct
/// loop over the pairs in long double (the pairs sorted by z to skip those beyond r_c), and
/// the sizes of the terms: the sum of |phi| and, per molecule, the sum of |dphi/dq_i|.
struct Direct {
  double potential, energy_size;
  Points gradient;
  Eigen::VectorXd force_size;
};
Direct direct_sum(const Points& q, double eps, double sigma, double cutoff) {
  using Real = long double;
  const Eigen::Index n = q.cols();
  const Real s2 = static_cast<Real>(sigma) * sigma, rc = cutoff > 0.0 ? cutoff * sigma : 0.0;
  // phi and d phi / dr from u = r^2: (sigma/r)^6 = (sigma^2/u)^3.
  const auto phi = [&](Real u) {
    const Real p2 = s2 / u, p6 = p2 * p2 * p2;
    return 4 * eps * (p6 * p6 - p6);
  };
  const auto dphi = [&](Real u) {
    const Real p2 = s2 / u, p6 = p2 * p2 * p2;
    return 4 * eps * (-12 * p6 * p6 + 6 * p6) / std::sqrt(u);
  };
  // phi_c(r) = phi(r) - phi(rc) - (r^2 - rc^2) phi'(rc) / (2 rc), d phi_c / dr likewise.
  const Real phi_rc = phi(rc * rc), dphi_rc = dphi(rc * rc);
  const auto energy = [&](Real u) {
    return cutoff > 0.0 ? phi(u) - phi_rc - (u - rc * rc) * dphi_rc / (2 * rc) : phi(u);
  };
  const auto force = [&](Real u) {
    return cutoff > 0.0 ? dphi(u) - std::sqrt(u) * dphi_rc / rc : dphi(u);
  };
  std::vector<Eigen::Index> by_z(static_cast<std::size_t>(n));
  std::iota(by_z.begin(), by_z.end(), Eigen::Index{0});
  std::sort(by_z.begin(), by_z.end(), [&](Eigen::Index a, Eigen::Index b) { return q(2, a) < q(2, b); });
  std::vector<Real> g(static_cast<std::size_t>(3 * n), 0.0L);
  Direct d{0.0, 0.0, Points(3, n), Eigen::VectorXd::Zero(n)};
  Real v = 0.0L;
  for (std::size_t a = 0; a < by_z.size(); ++a)
    for (std::size_t b = a + 1; b < by_z.size(); ++b) {
      const Eigen::Index i = by_z[a], j = by_z[b];
      if (cutoff > 0.0 && q(2, j) - q(2, i) > rc) break;
      Real diff[3], r2 = 0.0L;
      for (int k = 0; k < 3; ++k) {
        diff[k] = static_cast<Real>(q(k, i)) - static_cast<Real>(q(k, j));
        r2 += diff[k] * diff[k];
      }
      if (cutoff > 0.0 && !(r2 < rc * rc)) continue;
      const Real e = energy(r2), f = force(r2);
      v += e;
      d.energy_size += static_cast<double>(std::abs(e));
      const Real c = f / std::sqrt(r2);  // dphi/dq_i = c (q_i - q_j)
      for (int k = 0; k < 3; ++k) {
        g[static_cast<std::size_t>(3 * i + k)] += c * diff[k];
        g[static_cast<std::size_t>(3 * j + k)] -= c * diff[k];
      }
      d.force_size(i) += static_cast<double>(std::abs(f));
      d.force_size(j) += static_cast<double>(std::abs(f));
    }
  d.potential = static_cast<double>(v);
  for (Eigen::Index i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) d.gradient(k, i) = static_cast<double>(g[static_cast<std::size_t>(3 * i + k)]);
  return d;
}

/// On 1, 2 and 3 threads: V and dV/dq bitwise those of 1 thread, and near the direct sums.
void expect_same_bits_on_any_threads(const Points& q, double eps, double sigma, double cutoff) {
  const Eigen::Index n = q.cols();
  const LennardJonesPairs pairs(eps, sigma, n, cutoff);
  const Direct direct = direct_sum(q, eps, sigma, cutoff);
  double potential_1 = 0.0;
  Points gradient_1(3, n);
  for (const int threads : {1, 2, 3}) {
    SCOPED_TRACE(::testing::Message() << threads << " threads, n = " << n << ", cutoff " << cutoff);
    const ScopedKernelThreads use(threads);
    Points gradient(3, n);
    pairs.gradient(q, gradient);
    const double potential = pairs.potential(q);
    if (threads == 1) {
      potential_1 = potential;
      gradient_1 = gradient;
    } else {
      EXPECT_EQ(std::memcmp(&potential, &potential_1, sizeof potential), 0)
          << potential << " on 1 thread: " << potential_1;
      Eigen::Index differ = 0;
      for (Eigen::Index i = 0; i < n; ++i)
        differ += std::memcmp(gradient.col(i).data(), gradient_1.col(i).data(), 3 * sizeof(double)) != 0;
      EXPECT_EQ(differ, 0) << "of " << n << " gradient columns differ from those on 1 thread";
    }
    // Each term carries a few u of relative round-off; 100 u of the terms' sizes covers the
    // terms and the sums.
    EXPECT_NEAR(potential, direct.potential, 100 * kU * direct.energy_size);
    Eigen::Index far = 0;
    double worst = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      const double error = (gradient.col(i) - direct.gradient.col(i)).lpNorm<Eigen::Infinity>();
      const double bound = 100 * kU * direct.force_size(i);
      far += !(error <= bound);
      worst = std::max(worst, error / bound);
    }
    EXPECT_EQ(far, 0) << "gradient columns beyond 100 u of their terms' sizes; worst at "
                      << worst << " of the bound";
  }
}

TEST(LennardJonesThreads, AllPairsAreBitwiseTheSameOnAnyThreads) {
  GEOMINT_SEEDED_RNG(rng, 311);
  const Eigen::Index n = 2003;
  expect_same_bits_on_any_threads(jittered_sphere(rng, n), 0.01, bench::sigma_for(n), 0.0);
}

TEST(LennardJonesThreads, CutoffIsBitwiseTheSameOnAnyThreads) {
  GEOMINT_SEEDED_RNG(rng, 312);
  const Eigen::Index n = 20000;
  expect_same_bits_on_any_threads(jittered_sphere(rng, n), 0.01, bench::sigma_for(n), 2.5);
}

TEST(LennardJonesThreads, TheCellListSortsAlikeOnAnyThreads) {
  // 40000 points: enough for the threaded build (models/cell_list.cpp), against the serial one.
  GEOMINT_SEEDED_RNG(rng, 313);
  const Eigen::Index n = 40000;
  const Points q = jittered_sphere(rng, n);
  CellList serial(2.5 * bench::sigma_for(n), n);
  serial.build(q);
  for (const int threads : {2, 3}) {
    CellList cells(2.5 * bench::sigma_for(n), n);
    cells.build(q, threads);
    EXPECT_TRUE(cells.order() == serial.order()) << threads << " threads";
    EXPECT_TRUE(cells.rank() == serial.rank()) << threads << " threads";
    Eigen::Index serial_pairs = 0, pairs = 0;
    const auto count = [](Eigen::Index& total) {
      return [&total](Eigen::Index, std::span<const CellList::Run> runs) {
        for (const auto& run : runs) total += run.hi - run.lo;
      };
    };
    serial.for_each_half_shell(count(serial_pairs));
    cells.for_each_half_shell(count(pairs));
    EXPECT_EQ(pairs, serial_pairs) << threads << " threads";
  }
}

TEST(LennardJonesThreads, TheSettingIsAtLeastOne) {
  EXPECT_GE(kernel_threads(), 1);
  EXPECT_THROW(set_kernel_threads(0), InputError);
  const ScopedKernelThreads use(3);
  EXPECT_EQ(kernel_threads(), 3);
}

}  // namespace
}  // namespace geomint
