#include "models/lennard_jones_pairs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

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
// masks their terms to 0, which leaves every sum as it is.
//
// All pairs: the runs are i in [0, j), taken in blocks of kBlock points so that a block's
// x, y, z and accumulators stay in the L1 cache while every later j passes over it; each j
// keeps its four lanes (in sums_) from block to block, so the sums run in the same order as
// without blocks, and as in the two-pass loop this replaces (which stored a run's c d and then
// summed them over the same four lanes): the all-pairs gradient is bitwise the earlier one.
// With a cutoff: the runs of a cell list (models/cell_list.hpp), points sorted by cell.
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

constexpr Eigen::Index kBlock = 512;  // a multiple of 4; 6 arrays x 512 x 8 B = 24 kB
static_assert(kBlock % 4 == 0);
constexpr Eigen::Index kPadding = 3;

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
      store(ax + at, gx + fx);
      store(ay + at, gy + fy);
      store(az + at, gz + fz);
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

/// dV/dq over all pairs into p.ax, p.ay, p.az (zero on entry); sums: 12 n zeros.
template <int W>
[[gnu::always_inline]] inline void all_pairs_gradient(const Soa& p, Eigen::Index n,
                                                      const PairTerms& t, double* sums) {
  for (Eigen::Index begin = 0; begin < n; begin += kBlock) {
    const Eigen::Index end = std::min(n, begin + kBlock);
    for (Eigen::Index j = begin + 1; j < n; ++j) {
      const Eigen::Index hi = std::min(end, j);
      double* lanes = sums + 12 * j;
      force_run<W, false>(p, j, begin, hi, t, lanes);
      if (hi == j) {  // j's run [0, j) is complete
        p.ax[j] -= lane_sum(lanes);
        p.ay[j] -= lane_sum(lanes + 4);
        p.az[j] -= lane_sum(lanes + 8);
      }
    }
  }
}

/// V / (4 eps) over all pairs: for each j, e_i += s^2 - s over i < j, then the sum of e in
/// four lanes (e: n + 3 zeros; the loop auto-vectorises, lane by lane, in either set).
[[gnu::always_inline]] inline double all_pairs_potential(const Soa& p, Eigen::Index n,
                                                         const PairTerms& t, double* e) {
  const double* __restrict x = p.x;
  const double* __restrict y = p.y;
  const double* __restrict z = p.z;
  double* __restrict acc = e;
  for (Eigen::Index j = 1; j < n; ++j) {
    const double xj = x[j], yj = y[j], zj = z[j];
    for (Eigen::Index i = 0; i < j; ++i) {
      const double dx = x[i] - xj, dy = y[i] - yj, dz = z[i] - zj;
      const double s2 = t.sigma2 / (dx * dx + dy * dy + dz * dz);
      const double s = s2 * s2 * s2;
      acc[i] += s * s - s;
    }
  }
  double lane[4] = {0.0, 0.0, 0.0, 0.0};
  Eigen::Index i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) lane[k] += acc[i + k];
  for (int k = 0; i < n; ++i, ++k) lane[k] += acc[i];
  return lane_sum(lane);
}

/// dV/dq over the cell list's pairs into p.ax, p.ay, p.az (zero on entry), in sorted order.
template <int W>
[[gnu::always_inline]] inline void cell_gradient(const Soa& p, const CellList& cells,
                                                 const PairTerms& t) {
  const auto visit = [&](Eigen::Index k, std::span<const CellList::Run> runs)
                         [[gnu::always_inline]] {
                           double lanes[12] = {};
                           for (const auto& run : runs)
                             force_run<W, true>(p, k, run.lo, run.hi, t, lanes);
                           p.ax[k] -= lane_sum(lanes);
                           p.ay[k] -= lane_sum(lanes + 4);
                           p.az[k] -= lane_sum(lanes + 8);
                         };
  cells.for_each_half_shell(visit);
}

/// V / (4 eps) over the cell list's pairs, summed in four lanes.
template <int W>
[[gnu::always_inline]] inline double cell_potential(const Soa& p, const CellList& cells,
                                                    const PairTerms& t) {
  double lanes[4] = {};
  const auto visit = [&](Eigen::Index k, std::span<const CellList::Run> runs)
                         [[gnu::always_inline]] {
                           for (const auto& run : runs)
                             energy_run<W>(p, k, run.lo, run.hi, t, lanes);
                         };
  cells.for_each_half_shell(visit);
  return lane_sum(lanes);
}

// The two instruction sets (see "Instruction set" above): the baseline (SSE2 on x86-64), and
// AVX2.
void all_pairs_gradient_baseline(const Soa& p, Eigen::Index n, const PairTerms& t, double* sums) {
  all_pairs_gradient<2>(p, n, t, sums);
}
double all_pairs_potential_baseline(const Soa& p, Eigen::Index n, const PairTerms& t, double* e) {
  return all_pairs_potential(p, n, t, e);
}
void cell_gradient_baseline(const Soa& p, const CellList& cells, const PairTerms& t) {
  cell_gradient<2>(p, cells, t);
}
double cell_potential_baseline(const Soa& p, const CellList& cells, const PairTerms& t) {
  return cell_potential<2>(p, cells, t);
}

#if defined(__x86_64__)
[[gnu::target("avx2")]] void all_pairs_gradient_avx2(const Soa& p, Eigen::Index n,
                                                     const PairTerms& t, double* sums) {
  all_pairs_gradient<4>(p, n, t, sums);
}
[[gnu::target("avx2")]] double all_pairs_potential_avx2(const Soa& p, Eigen::Index n,
                                                        const PairTerms& t, double* e) {
  return all_pairs_potential(p, n, t, e);
}
[[gnu::target("avx2")]] void cell_gradient_avx2(const Soa& p, const CellList& cells,
                                                const PairTerms& t) {
  cell_gradient<4>(p, cells, t);
}
[[gnu::target("avx2")]] double cell_potential_avx2(const Soa& p, const CellList& cells,
                                                   const PairTerms& t) {
  return cell_potential<4>(p, cells, t);
}
#endif

/// The loops for this machine, chosen once.
struct Loops {
  void (*all_pairs_gradient)(const Soa&, Eigen::Index, const PairTerms&, double*);
  double (*all_pairs_potential)(const Soa&, Eigen::Index, const PairTerms&, double*);
  void (*cell_gradient)(const Soa&, const CellList&, const PairTerms&);
  double (*cell_potential)(const Soa&, const CellList&, const PairTerms&);
};

const Loops& loops() {
  static const Loops chosen = [] {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2"))
      return Loops{all_pairs_gradient_avx2, all_pairs_potential_avx2, cell_gradient_avx2,
                   cell_potential_avx2};
#endif
    return Loops{all_pairs_gradient_baseline, all_pairs_potential_baseline, cell_gradient_baseline,
                 cell_potential_baseline};
  }();
  return chosen;
}

}  // namespace

// ---- LennardJonesPairs -------------------------------------------------------------------

LennardJonesPairs::LennardJonesPairs(double epsilon, double sigma, Eigen::Index n, double cutoff)
    : epsilon_(epsilon), sigma_(sigma), cutoff_(cutoff), n_(n) {
  if (!(cutoff >= 0.0) || !std::isfinite(cutoff))
    throw InputError("LennardJonesPairs: the cutoff must be >= 0 and finite, got " +
                     std::to_string(cutoff));
  if (cutoff > 0.0) cells_.emplace(cutoff * sigma, n);
  for (Eigen::VectorXd* v : {&x_, &y_, &z_, &ax_, &ay_, &az_})
    *v = Eigen::VectorXd::Zero(n + kPadding);
  if (cutoff == 0.0) sums_.resize(12 * n);
}

void LennardJonesPairs::load(const Eigen::Matrix3Xd& q) const {
  eigen_assert(q.cols() == n_ && "LennardJonesPairs: q has the wrong number of points");
  if (cells_) cells_->build(q);
  // Sorted position k reads column order[k] (a gather, which the memory serves better than
  // scattered writes).
  for (Eigen::Index k = 0; k < n_; ++k) {
    const Eigen::Index i = cells_ ? cells_->order()[k] : k;
    x_[k] = q(0, i);
    y_[k] = q(1, i);
    z_[k] = q(2, i);
    ax_[k] = ay_[k] = az_[k] = 0.0;
  }
}

double LennardJonesPairs::potential(const Eigen::Matrix3Xd& q) const {
  load(q);
  const Soa p{x_.data(), y_.data(), z_.data(), ax_.data(), ay_.data(), az_.data()};
  const PairTerms t = pair_terms(epsilon_, sigma_, cutoff_);
  if (cells_) return 4.0 * epsilon_ * loops().cell_potential(p, *cells_, t);
  return 4.0 * epsilon_ * loops().all_pairs_potential(p, n_, t, ax_.data());
}

void LennardJonesPairs::gradient(const Eigen::Matrix3Xd& q, Eigen::Matrix3Xd& grad) const {
  load(q);
  const Soa p{x_.data(), y_.data(), z_.data(), ax_.data(), ay_.data(), az_.data()};
  const PairTerms t = pair_terms(epsilon_, sigma_, cutoff_);
  if (cells_) {
    loops().cell_gradient(p, *cells_, t);
  } else {
    sums_.setZero();
    loops().all_pairs_gradient(p, n_, t, sums_.data());
  }
  for (Eigen::Index i = 0; i < n_; ++i) {
    const Eigen::Index k = cells_ ? cells_->rank()[i] : i;
    grad(0, i) = ax_[k];
    grad(1, i) = ay_[k];
    grad(2, i) = az_[k];
  }
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
