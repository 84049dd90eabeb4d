#pragma once
// Which output points a plot's recorder keeps (the `curves`, `components` and `paths` plots):
// the first in each of `bins` equal time bins of [0, T] and, given a zoom window [a, b] inside
// it, the first in each of `bins` equal bins of the window too, so that a window of a tenth of
// the run is drawn as finely as the whole run.

#include <algorithm>
#include <cmath>
#include <limits>

namespace geomint {

class TimeBins {
 public:
  static constexpr int kBins = 2000;

  explicit TimeBins(double T, int bins = kBins, double zoom_start = std::numeric_limits<double>::quiet_NaN(),
                    double zoom_end = std::numeric_limits<double>::quiet_NaN())
      : T_(T), bins_(bins), zoom_start_(zoom_start), zoom_end_(zoom_end) {}

  /// Whether t (not decreasing from call to call) falls in a bin no earlier point fell in.
  bool take(double t) {
    const long b = bin(t);
    if (b <= last_) return false;
    last_ = b;
    return true;
  }

 private:
  long whole(double t) const { return std::min<long>(bins_ - 1, static_cast<long>(std::floor(bins_ * t / T_))); }
  /// Increasing in t: the window's bins are numbered after the whole run's bin of its start,
  /// and the bins after the window after the window's.
  long bin(double t) const {
    if (!(zoom_end_ > zoom_start_) || t < zoom_start_) return whole(t);
    if (t > zoom_end_) return whole(t) + bins_ + 1;
    const double share = (t - zoom_start_) / (zoom_end_ - zoom_start_);
    return whole(zoom_start_) + 1 + std::min<long>(bins_ - 1, static_cast<long>(std::floor(bins_ * share)));
  }

  double T_;
  int bins_;
  double zoom_start_, zoom_end_;
  long last_ = -1;
};

}  // namespace geomint
