#pragma once
// The convergence of each integrator in each experiment, from the finished case records: the
// order of a fixed-step method in its asymptotic window (studies/order_window.hpp), and the
// slope of an adaptive method's error against its mean step, which is not an order (step
// control ties the error to the tolerance, not to the step); written as orders.csv
// (docs/result-files.md).

#include <limits>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/order_window.hpp"
#include "studies/spec.hpp"

namespace geomint {

/// The errors an experiment's reference can resolve: at or below `floor` a global error says
/// nothing (the reference's own error, or round-off in |y_ref|); at or above `ceiling` (a tenth of
/// |y_ref(T)|) it is no accuracy at all.
struct ErrorScale {
  double floor = 0.0;
  double ceiling = std::numeric_limits<double>::infinity();
};

/// One integrator in one experiment that has a reference.
struct PairConvergence {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  const ExperimentSpec* experiment = nullptr;
  std::string integrator;
  int nominal = 0;
  bool adaptive = false;
  std::vector<double> listed;  // the step sizes the spec lists (fixed-step)
  std::vector<double> tried;   // every step size run, listed or added
  int added = 0;               // of them, added by the window search (studies/window_search.hpp)
  int cases = 0;               // of the pair, whatever their status
  int finished = 0;            // of them, those that finished (status ok)
  OrderWindow window;          // fixed-step: over the finished cases
  double mean_step_slope = kNaN;  // adaptive: least squares over the points in range
  int mean_step_points = 0;
  /// An order is measured where the spec lists at least three step sizes (an order needs three
  /// points, and an experiment listing fewer runs its steps for something else).
  bool measures_order() const { return !adaptive && listed.size() >= 3; }
};

/// Every (experiment, integrator) pair of the records whose experiment has a reference (by
/// experiment name in `scales`), in spec order.
std::vector<PairConvergence> measure_convergence(const StudySpec& spec,
                                                 const std::vector<nlohmann::json>& records,
                                                 const std::map<std::string, ErrorScale>& scales);

/// orders.csv: a row per pair with at least two finished cases.
std::string orders_csv(const std::string& study, const std::vector<PairConvergence>& pairs);

}  // namespace geomint
