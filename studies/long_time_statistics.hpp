#pragma once
// Long-time statistics of a run, streamed: a case of 10^8 steps stores no series, only O(1)
// numbers per logarithmic time bin. Followed over the run, for every quantity a conserved
// invariant or a defect gives (long_time_quantities):
//   err(t)   the change v(t) - v(0) of an invariant the exact flow conserves (energy, momentum
//            maps, Casimirs), or the value v(t) of a manifold defect or constraint residual;
//   samples  the output points the statistics take (wants(t)): every one while a bin is shorter
//            than kSamplesPerBin of them, then kSamplesPerBin per bin on average, at seeded
//            random times (a gap uniform in (0, 2 width / kSamplesPerBin) after each sample,
//            the same for every run of the same case): about 320 a decade of t however long
//            the run, so that evaluating the invariants only where a sample falls costs 1.4 % of
//            the cheapest step of the bench over 10^5 steps, less over more
//            (bench/bench_long_time.cpp); random, so that no period of the motion aliases with
//            the sampling. Each sample stands for the time since the previous point (its weight
//            in the drift's batch means and the correlation);
//   bins     ~10 per decade of t from the first output time t1 (edges t1 * 10^(k/10)): in each,
//            the number of samples and the min / max / mean of err over them;
//   alpha    the growth exponent of the envelope |err|(t) ~ t^alpha: the least-squares slope of
//            log10(max |err| in a bin) on log10(the bin's upper edge), over the bins that lie in
//            the last two decades of the run and start at or after 100 t1 (so that the rise of
//            the error to its band, the modified-energy offset of the first steps and a
//            chaotic model's first excursions, is not read as growth), with its standard
//            error. ~0 bounded, ~1/2 a random walk (Brouwer's law for round-off), ~1 a linear
//            drift. Bins whose max is exactly 0 are left out of the fit (log 0); fewer than three
//            left and alpha is NaN, with `alpha_note` saying why;
//   drift    the slope of err against t from 20 batch means of equal time span, with its
//            standard error (batch_means_drift's estimate, studies/metrics.hpp);
//   correlation  Pearson's correlation of t with |err| over the run, each point weighted by the
//            time it stands for (Principia's symplecticity test: below 2e-3 for a bounded
//            oscillating error, a test the ~1/sqrt(points) scatter of a few thousand samples
//            could not pass);
// and max |err| over the run. The correlation and the max are over every output point where
// the caller gives the points that are not samples to track() (the case runner does, having
// evaluated the invariants anyway: its verdicts judge that max), else over the samples. A NaN err anywhere makes the quantity's alpha, drift and max NaN.
// No allocation per step: the bins are sized at the first output point after t0 (at most
// kMaxDecades decades of them; later points fall in the last bin).

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "models/invariant.hpp"

namespace geomint {

/// One quantity followed over a long run.
struct LongTimeQuantity {
  std::string name;  // the invariant's column name
  InvariantKind kind;
  std::size_t index;  // in all_invariants order (models/model_contract.hpp)
  bool change;        // err = v - v(0) (a conserved invariant), else err = v (a defect)
};

/// The quantities of a model's invariants (all_invariants order) followed over a long run: the
/// energy, momentum maps and Casimirs the exact flow conserves, every manifold defect and
/// every constraint residual.
std::vector<LongTimeQuantity> long_time_quantities(const std::vector<Invariant>& all);

struct LongTimeBin {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double t_lo = kNaN, t_hi = kNaN;  // the bin's edges; its points have t_lo <= t < t_hi
  std::int64_t count = 0;
  double min = kNaN, max = kNaN, mean = kNaN;  // of err (NaN once a NaN fell in the bin)
  double envelope() const;                      // max(|min|, |max|)
};

struct LongTimeSummary {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  LongTimeQuantity quantity;
  double initial = kNaN;    // v(0)
  double abs_max = kNaN;    // max |err| over the run
  double alpha = kNaN, alpha_se = kNaN;
  double fit_from = kNaN, fit_to = kNaN;  // the fitted bins' time span
  int fit_bins = 0;
  std::string alpha_note;  // why alpha is NaN, if it is
  double drift = kNaN, drift_se = kNaN;  // per unit time
  double correlation = kNaN;             // of t with |err|
  std::vector<LongTimeBin> bins;         // the bins that received points, in time order
};

class LongTimeStatistics {
 public:
  static constexpr int kBinsPerDecade = 10;
  static constexpr int kDriftBatches = 20;
  static constexpr double kFitDecades = 2.0;
  static constexpr double kSettledAfter = 100.0;  // in units of the first output time
  static constexpr double kMaxDecades = 400.0;    // of bins, from the first output time
  static constexpr double kSamplesPerBin = 32.0;

  /// Over [t0, T], for these quantities of the values add() is given; before the first add().
  void start(std::vector<LongTimeQuantity> quantities, double t0, double T);

  /// Whether the output point at t is a sample (see above): the caller evaluates the invariants
  /// and add()s the point only then. Points are to come in increasing t.
  bool wants(double t) const { return t - t0_ >= next_sample_; }

  /// One output point: t and every invariant's value (all_invariants order). The first point
  /// fixes v(0); the first one after it fixes t1 and sizes the bins (the only allocation).
  /// Adding every point, not only those wanted, is allowed (the tests' exact envelopes).
  void add(double t, const std::vector<double>& values);

  /// An output point that is not a sample: only each quantity's max |err| (and a NaN) and the
  /// correlation's moments follow it (a few flops a quantity).
  void track(double t, const std::vector<double>& values);

  std::int64_t points() const { return points_ + tracked_; }  // every output point given
  std::int64_t samples() const { return points_; }            // those add()ed
  std::vector<LongTimeSummary> summaries() const;

 private:
  struct Accumulator {  // of one quantity in one bin or batch
    std::int64_t count = 0;
    double min = 0.0, max = 0.0, sum = 0.0, t_last = 0.0;  // t - t0
    double weight = 0.0, weighted_sum = 0.0, weighted_t = 0.0;  // each point by its weight w
    bool non_finite = false;
    void add(double t, double err, double w);
    double weighted_mean() const { return weight > 0.0 ? weighted_sum / weight : sum / static_cast<double>(count); }
    double weighted_time() const { return weight > 0.0 ? weighted_t / weight : t_last; }
  };
  struct Moments {  // West's weighted running moments of (t, |err|), for the correlation
    double weight = 0.0, mean_t = 0.0, mean_a = 0.0, c = 0.0, m2_t = 0.0, m2_a = 0.0;
    void add(double t, double a, double w);
  };
  double uniform();  // the sampling's seeded generator (splitmix64), in [0, 1)
  double error_of(std::size_t q, const std::vector<double>& values) const;  // quantity q's err
  void start_bins(double t1);
  Accumulator& bin_of(std::size_t bin, std::size_t q) { return bins_[bin * quantities_.size() + q]; }
  const Accumulator& bin_of(std::size_t bin, std::size_t q) const {
    return bins_[bin * quantities_.size() + q];
  }
  double edge(std::size_t k) const;
  LongTimeSummary summary_of(std::size_t q) const;

  std::vector<LongTimeQuantity> quantities_;
  double t0_ = 0.0, T_ = 0.0;
  double t1_ = 0.0;  // the first output time after t0, less t0
  std::int64_t points_ = 0;
  std::vector<double> initial_;
  std::vector<Accumulator> bins_;     // bins x quantities
  std::size_t bin_ = 0;               // the open bin
  double next_edge_ = 0.0;            // where the open bin ends
  double next_sample_ = 0.0;          // t - t0 of the next sample
  double last_tau_ = 0.0;             // t - t0 of the last point added
  std::uint64_t random_ = 0;          // the generator's state
  std::vector<Accumulator> batches_;  // kDriftBatches x quantities
  std::vector<Moments> moments_;      // per quantity
  std::vector<double> tracked_max_;   // per quantity, max |err| of the points given to track
  std::int64_t tracked_ = 0;          // how many
};

}  // namespace geomint
