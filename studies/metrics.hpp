#pragma once
// Every metric the bench reports, defined once, with the papers' definitions, for any model:
// each metric reads the model's declarations (models/model_contract.hpp), never the model.
//
// At each output time t (every step of a fixed-step method, every output point of an adaptive
// one, as LLM evaluates them), with E the invariant of kind Energy, J_k the conserved ones of
// kind Momentum, C_k those of kind Casimir, D_k every ManifoldDefect and G_k every
// ConstraintResidual:
//   energy error        e(t) = E(t) - E(0)
//   energy_err_max      max |e(t)|
//   energy_err_mean     mean |e(t)|                     (LLM's "mean total energy variation")
//   energy_rel_err_max  max |e(t)| / |E(0)|             (LLM Ex. 2's "total energy error")
//   energy_drift        least-squares slope of e(t) against t
//   momentum_err_max    max over k of |J_k(t) - J_k(0)| (NaN for a model without a symmetry);
//                       momentum_rel_err_max the same over |J(0)|
//   casimir_err_max     max over k of |C_k(t) - C_k(0)|
//   manifold_defect_max max over k of |D_k(t)|          (every block's defects and the model's)
//   constraint_err_max  max over k of |G_k(t)|
// and, for the S^2 blocks of the state (absent for a model without any):
//   manifold_err_max    max over S^2 blocks of |‖q_i‖ - 1|
//   tangency_err_max    max over T_qS^2 blocks of |q_i . w_i|
//   unit_length_err_mean mean over times and S^2 blocks of |1 - q_i . q_i|  (LLM's "mean unit
//                       length error", from the state as LLM computes it)
// A metric with no declaration to read is NaN. A NaN at any output time makes every max it
// enters NaN (a max that skipped it would hide a failure).
// Convergence orders are least-squares slopes on log-log data (fit_order).

#include <Eigen/Core>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/invariant.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

struct Metrics {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double energy_err_max = kNaN, energy_err_mean = kNaN, energy_rel_err_max = kNaN;
  double energy_drift_per_time = kNaN;
  double momentum_err_max = kNaN, manifold_err_max = kNaN, tangency_err_max = kNaN;
  double momentum_rel_err_max = kNaN;  // momentum_err_max / |J(0)| (NaN when J(0) = 0)
  double unit_length_err_mean = kNaN;
  double casimir_err_max = kNaN, manifold_defect_max = kNaN, constraint_err_max = kNaN;
  std::int64_t output_points = 0;
};

/// Which of a model's invariants (all_invariants: the declared ones, then the blocks' defects)
/// feed which metric, and where its S^2 blocks are in the state; made once per case.
struct MetricPlan {
  int energy = -1;  // index of the invariant of kind Energy, -1 when there is none
  std::vector<std::size_t> momentum, casimir;    // the conserved ones of these kinds
  std::vector<std::size_t> defects, constraints;  // every ManifoldDefect / ConstraintResidual
  std::vector<std::size_t> unit, tangency;        // the S2 / T_qS2 blocks' defects
  std::vector<Eigen::Index> sphere_offsets;       // where the S2 blocks start in the state
  bool has_sphere_blocks() const { return !sphere_offsets.empty(); }
};
MetricPlan make_metric_plan(const std::vector<Invariant>& declared, const StateLayout& layout);

/// Online accumulation of the metrics above; the first output point fixes E(0), J(0), C(0).
class MetricAccumulator {
 public:
  explicit MetricAccumulator(MetricPlan plan) : plan_(std::move(plan)) {}

  /// One output point: t, the invariants' values (in all_invariants order) and the state.
  void add(double t, const std::vector<double>& values, const Eigen::Ref<const Eigen::VectorXd>& y);
  Metrics result() const;

  // The same quantities at one output point, for the decimated series.
  double energy_error(const std::vector<double>& v) const;
  double energy_relative_error(const std::vector<double>& v) const;
  double momentum_error(const std::vector<double>& v) const;
  double casimir_error(const std::vector<double>& v) const;
  double unit_length_defect(const std::vector<double>& v) const { return largest(v, plan_.unit); }
  double tangency_defect(const std::vector<double>& v) const { return largest(v, plan_.tangency); }
  double manifold_defect(const std::vector<double>& v) const { return largest(v, plan_.defects); }
  double constraint_residual(const std::vector<double>& v) const {
    return largest(v, plan_.constraints);
  }

 private:
  /// max_k |v_k| over the indices, NaN if any is NaN, 0 for none.
  static double largest(const std::vector<double>& v, const std::vector<std::size_t>& indices);
  /// max_k |v_k - v0_k| over the indices, the same way.
  double largest_change(const std::vector<double>& v, const std::vector<std::size_t>& indices) const;

  MetricPlan plan_;
  std::int64_t n_ = 0;
  std::vector<double> initial_;
  double e_max_ = 0.0, e_sum_ = 0.0, e_rel_max_ = 0.0, j_max_ = 0.0, c_max_ = 0.0,
         unit_max_ = 0.0, tangency_max_ = 0.0, defect_max_ = 0.0, constraint_max_ = 0.0,
         unit_mean_sum_ = 0.0;
  // Welford's running means and co-moments for the drift slope.
  double mean_t_ = 0.0, mean_e_ = 0.0, c_te_ = 0.0, m2_t_ = 0.0;
};

/// The one of a and b of larger magnitude, sign kept; NaN once either is NaN (what a bin of a
/// decimated series must show).
double larger_magnitude(double a, double b);

/// A series reduced to at most `bins` rows: output times are grouped into equal bins of time,
/// and each bin keeps, per column, the sample of largest magnitude (signed for the energy
/// error, so drift keeps its direction) and the smallest step.
class SeriesDecimator {
 public:
  struct Row {
    double t, energy_err, energy_rel_err, unit_length_err, tangency_err, momentum_err, step,
        casimir_err, manifold_defect;
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
/// The same estimate from batch means already formed (their mean times and mean errors, in
/// time order; at least three).
DriftEstimate drift_of_batch_means(const std::vector<double>& bt, const std::vector<double>& be);

}  // namespace geomint
