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
      count_x_(m_) {}

void CellList::build(const Eigen::Matrix3Xd& q) {
  eigen_assert(q.cols() == order_.size() && "CellList: q has the wrong number of points");
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

}  // namespace geomint
