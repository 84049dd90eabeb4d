#include "models/lennard_jones_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include "models/kernel_threads.hpp"
#include "models/parameters.hpp"

namespace geomint {

namespace {

// ---- The pair term -------------------------------------------------------------------------
//
// With u = r^2 and s = (sigma^2/u)^3 a pair contributes phi = 4 eps (s^2 - s) to V, and, for
// d = q_i - q_j,
//   dV/dq_i = -dV/dq_j = c d,   c = 2 dphi/du = -24 eps s (2 s - 1) / u,
// the pair term of LLM (3.27) (whose sum over j is -dV/dq_i). With the cutoff, phi_c adds
// -phi(u_c) - (u - u_c) dphi/du(u_c) below u_c (see the header), so c_c(u) = c(u) - c(u_c).

struct PairTerms {
  double sigma2, eps24;                                   // sigma^2, 24 eps
  double cut2 = std::numeric_limits<double>::infinity();  // u_c = r_c^2
  double c_cut = 0.0;                                     // c(u_c)
  double e_cut = 0.0, e_slope = 0.0;  // phi(u_c) / (4 eps) and dphi/du(u_c) / (4 eps)
};

PairTerms pair_terms(double epsilon, double sigma, double cutoff) {
  PairTerms t{sigma * sigma, 24.0 * epsilon};
  if (cutoff > 0.0) {
    t.cut2 = cutoff * cutoff * t.sigma2;
    const double s2 = t.sigma2 / t.cut2, s = s2 * s2 * s2;
    t.c_cut = -t.eps24 * s * (2.0 * s - 1.0) / t.cut2;
    t.e_cut = s * s - s;
    t.e_slope = -3.0 * s * (2.0 * s - 1.0) / t.cut2;  // ds/du = -3 s / u
  }
  return t;
}

// ---- Loops -----------------------------------------------------------------------------------
//
// Every pair is visited once (Newton's third law). For a point j, a vector loop over a run
// [lo, hi) of points i adds c d to dV/dq_i (contiguous arrays, no reduction) and keeps the
// sum of the c d in four lanes, lane k taking the i = lo + k (mod 4) in increasing order; then
// dV/dq_j -= (l0 + l1) + (l2 + l3). The four lanes are one register of 4 doubles (AVX2) or two
// of 2 (SSE2), written with GCC's vector extensions so that every sum runs in the same order
// in both: the results do not depend on the instruction set. Where a run's length is not a
// multiple of 4, its last group reads up to 3 entries past it (the arrays are 3 longer) and
// masks their terms to 0, which leaves every sum as it is; it writes back only the entries of
// the run (the others may belong to another thread's points).
//
// All pairs: the runs are i in [0, j), taken in blocks of kBlock points so that a block's
// x, y, z and accumulators stay in the L1 cache while every later j passes over it; each j
// keeps its four lanes (in sums_) from block to block, so the sums run in the same order as
// without blocks, and as in the two-pass loop this replaces (which stored a run's c d and then
// summed them over the same four lanes): the all-pairs gradient is bitwise the earlier one.
// With a cutoff: the runs of a cell list (models/cell_list.hpp), points sorted by cell.
//
// Threads (up to kernel_threads(), models/kernel_threads.hpp). The work is cut into tasks that
// do not depend on the number of threads, each writing memory no other task of its phase
// writes, and every sum runs in an order fixed by the tasks: the results are bitwise the same
// for any number of threads (and any scheduling of the tasks on them).
//   - All-pairs gradient: tile (I, J), I <= J, is block I's pass over the j of block J. It
//     adds to dV/dq of block I and to the lanes of block J (and on the diagonal, I = J,
//     subtracts the finished lanes from dV/dq_j). For every point these are the additions of
//     the blocked loop above in the same order, provided tile (I, J) runs after (I, J - 1)
//     (the order of block I's additions) and after (I - 1, J) (that of J's lanes); the tiles
//     of one anti-diagonal I + J = s satisfy both once the earlier anti-diagonals are done, and
//     write disjoint memory (distinct I, distinct J). So the anti-diagonals run one after
//     another, the tiles of each in parallel, and the gradient is bitwise the serial loop's
//     (the earlier one's) whatever the number of threads.
//   - All-pairs potential: the e_i of block I over all j > i, one task per block; then the
//     lane sums, serially.
//   - Cutoff gradient: the visits of plane cz (CellList::for_each_half_shell_in_plane) write
//     only points of planes cz and cz + 1, so the even planes run in parallel, then the odd
//     ones. Each point's sum then runs in the order (phase, plane, visit), which differs from
//     a plane-by-plane sweep (an even plane's points get their own plane's terms before those
//     of the plane below) but not with the threads.
//   - Cutoff potential: four lanes per plane, added over the planes in plane order.
//   - The copies in and out (q to x, y, z; the accumulators to grad): chunks of kChunk points;
//     the cell list's build: its counting sorts in chunks (CellList::build, same result).
// Below kParallelPairs (all pairs) or kParallelCells (cutoff) points everything runs on the
// calling thread (the same tasks in the same order): starting threads would cost more than it
// saves, e.g. on lee2009's 642 molecules.
//
// Instruction set. The default build targets plain x86-64 (SSE2). The loops are compiled
// twice, the second time for AVX2 by a target("avx2") attribute, and __builtin_cpu_supports
// picks one at run time: no -march=native, so the binary runs on any x86-64, and uses AVX2 on
// any machine that has it (CI's need not be this one). (Not target_clones: the two versions
// differ in the register width W, a template argument.) Neither version uses FMA: contracting
// a * b + c would round differently in the two, and the results would depend on the machine.
// Division stays (one per pair, correctly rounded), and no square root is needed.
//
// Measured (CPU time, g++ 12 -O3, a shared 2-core Xeon (Sapphire Rapids) VM at 2.6 GHz,
// bench_sphere_lj, medians of 5), ns per pair of the all-pairs gradient at n = 642 / 10^4:
// the earlier two-pass loop (SSE2) 1.86 / 1.81; these loops forced to SSE2 1.78 / 1.69, and
// in AVX2 0.86-0.93 / 0.82-0.87 over three runs. In a stand-alone copy of the loop at 10^4:
// AVX2 with FMA contraction 0.80 (not used, see above), AVX2 without the blocks 0.97.

// A multiple of 4; 6 arrays x 512 x 8 B = 24 kB, in L1. (256 makes more tiles to share among
// threads, but costs the serial sizes, below kParallelPairs, 7 % more instructions: the perf
// gate's 642 molecules.)
constexpr Eigen::Index kBlock = 512;
static_assert(kBlock % 4 == 0);
constexpr Eigen::Index kPadding = 3;
constexpr Eigen::Index kParallelPairs = 1024, kParallelCells = 4096, kChunk = 16384;

/// W doubles in one vector register (GCC vector extensions): W = 2 is SSE2, W = 4 AVX2.
template <int W>
struct Simd {
  // (typedef: GCC ignores the attribute in an alias declaration that depends on W)
  typedef double Real __attribute__((vector_size(8 * W)));
  typedef std::int64_t Mask __attribute__((vector_size(8 * W)));
  static constexpr int kRegisters = 4 / W;  // registers per group of four lanes
};

// Unaligned loads and stores (through references: a vector passed by value would change the
// calling convention between the two instruction sets).
template <class V>
[[gnu::always_inline]] inline void load(V& v, const double* p) {
  __builtin_memcpy(&v, p, sizeof v);
}
template <class V>
[[gnu::always_inline]] inline void store(double* p, const V& v) {
  __builtin_memcpy(p, &v, sizeof v);
}

/// (l0 + l1) + (l2 + l3).
inline double lane_sum(const double* l) { return (l[0] + l[1]) + (l[2] + l[3]); }

/// The structure-of-arrays scratch: coordinates and the accumulators of dV/dq.
struct Soa {
  const double* x;
  const double* y;
  const double* z;
  double* ax;
  double* ay;
  double* az;
};

/// The pairs (j, i), i in [lo, hi): a_i += c d, and the c d added to the lanes sum[0..3] (x),
/// sum[4..7] (y), sum[8..11] (z) as described above. kCut: c_c, zero beyond u_c.
template <int W, bool kCut>
[[gnu::always_inline]] inline void force_run(const Soa& p, Eigen::Index j, Eigen::Index lo,
                                             Eigen::Index hi, const PairTerms& t,
                                             double* __restrict sum) {
  using Real = typename Simd<W>::Real;
  using Mask = typename Simd<W>::Mask;
  constexpr int kRegisters = Simd<W>::kRegisters;
  const double* __restrict x = p.x;
  const double* __restrict y = p.y;
  const double* __restrict z = p.z;
  double* __restrict ax = p.ax;
  double* __restrict ay = p.ay;
  double* __restrict az = p.az;
  const double xj = x[j], yj = y[j], zj = z[j];
  Real sx[kRegisters], sy[kRegisters], sz[kRegisters];
  __builtin_memcpy(sx, sum, sizeof sx);
  __builtin_memcpy(sy, sum + 4, sizeof sy);
  __builtin_memcpy(sz, sum + 8, sizeof sz);
  Mask lane;
  for (int k = 0; k < W; ++k) lane[k] = k;
  for (Eigen::Index i = lo; i < hi; i += 4) {
    for (int h = 0; h < kRegisters; ++h) {
      const Eigen::Index at = i + W * h;
      Real px, py, pz;
      load(px, x + at);
      load(py, y + at);
      load(pz, z + at);
      const Real dx = px - xj, dy = py - yj, dz = pz - zj;
      const Real u = dx * dx + dy * dy + dz * dz;
      const Real inv_u = 1.0 / u;
      const Real s2 = t.sigma2 * inv_u;
      const Real s = s2 * s2 * s2;
      Real c = -t.eps24 * s * (2.0 * s - 1.0) * inv_u;
      if constexpr (kCut) c = u < t.cut2 ? c - t.c_cut : Real{};
      if (hi - i < 4) c = lane + at < hi ? c : Real{};
      const Real fx = c * dx, fy = c * dy, fz = c * dz;
      Real gx, gy, gz;
      load(gx, ax + at);
      load(gy, ay + at);
      load(gz, az + at);
      gx += fx;
      gy += fy;
      gz += fz;
      if (hi - i < 4) {
        for (int k = 0; k < W && at + k < hi; ++k) {
          ax[at + k] = gx[k];
          ay[at + k] = gy[k];
          az[at + k] = gz[k];
        }
      } else {
        store(ax + at, gx);
        store(ay + at, gy);
        store(az + at, gz);
      }
      sx[h] += fx;
      sy[h] += fy;
      sz[h] += fz;
    }
  }
  __builtin_memcpy(sum, sx, sizeof sx);
  __builtin_memcpy(sum + 4, sy, sizeof sy);
  __builtin_memcpy(sum + 8, sz, sizeof sz);
}

/// The pairs (j, i), i in [lo, hi): phi_c / (4 eps) added to the lanes sum[0..3] as above.
template <int W>
[[gnu::always_inline]] inline void energy_run(const Soa& p, Eigen::Index j, Eigen::Index lo,
                                              Eigen::Index hi, const PairTerms& t,
                                              double* __restrict sum) {
  using Real = typename Simd<W>::Real;
  using Mask = typename Simd<W>::Mask;
  constexpr int kRegisters = Simd<W>::kRegisters;
  const double* __restrict x = p.x;
  const double* __restrict y = p.y;
  const double* __restrict z = p.z;
  const double xj = x[j], yj = y[j], zj = z[j];
  Real se[kRegisters];
  __builtin_memcpy(se, sum, sizeof se);
  Mask lane;
  for (int k = 0; k < W; ++k) lane[k] = k;
  for (Eigen::Index i = lo; i < hi; i += 4) {
    for (int h = 0; h < kRegisters; ++h) {
      const Eigen::Index at = i + W * h;
      Real px, py, pz;
      load(px, x + at);
      load(py, y + at);
      load(pz, z + at);
      const Real dx = px - xj, dy = py - yj, dz = pz - zj;
      const Real u = dx * dx + dy * dy + dz * dz;
      const Real s2 = t.sigma2 / u;
      const Real s = s2 * s2 * s2;
      Real e = (s * s - s) - (t.e_cut + (u - t.cut2) * t.e_slope);
      e = u < t.cut2 ? e : Real{};
      if (hi - i < 4) e = lane + at < hi ? e : Real{};
      se[h] += e;
    }
  }
  __builtin_memcpy(sum, se, sizeof se);
}

/// Tile (I, J), I <= J, of the all-pairs gradient (see "Threads" above): the pairs (j, i), j
/// in block J, i < j in block I, into p.ax, p.ay, p.az (dV/dq_j too when I = J, its run then
/// complete) and the lanes sums[12 j ..], which tile (0, J) starts from zero.
template <int W>
[[gnu::always_inline]] inline void all_pairs_tile(const Soa& p, Eigen::Index n,
                                                  const PairTerms& t, double* sums,
                                                  Eigen::Index block_i, Eigen::Index block_j) {
  const Eigen::Index begin = block_i * kBlock, end = std::min(n, begin + kBlock);
  const Eigen::Index j_end = std::min(n, (block_j + 1) * kBlock);
  for (Eigen::Index j = std::max(block_j * kBlock, begin + 1); j < j_end; ++j) {
    const Eigen::Index hi = std::min(end, j);
    double* lanes = sums + 12 * j;
    if (block_i == 0) std::fill(lanes, lanes + 12, 0.0);
    force_run<W, false>(p, j, begin, hi, t, lanes);
    if (hi == j) {  // j's run [0, j) is complete
      p.ax[j] -= lane_sum(lanes);
      p.ay[j] -= lane_sum(lanes + 4);
      p.az[j] -= lane_sum(lanes + 8);
    }
  }
}

/// Block I of the all-pairs potential: e_i += s^2 - s over j > i, in increasing j, for the i
/// of block I (e: zero there on entry; the loop auto-vectorises, lane by lane, in either set).
[[gnu::always_inline]] inline void all_pairs_energy_block(const Soa& p, Eigen::Index n,
                                                          const PairTerms& t, double* e,
                                                          Eigen::Index block_i) {
  const double* __restrict x = p.x;
  const double* __restrict y = p.y;
  const double* __restrict z = p.z;
  double* __restrict acc = e;
  const Eigen::Index begin = block_i * kBlock, end = std::min(n, begin + kBlock);
  for (Eigen::Index j = begin + 1; j < n; ++j) {
    const double xj = x[j], yj = y[j], zj = z[j];
    const Eigen::Index hi = std::min(end, j);
    for (Eigen::Index i = begin; i < hi; ++i) {
      const double dx = x[i] - xj, dy = y[i] - yj, dz = z[i] - zj;
      const double s2 = t.sigma2 / (dx * dx + dy * dy + dz * dz);
      const double s = s2 * s2 * s2;
      acc[i] += s * s - s;
    }
  }
}

/// The cell list's pairs of plane cz into p.ax, p.ay, p.az, in sorted order.
template <int W>
[[gnu::always_inline]] inline void cell_gradient_plane(const Soa& p, const CellList& cells,
                                                       const PairTerms& t, int cz) {
  const auto visit = [&](Eigen::Index k, std::span<const CellList::Run> runs)
                         [[gnu::always_inline]] {
                           double lanes[12] = {};
                           for (const auto& run : runs)
                             force_run<W, true>(p, k, run.lo, run.hi, t, lanes);
                           p.ax[k] -= lane_sum(lanes);
                           p.ay[k] -= lane_sum(lanes + 4);
                           p.az[k] -= lane_sum(lanes + 8);
                         };
  cells.for_each_half_shell_in_plane(cz, visit);
}

/// V / (4 eps) over the cell list's pairs of plane cz, in the four lanes lanes[0..3] (set).
template <int W>
[[gnu::always_inline]] inline void cell_potential_plane(const Soa& p, const CellList& cells,
                                                        const PairTerms& t, int cz,
                                                        double* lanes) {
  std::fill(lanes, lanes + 4, 0.0);
  const auto visit = [&](Eigen::Index k, std::span<const CellList::Run> runs)
                         [[gnu::always_inline]] {
                           for (const auto& run : runs)
                             energy_run<W>(p, k, run.lo, run.hi, t, lanes);
                         };
  cells.for_each_half_shell_in_plane(cz, visit);
}

// The two instruction sets (see "Instruction set" above): the baseline (SSE2 on x86-64), and
// AVX2. One call is one task (see "Threads" above); the threads are started by the caller.
void all_pairs_tile_baseline(const Soa& p, Eigen::Index n, const PairTerms& t, double* sums,
                             Eigen::Index block_i, Eigen::Index block_j) {
  all_pairs_tile<2>(p, n, t, sums, block_i, block_j);
}
void all_pairs_energy_block_baseline(const Soa& p, Eigen::Index n, const PairTerms& t, double* e,
                                     Eigen::Index block_i) {
  all_pairs_energy_block(p, n, t, e, block_i);
}
void cell_gradient_plane_baseline(const Soa& p, const CellList& cells, const PairTerms& t,
                                  int cz) {
  cell_gradient_plane<2>(p, cells, t, cz);
}
void cell_potential_plane_baseline(const Soa& p, const CellList& cells, const PairTerms& t,
                                   int cz, double* lanes) {
  cell_potential_plane<2>(p, cells, t, cz, lanes);
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] void all_pairs_tile_avx2(const Soa& p, Eigen::Index n,
                                                 const PairTerms& t, double* sums,
                                                 Eigen::Index block_i, Eigen::Index block_j) {
  all_pairs_tile<4>(p, n, t, sums, block_i, block_j);
}
[[gnu::target("avx2")]] void all_pairs_energy_block_avx2(const Soa& p, Eigen::Index n,
                                                         const PairTerms& t, double* e,
                                                         Eigen::Index block_i) {
  all_pairs_energy_block(p, n, t, e, block_i);
}
[[gnu::target("avx2")]] void cell_gradient_plane_avx2(const Soa& p, const CellList& cells,
                                                      const PairTerms& t, int cz) {
  cell_gradient_plane<4>(p, cells, t, cz);
}
[[gnu::target("avx2")]] void cell_potential_plane_avx2(const Soa& p, const CellList& cells,
                                                       const PairTerms& t, int cz,
                                                       double* lanes) {
  cell_potential_plane<4>(p, cells, t, cz, lanes);
}
#endif

/// The loops for this machine, chosen once.
struct Loops {
  void (*all_pairs_tile)(const Soa&, Eigen::Index, const PairTerms&, double*, Eigen::Index,
                         Eigen::Index);
  void (*all_pairs_energy_block)(const Soa&, Eigen::Index, const PairTerms&, double*,
                                 Eigen::Index);
  void (*cell_gradient_plane)(const Soa&, const CellList&, const PairTerms&, int);
  void (*cell_potential_plane)(const Soa&, const CellList&, const PairTerms&, int, double*);
};

const Loops& loops() {
  static const Loops chosen = [] {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2"))
      return Loops{all_pairs_tile_avx2, all_pairs_energy_block_avx2, cell_gradient_plane_avx2,
                   cell_potential_plane_avx2};
#endif
    return Loops{all_pairs_tile_baseline, all_pairs_energy_block_baseline,
                 cell_gradient_plane_baseline, cell_potential_plane_baseline};
  }();
  return chosen;
}

/// Runs task(s, k) for the tasks k in [0, tasks(s)) of each phase s in [0, phases), the phases
/// one after another, the tasks of a phase on up to `threads` threads (OpenMP; with 1, on the
/// calling thread, in order, without OpenMP). Which thread runs a task is left to the runtime:
/// the tasks of a phase must write disjoint memory.
template <class Tasks, class Task>
void run_phases(int threads, Eigen::Index phases, const Tasks& tasks, const Task& task) {
  if (threads <= 1) {
    for (Eigen::Index s = 0; s < phases; ++s)
      for (Eigen::Index k = 0, count = tasks(s); k < count; ++k) task(s, k);
    return;
  }
#pragma omp parallel num_threads(threads)
  for (Eigen::Index s = 0; s < phases; ++s) {
    const Eigen::Index count = tasks(s);
#pragma omp for schedule(dynamic, 1)
    for (Eigen::Index k = 0; k < count; ++k) task(s, k);
  }
}

/// Runs body(lo, hi) over [0, n) in chunks of kChunk, on up to `threads` threads.
template <class Body>
void run_chunks(int threads, Eigen::Index n, const Body& body) {
  run_phases(
      threads, 1, [&](Eigen::Index) { return (n + kChunk - 1) / kChunk; },
      [&](Eigen::Index, Eigen::Index c) { body(c * kChunk, std::min(n, (c + 1) * kChunk)); });
}

}  // namespace

// ---- LennardJonesPairs -------------------------------------------------------------------

LennardJonesPairs::LennardJonesPairs(double epsilon, double sigma, Eigen::Index n, double cutoff)
    : epsilon_(epsilon), sigma_(sigma), cutoff_(cutoff), n_(n) {
  if (!(cutoff >= 0.0) || !std::isfinite(cutoff))
    throw InputError("LennardJonesPairs: the cutoff must be >= 0 and finite, got " +
                     std::to_string(cutoff));
  if (cutoff > 0.0) {
    cells_.emplace(cutoff * sigma, n);
    plane_lanes_.resize(4 * cells_->cells_per_axis());
  }
  for (Eigen::VectorXd* v : {&x_, &y_, &z_, &ax_, &ay_, &az_})
    *v = Eigen::VectorXd::Zero(n + kPadding);
  if (cutoff == 0.0) sums_.resize(12 * n);
}

int LennardJonesPairs::threads() const {
  return n_ >= (cells_ ? kParallelCells : kParallelPairs) ? kernel_threads() : 1;
}

void LennardJonesPairs::load(const Eigen::Matrix3Xd& q, int threads) const {
  eigen_assert(q.cols() == n_ && "LennardJonesPairs: q has the wrong number of points");
  if (cells_) cells_->build(q, threads);
  // Sorted position k reads column order[k] (a gather, which the memory serves better than
  // scattered writes).
  run_chunks(threads, n_, [&](Eigen::Index lo, Eigen::Index hi) {
    for (Eigen::Index k = lo; k < hi; ++k) {
      const Eigen::Index i = cells_ ? cells_->order()[k] : k;
      x_[k] = q(0, i);
      y_[k] = q(1, i);
      z_[k] = q(2, i);
      ax_[k] = ay_[k] = az_[k] = 0.0;
    }
  });
}

double LennardJonesPairs::potential(const Eigen::Matrix3Xd& q) const {
  const int threads = this->threads();
  load(q, threads);
  const Soa p{x_.data(), y_.data(), z_.data(), ax_.data(), ay_.data(), az_.data()};
  const PairTerms t = pair_terms(epsilon_, sigma_, cutoff_);
  const Loops& run = loops();
  double lanes[4] = {0.0, 0.0, 0.0, 0.0};
  if (cells_) {
    const int planes = cells_->cells_per_axis();
    run_phases(
        threads, 1, [&](Eigen::Index) { return planes; },
        [&](Eigen::Index, Eigen::Index cz) {
          run.cell_potential_plane(p, *cells_, t, static_cast<int>(cz), &plane_lanes_[4 * cz]);
        });
    for (int cz = 0; cz < planes; ++cz)
      for (int k = 0; k < 4; ++k) lanes[k] += plane_lanes_[4 * cz + k];
  } else {
    // e_i in ax_ (zeroed by load); then its sum in four interleaved lanes.
    run_phases(
        threads, 1, [&](Eigen::Index) { return (n_ + kBlock - 1) / kBlock; },
        [&](Eigen::Index, Eigen::Index block) {
          run.all_pairs_energy_block(p, n_, t, ax_.data(), block);
        });
    Eigen::Index i = 0;
    for (; i + 4 <= n_; i += 4)
      for (int k = 0; k < 4; ++k) lanes[k] += ax_[i + k];
    for (int k = 0; i < n_; ++i, ++k) lanes[k] += ax_[i];
  }
  return 4.0 * epsilon_ * lane_sum(lanes);
}

void LennardJonesPairs::gradient(const Eigen::Matrix3Xd& q, Eigen::Matrix3Xd& grad) const {
  const int threads = this->threads();
  load(q, threads);
  const Soa p{x_.data(), y_.data(), z_.data(), ax_.data(), ay_.data(), az_.data()};
  const PairTerms t = pair_terms(epsilon_, sigma_, cutoff_);
  const Loops& run = loops();
  if (cells_) {
    // Phase 0 the even planes, phase 1 the odd ones.
    const Eigen::Index planes = cells_->cells_per_axis();
    run_phases(
        threads, 2, [&](Eigen::Index phase) { return (planes - phase + 1) / 2; },
        [&](Eigen::Index phase, Eigen::Index k) {
          run.cell_gradient_plane(p, *cells_, t, static_cast<int>(2 * k + phase));
        });
  } else {
    // Anti-diagonal s holds the tiles (I, s - I), max(0, s - B + 1) <= I <= s / 2.
    const Eigen::Index blocks = (n_ + kBlock - 1) / kBlock;
    const auto first = [blocks](Eigen::Index s) { return std::max<Eigen::Index>(0, s - blocks + 1); };
    run_phases(
        threads, std::max<Eigen::Index>(0, 2 * blocks - 1),
        [&](Eigen::Index s) { return s / 2 - first(s) + 1; },
        [&](Eigen::Index s, Eigen::Index k) {
          const Eigen::Index block_i = first(s) + k;
          run.all_pairs_tile(p, n_, t, sums_.data(), block_i, s - block_i);
        });
  }
  run_chunks(threads, n_, [&](Eigen::Index lo, Eigen::Index hi) {
    for (Eigen::Index i = lo; i < hi; ++i) {
      const Eigen::Index k = cells_ ? cells_->rank()[i] : i;
      grad(0, i) = ax_[k];
      grad(1, i) = ay_[k];
      grad(2, i) = az_[k];
    }
  });
}

double LennardJonesPairs::pair_energy(double r) const {
  const double s = std::pow(sigma_ / r, 6);
  const double phi = 4.0 * epsilon_ * (s * s - s);
  if (cutoff_ == 0.0) return phi;
  const PairTerms t = pair_terms(epsilon_, sigma_, cutoff_);
  if (!(r * r < t.cut2)) return 0.0;
  return phi - 4.0 * epsilon_ * (t.e_cut + (r * r - t.cut2) * t.e_slope);
}

double LennardJonesPairs::pair_force(double r) const {
  const double s = std::pow(sigma_ / r, 6);
  const double force = -24.0 * epsilon_ * s * (2.0 * s - 1.0) / r;
  if (cutoff_ == 0.0) return force;
  // d phi_c / dr = d phi / dr - 2 r dphi/du(u_c) = (c(u) - c(u_c)) r.
  const PairTerms t = pair_terms(epsilon_, sigma_, cutoff_);
  return r * r < t.cut2 ? force - t.c_cut * r : 0.0;
}

// In u = |d|^2 with s = (sigma^2 / u)^3: phi = 4 eps (s^2 - s), dphi/du = c(u) / 2 and
// d^2phi/du^2 = 4 eps (42 s^2 - 12 s) / u^2, so that the Hessian of phi(|d|^2) in d is
//   2 dphi/du I + 4 d^2phi/du^2 d d^T = c(u) I + 24 eps (28 s^2 - 8 s) / u^2 d d^T;
// the cutoff form subtracts c(u_c) from c(u) inside r_c and is 0 beyond.
Eigen::Matrix3d LennardJonesPairs::pair_hessian(const Eigen::Vector3d& d) const {
  const PairTerms t = pair_terms(epsilon_, sigma_, cutoff_);
  const double u = d.squaredNorm();
  if (!(u < t.cut2)) return Eigen::Matrix3d::Zero();
  const double s2 = t.sigma2 / u, s = s2 * s2 * s2;
  const double c = -t.eps24 * s * (2.0 * s - 1.0) / u - t.c_cut;
  const double curvature = t.eps24 * (28.0 * s * s - 8.0 * s) / (u * u);
  return c * Eigen::Matrix3d::Identity() + curvature * d * d.transpose();
}

Eigen::Index LennardJonesPairs::evaluated_pairs(const Eigen::Matrix3Xd& q) const {
  if (!cells_) return n_ * (n_ - 1) / 2;
  cells_->build(q);
  Eigen::Index pairs = 0;
  cells_->for_each_half_shell([&](Eigen::Index, std::span<const CellList::Run> runs) {
    for (const auto& run : runs) pairs += run.hi - run.lo;
  });
  return pairs;
}

}  // namespace geomint
