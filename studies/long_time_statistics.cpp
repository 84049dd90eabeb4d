#include "studies/long_time_statistics.hpp"

#include <algorithm>
#include <cmath>

#include "studies/metrics.hpp"

namespace geomint {

std::vector<LongTimeQuantity> long_time_quantities(const std::vector<Invariant>& all) {
  std::vector<LongTimeQuantity> quantities;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Invariant& inv = all[i];
    const bool defect = inv.kind == InvariantKind::ManifoldDefect || inv.kind == InvariantKind::ConstraintResidual;
    if (defect || inv.conserved) quantities.push_back({inv.name, inv.kind, i, !defect});
  }
  return quantities;
}

double LongTimeBin::envelope() const {
  return std::isnan(min) || std::isnan(max) ? kNaN : std::max(std::abs(min), std::abs(max));
}

void LongTimeStatistics::Accumulator::add(double t, double err, double w) {
  if (!std::isfinite(err)) non_finite = true;
  if (count == 0) min = max = err;
  min = std::min(min, err);
  max = std::max(max, err);
  sum += err;
  weight += w;
  weighted_sum += w * err;
  weighted_t += w * t;
  t_last = t;
  ++count;
}

void LongTimeStatistics::Moments::add(double t, double a, double w) {
  // West (1979), Comm. ACM 22(9): weighted means and co-moments in one pass.
  weight += w;
  if (!(weight > 0.0)) return;
  const double dt = t - mean_t, da = a - mean_a;
  mean_t += w / weight * dt;
  mean_a += w / weight * da;
  c += w * dt * (a - mean_a);
  m2_t += w * dt * (t - mean_t);
  m2_a += w * da * (a - mean_a);
}

double LongTimeStatistics::uniform() {
  std::uint64_t z = (random_ += 0x9E3779B97F4A7C15ULL);  // splitmix64 (Steele, Lea, Flood 2014)
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

void LongTimeStatistics::start(std::vector<LongTimeQuantity> quantities, double t0, double T) {
  quantities_ = std::move(quantities);
  t0_ = t0;
  T_ = T;
  points_ = tracked_ = 0;
  next_sample_ = last_tau_ = 0.0;
  random_ = 0;
  bins_.clear();
  batches_.assign(static_cast<std::size_t>(kDriftBatches) * quantities_.size(), Accumulator{});
  moments_.assign(quantities_.size(), Moments{});
  tracked_max_.assign(quantities_.size(), 0.0);
}

double LongTimeStatistics::edge(std::size_t k) const {
  return t1_ * std::pow(10.0, static_cast<double>(k) / kBinsPerDecade);
}

void LongTimeStatistics::start_bins(double t1) {
  t1_ = t1;
  // At most kMaxDecades: a first step of a denormal size must not make the count overflow.
  double decades = std::log10((T_ - t0_) / t1);
  if (!(decades >= 0.0)) decades = 0.0;
  decades = std::min(decades, kMaxDecades);
  const auto count = static_cast<std::size_t>(std::ceil(decades * kBinsPerDecade)) + 2;
  bins_.assign(count * quantities_.size(), Accumulator{});
  bin_ = 0;
  next_edge_ = edge(1);
}

void LongTimeStatistics::add(double t, const std::vector<double>& values) {
  if (points_++ == 0) initial_ = values;
  const double tau = t - t0_;
  if (tau > 0.0 && bins_.empty()) start_bins(tau);
  const std::size_t bin_count = bins_.size() / std::max<std::size_t>(quantities_.size(), 1);
  while (tau >= next_edge_ && bin_ + 1 < bin_count) next_edge_ = edge(++bin_ + 1);
  const double span = T_ - t0_;
  const auto batch = span > 0.0 ? std::min<std::size_t>(kDriftBatches - 1, static_cast<std::size_t>(
                                                                                 std::max(0.0, tau / span * kDriftBatches)))
                                 : 0;
  const double w = std::max(tau - last_tau_, 0.0);  // the time this point stands for
  last_tau_ = tau;
  for (std::size_t q = 0; q < quantities_.size(); ++q) {
    const double err = error_of(q, values);
    if (tau > 0.0) bin_of(bin_, q).add(tau, err, w);
    batches_[batch * quantities_.size() + q].add(tau, err, w);
    moments_[q].add(tau, std::abs(err), w);
  }
  if (!bins_.empty()) next_sample_ = tau + 2.0 * uniform() * (edge(bin_ + 1) - edge(bin_)) / kSamplesPerBin;
}

double LongTimeStatistics::error_of(std::size_t q, const std::vector<double>& values) const {
  const std::size_t i = quantities_[q].index;
  return quantities_[q].change ? values[i] - initial_[i] : values[i];
}

void LongTimeStatistics::track(double t, const std::vector<double>& values) {
  const double tau = t - t0_;
  const double w = std::max(tau - last_tau_, 0.0);
  last_tau_ = tau;
  ++tracked_;
  for (std::size_t q = 0; q < quantities_.size(); ++q) {
    const double a = std::abs(error_of(q, values));
    if (!(a <= tracked_max_[q]) && !std::isnan(tracked_max_[q])) tracked_max_[q] = a;  // a NaN, once in, stays
    moments_[q].add(tau, a, w);
  }
}

namespace {

/// The least-squares slope of y on x with its standard error (NaN for fewer than 3 points).
std::pair<double, double> slope_with_error(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  if (x.size() < 3) return {std::nan(""), std::nan("")};
  double mx = 0.0, my = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    mx += x[i] / n;
    my += y[i] / n;
  }
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  const double slope = sxy / sxx;
  double ss = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - my - slope * (x[i] - mx);
    ss += r * r;
  }
  return {slope, std::sqrt(ss / (n - 2.0) / sxx)};
}

}  // namespace

LongTimeSummary LongTimeStatistics::summary_of(std::size_t q) const {
  constexpr double kNaN = LongTimeSummary::kNaN;
  LongTimeSummary s;
  s.quantity = quantities_[q];
  if (points_ == 0) return s;
  s.initial = initial_[quantities_[q].index];
  const std::size_t bin_count = bins_.size() / std::max<std::size_t>(quantities_.size(), 1);
  bool non_finite = false;
  double t_end = 0.0;
  for (std::size_t k = 0; k < bin_count; ++k) {
    const Accumulator& a = bin_of(k, q);
    if (a.count == 0) continue;
    LongTimeBin b;
    b.t_lo = t0_ + edge(k);
    b.t_hi = t0_ + edge(k + 1);
    b.count = a.count;
    if (!a.non_finite) {
      b.min = a.min;
      b.max = a.max;
      b.mean = a.sum / static_cast<double>(a.count);
    }
    non_finite = non_finite || a.non_finite;
    t_end = a.t_last;
    s.bins.push_back(b);
  }
  for (std::size_t b = 0; b < kDriftBatches; ++b) non_finite = non_finite || batches_[b * quantities_.size() + q].non_finite;
  non_finite = non_finite || !std::isfinite(tracked_max_[q]);
  if (non_finite) {
    s.alpha_note = "a non-finite error";
    return s;
  }
  s.abs_max = tracked_max_[q];
  for (const auto& b : s.bins) s.abs_max = std::max(s.abs_max, b.envelope());

  // alpha: the settled bins of the last kFitDecades decades.
  std::vector<double> x, y;
  int zero = 0;
  const double from = std::max(kSettledAfter * t1_, t_end / std::pow(10.0, kFitDecades));
  for (std::size_t k = 0, shown = 0; k < bin_count; ++k) {
    const Accumulator& a = bin_of(k, q);
    if (a.count == 0) continue;
    const LongTimeBin& b = s.bins[shown++];
    if (edge(k) < from * (1.0 - 1e-12)) continue;  // an edge at `from` but for rounding is in
    if (b.envelope() == 0.0) {
      ++zero;
      continue;
    }
    if (x.empty()) s.fit_from = b.t_lo;
    s.fit_to = t0_ + a.t_last;
    x.push_back(std::log10(a.t_last));
    y.push_back(std::log10(b.envelope()));
  }
  s.fit_bins = static_cast<int>(x.size());
  std::tie(s.alpha, s.alpha_se) = slope_with_error(x, y);
  if (x.size() < 3)
    s.alpha_note = zero > 0 && x.empty() ? "the error is exactly 0 after " + std::to_string(static_cast<long long>(kSettledAfter)) + " t1"
                                          : "fewer than 3 settled bins (the run is shorter than " +
                                                std::to_string(static_cast<long long>(kSettledAfter)) + " first steps and a decade)";
  if (!(x.size() < 3) && zero > 0) s.alpha_note = std::to_string(zero) + " bins where the error is exactly 0 left out";

  std::vector<double> bt, be;
  for (std::size_t b = 0; b < kDriftBatches; ++b) {
    const Accumulator& a = batches_[b * quantities_.size() + q];
    if (a.count == 0) continue;
    bt.push_back(t0_ + a.weighted_time());
    be.push_back(a.weighted_mean());
  }
  if (bt.size() >= 3) {
    const DriftEstimate d = drift_of_batch_means(bt, be);
    s.drift = d.slope;
    s.drift_se = d.standard_error;
  }
  const Moments& m = moments_[q];
  s.correlation = m.m2_t > 0.0 && m.m2_a > 0.0 ? m.c / std::sqrt(m.m2_t * m.m2_a) : kNaN;
  return s;
}

std::vector<LongTimeSummary> LongTimeStatistics::summaries() const {
  std::vector<LongTimeSummary> all;
  for (std::size_t q = 0; q < quantities_.size(); ++q) all.push_back(summary_of(q));
  return all;
}

}  // namespace geomint
