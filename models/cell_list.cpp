#include "models/cell_list.hpp"

#include <cmath>
#include <string>

#include "models/parameters.hpp"

namespace geomint {

namespace {

/// m = floor(2 / reach), at least 1, and with m^2 at most 8 n (and 2^30) so that the rows
/// cost O(n) memory and time when reach is small (larger cells are still correct, only less
/// selective). The factor 1 - 1e-9 keeps the cell side above reach by more than the rounding
/// of the cell coordinates (a few u m), so that rounding cannot put two points closer than
/// reach two cells apart.
int cells_per_axis_for(double reach, Eigen::Index n) {
  if (n >= Eigen::Index{1} << 31)
    throw InputError("CellList: at most 2^31 - 1 points, got " + std::to_string(n));
  if (!(reach > 0.0) || !std::isfinite(reach))
    throw InputError("CellList: the reach must be positive and finite, got " +
                     std::to_string(reach));
  const double by_reach = std::floor(2.0 / reach * (1.0 - 1e-9));
  const double rows = std::min(8.0 * static_cast<double>(std::max<Eigen::Index>(n, 1)), 0x1p30);
  return static_cast<int>(std::max(1.0, std::min(by_reach, std::floor(std::sqrt(rows)))));
}

}  // namespace

CellList::CellList(double reach, Eigen::Index n)
    : m_(cells_per_axis_for(reach, n)),
      cells_per_unit_(0.5 * m_),
      row_start_(static_cast<Eigen::Index>(m_) * m_ + 1),
      cell_x_(n),
      order_(n),
      rank_(n),
      keys_(static_cast<std::size_t>(n)),
      by_x_(static_cast<std::size_t>(n)),
      count_x_(m_),
      chunk_x_(kChunks * static_cast<Eigen::Index>(m_)),
      chunk_row_(kChunks * static_cast<Eigen::Index>(m_) * m_) {}

void CellList::build(const Eigen::Matrix3Xd& q, int threads) {
  eigen_assert(q.cols() == order_.size() && "CellList: q has the wrong number of points");
  // Below some 3 x 10^4 points the threads would cost more than they save.
  if (threads > 1 && q.cols() >= 32768) return build_in_chunks(q, threads);
  const Eigen::Index n = q.cols();
  // Cell coordinate floor((x + 1) m / 2), clamped to [0, m - 1] (a NaN goes to 0); in
  // [0, m) the conversion to int is the floor.
  const auto axis = [this](double x) {
    const double t = (x + 1.0) * cells_per_unit_;
    return t >= 0.0 ? (t < m_ ? static_cast<int>(t) : m_ - 1) : 0;
  };
  // Counting sorts: a bucket's count, then (inclusive prefix sum) its end; filling each
  // bucket from its end, over the input in reverse, leaves the count at the bucket's start
  // and keeps the input order within a bucket.
  count_x_.setZero();
  row_start_.setZero();
  const Eigen::Index rows = row_start_.size() - 1;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Key key{static_cast<std::int32_t>(i), axis(q(0, i)), axis(q(1, i)) + m_ * axis(q(2, i))};
    keys_[static_cast<std::size_t>(i)] = key;
    ++count_x_[key.x];
    ++row_start_[key.row];
  }
  for (Eigen::Index c = 1; c < m_; ++c) count_x_[c] += count_x_[c - 1];
  for (Eigen::Index r = 1; r <= rows; ++r) row_start_[r] += row_start_[r - 1];
  for (auto key = keys_.rbegin(); key != keys_.rend(); ++key)
    by_x_[static_cast<std::size_t>(--count_x_[key->x])] = *key;
  for (auto key = by_x_.rbegin(); key != by_x_.rend(); ++key) {
    const std::int32_t k = --row_start_[key->row];
    order_[k] = key->column;
    rank_[key->column] = k;
    cell_x_[k] = key->x;
  }
}

/// The same counting sorts as build's, with the points in kChunks chunks: each chunk counts
/// its keys per bucket, a prefix sum over (bucket, chunk) gives each chunk its first position
/// in each bucket, and each chunk fills its positions in input order, so the sorts are stable
/// and their results those of the serial ones. The chunks run on up to `threads` threads.
void CellList::build_in_chunks(const Eigen::Matrix3Xd& q, int threads) {
  const Eigen::Index n = q.cols(), rows = row_start_.size() - 1;
  const auto axis = [this](double x) {
    const double t = (x + 1.0) * cells_per_unit_;
    return t >= 0.0 ? (t < m_ ? static_cast<int>(t) : m_ - 1) : 0;
  };
  const auto chunk_begin = [n](Eigen::Index c) { return n * c / kChunks; };
  // Exclusive prefix sum over (bucket, chunk): counts[c * buckets + b] becomes the first
  // position of chunk c in bucket b; returns the start of every bucket in `start` (if given).
  const auto positions = [](Indices& counts, Eigen::Index buckets, Indices* start) {
    std::int32_t next = 0;
    for (Eigen::Index b = 0; b < buckets; ++b) {
      if (start) (*start)[b] = next;
      for (Eigen::Index c = 0; c < kChunks; ++c) {
        const std::int32_t count = counts[c * buckets + b];
        counts[c * buckets + b] = next;
        next += count;
      }
    }
    if (start) (*start)[buckets] = next;
  };
  chunk_x_.setZero();
  chunk_row_.setZero();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (Eigen::Index c = 0; c < kChunks; ++c) {
    std::int32_t* count = chunk_x_.data() + c * m_;
    for (Eigen::Index i = chunk_begin(c); i < chunk_begin(c + 1); ++i) {
      const Key key{static_cast<std::int32_t>(i), axis(q(0, i)),
                    axis(q(1, i)) + m_ * axis(q(2, i))};
      keys_[static_cast<std::size_t>(i)] = key;
      ++count[key.x];
    }
  }
  positions(chunk_x_, m_, nullptr);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (Eigen::Index c = 0; c < kChunks; ++c) {
    std::int32_t* next = chunk_x_.data() + c * m_;
    for (Eigen::Index i = chunk_begin(c); i < chunk_begin(c + 1); ++i) {
      const Key& key = keys_[static_cast<std::size_t>(i)];
      by_x_[static_cast<std::size_t>(next[key.x]++)] = key;
    }
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (Eigen::Index c = 0; c < kChunks; ++c) {
    std::int32_t* count = chunk_row_.data() + c * rows;
    for (Eigen::Index i = chunk_begin(c); i < chunk_begin(c + 1); ++i)
      ++count[by_x_[static_cast<std::size_t>(i)].row];
  }
  positions(chunk_row_, rows, &row_start_);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
  for (Eigen::Index c = 0; c < kChunks; ++c) {
    std::int32_t* next = chunk_row_.data() + c * rows;
    for (Eigen::Index i = chunk_begin(c); i < chunk_begin(c + 1); ++i) {
      const Key& key = by_x_[static_cast<std::size_t>(i)];
      const std::int32_t k = next[key.row]++;
      order_[k] = key.column;
      rank_[key.column] = k;
      cell_x_[k] = key.x;
    }
  }
}

}  // namespace geomint
