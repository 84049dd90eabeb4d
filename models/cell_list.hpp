#pragma once
// A cell list for points near the unit sphere: the cube [-1, 1]^3 is cut into m^3 cubic cells
// of side 2/m >= `reach`, the points are sorted by cell, and every pair closer than `reach`
// is then found among the points of the same or an adjacent cell (a standard device of
// molecular dynamics; Allen & Tildesley, Computer Simulation of Liquids, 2nd ed., Section 5.3).
//
// Cell (cx, cy, cz) lies in row (cy, cz), one of m^2 rows along x. The points are sorted by
// row, cy + m cz, and within a row by cx (two stable counting sorts, the first by cx), so the
// points of a row, and those of any three cells cx - 1 .. cx + 1 of it, are one contiguous run
// of sorted positions. Only the m^2 row starts are tabulated, not the m^3 cells: at a fixed
// density on the sphere m^2 grows like n but m^3 like n^1.5. Rebinning costs O(n + m^2), m^2
// is capped at 8 n, and after construction nothing is allocated.
//
// Of a cell's 26 neighbours, the 13 later in the order (cz, cy, cx) form its "half shell";
// visiting each point's later points in its own cell and those in its half shell meets every
// unordered pair of neighbouring points exactly once (Newton's third law then gives both
// forces of the pair). They are 5 runs of sorted positions:
//   - the own row: the later points of the own cell and those of cell cx + 1;
//   - rows (cy + dy, cz + dz), (dy, dz) = (1, 0), (-1, 1), (0, 1), (1, 1): cells cx - 1 .. cx + 1.
// Along a row the runs move forward as cx grows, so cursors that only advance find them.

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace geomint {

class CellList {
 public:
  // 32-bit indices: half the memory traffic of Eigen::Index in the sorts.
  using Indices = Eigen::Matrix<std::int32_t, Eigen::Dynamic, 1>;

  /// Cells for n < 2^31 points, of side >= reach > 0.
  CellList(double reach, Eigen::Index n);

  /// Cells per axis, m.
  int cells_per_axis() const { return m_; }

  /// Sorts the columns of q (q.cols() == n) by cell; a point outside [-1, 1]^3 goes to the
  /// nearest boundary cell, which keeps every pair closer than `reach` within adjacent cells
  /// (clamping a coordinate to the cube never moves two points further apart in cell units).
  /// On up to `threads` threads (OpenMP) when threads > 1 and n is large: the same sorts,
  /// over kChunks chunks of the points, with the same result (a stable sort has only one).
  void build(const Eigen::Matrix3Xd& q, int threads = 1);

  /// order()[k]: the column of q at sorted position k (ascending within a cell).
  const Indices& order() const { return order_; }
  /// rank()[i]: the sorted position of column i of q (order()[rank()[i]] = i).
  const Indices& rank() const { return rank_; }

  /// A run [lo, hi) of sorted positions.
  struct Run {
    Eigen::Index lo, hi;
  };

  /// Calls visit(k, runs) for every sorted position k, in order, with the runs of sorted
  /// positions in k's own row after k (runs[0], possibly empty) and in its half shell (see the
  /// file comment): every pair of points closer than `reach` appears as exactly one (k, i), i
  /// in one of k's runs, and every i > k. Always inlined, so that a caller compiled for
  /// another instruction set (lennard_jones_pairs.cpp) compiles `visit` for it too.
  template <class Visit>
  [[gnu::always_inline]] inline void for_each_half_shell(Visit&& visit) const;

  /// The same for the sorted positions k of plane cz (the rows (cy, cz), cy = 0 .. m - 1), in
  /// the same order: for_each_half_shell is this for cz = 0 .. m - 1. Every i in k's runs lies
  /// in plane cz or cz + 1, so the visits of planes two apart touch disjoint points (what lets
  /// lennard_jones_pairs.cpp run the even planes, then the odd ones, on several threads).
  template <class Visit>
  [[gnu::always_inline]] inline void for_each_half_shell_in_plane(int cz, Visit&& visit) const;

 private:
  int m_;
  double cells_per_unit_;  // m / 2
  Indices row_start_;      // row r: sorted positions row_start_[r] .. row_start_[r + 1]
  Indices cell_x_;         // cx of the point at each sorted position
  Indices order_, rank_;
  // Build scratch: per column of q its cx and row, then the same sorted by cx (carried along
  // so that the second sort reads them in order); counts per cx.
  struct Key {
    std::int32_t column, x, row;
  };
  std::vector<Key> keys_, by_x_;
  Indices count_x_;
  // The threaded build: per chunk of kChunks, counts per cx (m each) and per row (m^2 each),
  // then the chunk's first position in each bucket.
  static constexpr int kChunks = 4;
  Indices chunk_x_, chunk_row_;
  void build_in_chunks(const Eigen::Matrix3Xd& q, int threads);
};

template <class Visit>
inline void CellList::for_each_half_shell(Visit&& visit) const {
  for (int cz = 0; cz < m_; ++cz) for_each_half_shell_in_plane(cz, visit);
}

template <class Visit>
inline void CellList::for_each_half_shell_in_plane(int cz, Visit&& visit) const {
  constexpr int kRows[4][2] = {{1, 0}, {-1, 1}, {0, 1}, {1, 1}};  // (dy, dz)
  for (int cy = 0; cy < m_; ++cy) {
    Eigen::Index k = row_start_[cy + m_ * cz];
    const Eigen::Index row_end = row_start_[cy + m_ * cz + 1];
    if (k == row_end) continue;
    // Cursors into the four half-shell rows: [lo, hi) holds their cells cx - 1 .. cx + 1.
    Eigen::Index lo[4], hi[4], end[4];
    int rows = 0;
    for (const auto& [dy, dz] : kRows) {
      const int ny = cy + dy, nz = cz + dz;
      if (ny < 0 || ny >= m_ || nz >= m_) continue;
      lo[rows] = hi[rows] = row_start_[ny + m_ * nz];
      end[rows] = row_start_[ny + m_ * nz + 1];
      rows += lo[rows] < end[rows];
    }
    Eigen::Index own_hi = k;
    while (k < row_end) {  // one cell, cx = cell_x_[k], per pass
      const int cx = cell_x_[k];
      Eigen::Index cell_end = k + 1;
      while (cell_end < row_end && cell_x_[cell_end] == cx) ++cell_end;
      own_hi = std::max(own_hi, cell_end);
      while (own_hi < row_end && cell_x_[own_hi] <= cx + 1) ++own_hi;
      Run runs[5];
      std::size_t count = 1;
      for (int r = 0; r < rows; ++r) {
        while (lo[r] < end[r] && cell_x_[lo[r]] < cx - 1) ++lo[r];
        hi[r] = std::max(hi[r], lo[r]);
        while (hi[r] < end[r] && cell_x_[hi[r]] <= cx + 1) ++hi[r];
        if (lo[r] < hi[r]) runs[count++] = {lo[r], hi[r]};
      }
      for (; k < cell_end; ++k) {
        runs[0] = {k + 1, own_hi};
        visit(k, std::span<const Run>(runs, count));
      }
    }
  }
}

}  // namespace geomint
