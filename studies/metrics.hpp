#pragma once
// Every metric the bench reports, defined once, with the papers' definitions.
//
// At each output time t (every step of a fixed-step method, every output point of an adaptive
// one, as LLM evaluates them):
//   energy error        e(t) = E(t) - E(0)
//   energy_err_max      max |e(t)|
//   energy_err_mean     mean |e(t)|                     (LLM's "mean total energy variation")
//   energy_rel_err_max  max |e(t)| / |E(0)|             (LLM Ex. 2's "total energy error")
//   energy_drift        least-squares slope of e(t) against t
//   momentum_err_max    max over conserved components k of |J_k(t) - J_k(0)| (NaN for a
//                       model without a symmetry); momentum_rel_err_max the same over |J(0)|
//   manifold_err_max    max over bodies of |‖q_i‖ - 1|
//   tangency_err_max    max over bodies of |q_i . w_i|
//   unit_length_err_mean mean over times and bodies of |1 - q_i . q_i|  (LLM's "mean unit
//                       length error")
// Convergence orders are least-squares slopes on log-log data (fit_order).

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace geomint {

struct Metrics {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double energy_err_max = kNaN, energy_err_mean = kNaN, energy_rel_err_max = kNaN;
  double energy_drift_per_time = kNaN;
  double momentum_err_max = kNaN, manifold_err_max = kNaN, tangency_err_max = kNaN;
  double momentum_rel_err_max = kNaN;  // momentum_err_max / |J(0)| (NaN when J(0) = 0)
  double unit_length_err_mean = kNaN;
  std::int64_t output_points = 0;
};

/// What a model reports at one output time.
struct Sample {
  double t;
  double energy;
  Eigen::Vector3d momentum;  // the first `momentum_count` components are conserved
  int momentum_count;
  double unit_length_defect;    // max_i |‖q_i‖ - 1|
  double tangency_defect;       // max_i |q_i . w_i|
  double mean_unit_length_err;  // mean_i |1 - q_i . q_i|
};

/// Online accumulation of the metrics above; the first sample fixes E(0) and J(0).
class MetricAccumulator {
 public:
  void add(const Sample& s);
  Metrics result() const;

  double energy_error(const Sample& s) const { return s.energy - e0_; }
  double energy_relative_error(const Sample& s) const;
  double momentum_error(const Sample& s) const;

 private:
  std::int64_t n_ = 0;
  int momentum_count_ = 0;
  double e0_ = 0.0;
  Eigen::Vector3d j0_ = Eigen::Vector3d::Zero();
  double e_max_ = 0.0, e_sum_ = 0.0, e_rel_max_ = 0.0, j_max_ = 0.0, unit_max_ = 0.0,
         tangency_max_ = 0.0, unit_mean_sum_ = 0.0;
  // Welford's running means and co-moments for the drift slope.
  double mean_t_ = 0.0, mean_e_ = 0.0, c_te_ = 0.0, m2_t_ = 0.0;
};

/// A series reduced to at most `bins` rows: output times are grouped into equal bins of time,
/// and each bin keeps, per column, the sample of largest magnitude (signed for the energy
/// error, so drift keeps its direction) and the smallest step.
class SeriesDecimator {
 public:
  struct Row {
    double t, energy_err, energy_rel_err, unit_length_err, tangency_err, momentum_err, step;
  };
  SeriesDecimator(double t0, double T, int bins = 2000);
  void add(const Row& r);
  /// The finished rows (the open bin included).
  std::vector<Row> rows() const;

 private:
  double t0_, span_;
  int bins_;
  long current_ = -1;
  Row open_{};
  std::vector<Row> done_;
};

/// Least-squares slope of log10(err) on log10(x) over the points in the asymptotic range:
/// points with err <= floor, and every point from the first one (going from large x to small)
/// that no longer decreases the error, are dropped; at least three must remain.
struct OrderFit {
  double order = std::numeric_limits<double>::quiet_NaN();
  double residual = std::numeric_limits<double>::quiet_NaN();  // rms, log10 units
  int used = 0, total = 0;
  std::string note;
};
OrderFit fit_order(std::vector<std::pair<double, double>> points, double floor);

/// Drift test on an energy-error series: the series is cut into `batches` equal consecutive
/// batches; the slope of the batch means against the batch mid-times, with its standard error
/// from the residual scatter of the batch means. Batch means are far less correlated than the
/// raw series, but on a chaotic trajectory the energy error also wanders slowly (on LLM
/// Example 1 the residuals of 20 batch means over T = 1000 have lag-1 correlation 0.67), so
/// the standard error is inflated by the AR(1) factor sqrt((1 + rho) / (1 - rho)), rho the
/// lag-1 autocorrelation of the residuals (when positive): the variance of a mean of
/// correlated samples, not of independent ones.
struct DriftEstimate {
  double slope, standard_error, t_statistic;
  double residual_correlation;  // rho
};
DriftEstimate batch_means_drift(const std::vector<double>& t, const std::vector<double>& e,
                                int batches = 20);

}  // namespace geomint
