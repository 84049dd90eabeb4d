#pragma once
// The order of a fixed-step method measured where it is asymptotic: the window of step sizes
// whose local slopes agree, between the pre-asymptotic regime (large steps) and the reference's
// error floor (small steps), and what to run next when there is none.
//
// With points (h_i, e_i) ordered by decreasing h, the local slope between neighbours is
//   s_i = log(e_i / e_{i+1}) / log(h_i / h_{i+1}),
// the order the error shows over that halving (or whatever the ratio is). Points at or below
// the floor (the reference's own error, or round-off) and points whose error is no accuracy at
// all (above the ceiling) are left out before the slopes are taken. A window is a run of at least
// three consecutive points whose local slopes are positive and agree: max s - min s <= the
// agreement (kWindowAgreement * max(p, 3), p the nominal order: 0.3 up to order 3, 0.4 at 4,
// 0.6 at 6, the spread a pre-asymptotic term of relative size ~h leaves over two halvings). Of
// the windows, the one reaching the smallest step wins, and of those the longest. The order is
// the least-squares slope over the window, reported with the fit's quality the way Principia's
// order tests do: |p_fit / p - 1| and the correlation of log e with log h.

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace geomint {

inline constexpr double kWindowAgreement = 0.1;
/// A fitted order more than this below the nominal one is lost order (a broken promise); more
/// than this above it is "converging from above" (kept). The ctest order suites use the same.
inline constexpr double kOrderTolerance = 0.2;

struct OrderWindow {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  int nominal = 0;
  std::vector<std::pair<double, double>> points;  // (h, e) above floor and below ceiling, h decreasing
  std::vector<double> local_slopes;               // between consecutive points (size - 1 of them)
  int total = 0;                                  // finite points given
  double smallest_step = kNaN;                    // of the finite points given
  bool smallest_at_floor = false;                 // its error is at or below the floor
  int at_floor = 0, above_ceiling = 0;            // left out, and why
  int first = -1, last = -1;                      // the window: indices into points, or -1
  double order = kNaN;                            // least-squares slope over the window
  double residual = kNaN;                         // rms of the fit, log10 units
  double correlation = kNaN;                      // of log10 e with log10 h over the window
  bool found() const { return first >= 0; }
  int size() const { return found() ? last - first + 1 : 0; }
  /// |order / nominal - 1|, the fit's quality against the nominal order.
  double relative_deviation() const;
  bool below_nominal() const { return found() && order < nominal - kOrderTolerance; }
  bool above_nominal() const { return found() && order > nominal + kOrderTolerance; }
  /// Why there is no window, in words (empty when there is one).
  std::string why_none() const;
};

/// The window of (h, e) points (any order; non-finite and non-positive ones are dropped) with
/// errors at or below `floor` and at or above `ceiling` left out.
OrderWindow find_order_window(std::vector<std::pair<double, double>> points, double floor,
                              double ceiling, int nominal);

/// Least-squares slope of log10 y on log10 x, the rms residual (log10 units) and the
/// correlation coefficient, over points[first..last].
struct LogLogFit {
  double slope, residual, correlation;
};
LogLogFit log_log_fit(const std::vector<std::pair<double, double>>& points, std::size_t first,
                      std::size_t last);

/// Where to look for a window next: a step size to add, or NaN for nothing more to try. With no
/// window, or one whose order is below nominal: half the smallest step tried when that case
/// finished with an error above the floor (the asymptotic regime may lie below it), else twice
/// the largest step tried when fewer than three points are above the floor (they may lie above);
/// never smaller than `finest` nor larger than `coarsest`.
double next_window_step(const OrderWindow& window, const std::vector<double>& tried, double finest,
                        double coarsest);

}  // namespace geomint
