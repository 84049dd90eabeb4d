#include "studies/pattern_evocation.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <unsupported/Eigen/FFT>

#include "errors/exit_status_errors.hpp"

namespace geomint {

namespace {

using Complex = std::complex<double>;

/// The number of leading samples of `times` on one uniform grid: all of them, or all but the
/// last when the last step is shorter (a fixed-step run that ends on T). InputError otherwise.
std::size_t uniform_samples(const std::vector<double>& times) {
  const std::size_t m = times.size();
  if (m < 3) throw InputError("pattern evocation needs at least 3 samples, the trajectory has " + std::to_string(m));
  const double spacing = (times[m - 2] - times[0]) / static_cast<double>(m - 2);
  const double tolerance = 1e-6 * spacing;
  for (std::size_t k = 1; k < m; ++k) {
    const double step = times[k] - times[k - 1];
    const bool last_and_shorter = k == m - 1 && step > 0.0 && step < spacing;
    if (std::abs(times[k] - (times[0] + static_cast<double>(k) * spacing)) <= tolerance || last_and_shorter) continue;
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "times are not uniformly spaced: the step to t = %.17g is %.6g, the mean step %.6g "
                  "(pattern evocation needs a fixed-step trajectory)",
                  times[k], step, spacing);
    throw InputError(buf);
  }
  const std::size_t used = std::abs(times[m - 1] - times[m - 2] - spacing) <= tolerance ? m : m - 1;
  if (used < 3) throw InputError("pattern evocation needs at least 3 uniformly spaced samples");
  return used;
}

void require_finite(const std::vector<double>& times, const std::vector<Eigen::Matrix3Xd>& positions) {
  if (positions.empty()) throw InputError("pattern evocation needs the positions of at least one body");
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (static_cast<std::size_t>(positions[i].cols()) != times.size())
      throw InputError("body " + std::to_string(i + 1) + " has " + std::to_string(positions[i].cols()) +
                       " positions for " + std::to_string(times.size()) + " times");
    if (!positions[i].allFinite())
      throw InputError("a position of body " + std::to_string(i + 1) + " is not finite");
  }
  for (double t : times)
    if (!std::isfinite(t)) throw InputError("a time is not finite");
}

/// sum over sequences of sum_k a(k) conj(a(k + m)), m = 0 .. n - 1, n their length: the inverse
/// FFT of the summed power spectra, zero-padded to 2n so that no lag wraps around.
std::vector<Complex> lagged_products(const std::vector<std::vector<Complex>>& sequences) {
  const std::size_t n = sequences.front().size();
  std::size_t padded = 1;
  while (padded < 2 * n) padded *= 2;
  Eigen::FFT<double> fft;
  std::vector<Complex> power(padded, 0.0), spectrum, input(padded);
  for (const auto& a : sequences) {
    std::fill(input.begin(), input.end(), 0.0);
    std::copy(a.begin(), a.end(), input.begin());
    fft.fwd(spectrum, input);
    for (std::size_t f = 0; f < padded; ++f) power[f] += std::norm(spectrum[f]);
  }
  std::vector<Complex> r;
  fft.inv(r, power);  // r(m) = sum_k conj(a(k)) a(k + m)
  r.resize(n);
  for (Complex& c : r) c = std::conj(c);
  return r;
}

/// What the mean squared gap at each lag is assembled from (the expansion in the header).
struct LagSums {
  std::vector<double> pair_power;      // sum over pairs (k, k+m) and bodies of |q(k)|^2 + |q(k+m)|^2
  std::vector<double> z_products;      // sum of z(k) z(k+m)
  std::vector<Complex> w_products;     // sum of w(k) conj(w(k+m)), w = x + i y
};

LagSums lag_sums(const std::vector<Eigen::Matrix3Xd>& positions, std::size_t n) {
  std::vector<std::vector<Complex>> w(positions.size(), std::vector<Complex>(n)), z = w;
  std::vector<double> cumulative(n + 1, 0.0);  // cumulative[j] = sum over k < j of sum_i |q_i(k)|^2
  for (std::size_t k = 0; k < n; ++k) {
    double power = 0.0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
      const auto q = positions[i].col(static_cast<Eigen::Index>(k));
      w[i][k] = Complex(q.x(), q.y());
      z[i][k] = q.z();
      power += q.squaredNorm();
    }
    cumulative[k + 1] = cumulative[k] + power;
  }
  LagSums s;
  s.w_products = lagged_products(w);
  for (const Complex& c : lagged_products(z)) s.z_products.push_back(c.real());
  for (std::size_t m = 0; m < n; ++m) s.pair_power.push_back(cumulative[n - m] + cumulative[n] - cumulative[m]);
  return s;
}

/// <sum_i |q_i(k + m) - R_z(angle) q_i(k)|^2> over the n - m pairs, summed directly.
double direct_gap(const std::vector<Eigen::Matrix3Xd>& positions, std::size_t n, std::size_t m, double angle) {
  const double c = std::cos(angle), s = std::sin(angle);
  double sum = 0.0;
  for (const auto& q : positions)
    for (Eigen::Index k = 0; k + static_cast<Eigen::Index>(m) < static_cast<Eigen::Index>(n); ++k) {
      const auto a = q.col(k);
      const auto b = q.col(k + static_cast<Eigen::Index>(m));
      const Eigen::Vector3d d(b.x() - (c * a.x() - s * a.y()), b.y() - (s * a.x() + c * a.y()), b.z() - a.z());
      sum += d.squaredNorm();
    }
  return sum / static_cast<double>(n - m);
}

struct LagRange {
  std::size_t first, last;  // in sample spacings
  double spacing;
};

LagRange lag_range(const EvocationScan& scan, std::size_t n, double spacing) {
  const double span = static_cast<double>(n - 1) * spacing;
  const double lo = std::isnan(scan.lag_min) ? span / 10 : scan.lag_min;
  const double hi = std::isnan(scan.lag_max) ? span / 2 : scan.lag_max;
  if (!(lo > 0.0 && std::isfinite(lo) && std::isfinite(hi) && lo < hi)) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "the lag range [%.6g, %.6g] must be finite, positive and not empty", lo, hi);
    throw InputError(buf);
  }
  if (hi >= span) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "the longest lag %.6g is not shorter than the trajectory's time span %.6g", hi, span);
    throw InputError(buf);
  }
  // A lag within 1e-9 of a spacing counts as that spacing, so tau = P finds a period P = m dt.
  const auto first = static_cast<std::size_t>(std::max(1.0, std::ceil(lo / spacing - 1e-9)));
  const auto last = static_cast<std::size_t>(std::floor(hi / spacing + 1e-9));
  if (first > last) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "the lag range [%.6g, %.6g] holds no whole sample spacing (%.6g)", lo, hi, spacing);
    throw InputError(buf);
  }
  return {first, last, spacing};
}

/// The sampled lag with the smallest gap by the expansion (cheap, cancels to ~1e-16 R^2).
std::size_t expanded_best_lag(const LagSums& s, const LagRange& lags, std::size_t n, double xi) {
  std::size_t best = lags.first;
  double lowest = std::numeric_limits<double>::infinity();
  const Complex turn = std::polar(1.0, xi * lags.spacing);
  Complex phase;
  for (std::size_t m = lags.first; m <= lags.last; ++m) {
    // e^{i xi m dt} by recurrence, afresh every 64 lags so that rounding cannot build up.
    phase = (m - lags.first) % 64 == 0 ? std::polar(1.0, xi * static_cast<double>(m) * lags.spacing) : phase * turn;
    const double gap =
        (s.pair_power[m] - 2.0 * s.z_products[m] - 2.0 * (phase * s.w_products[m]).real()) / static_cast<double>(n - m);
    if (gap < lowest) {
      lowest = gap;
      best = m;
    }
  }
  return best;
}

/// The frame's mean squared gap minimised over the lags, and the lag: summed directly at the
/// expansion's best lag and its neighbours, refined by the parabola through the three.
EvokedFrame score_frame(const std::vector<Eigen::Matrix3Xd>& positions, const LagSums& s, const LagRange& lags,
                        std::size_t n, double xi, double scale) {
  const std::size_t m = expanded_best_lag(s, lags, n, xi);
  const auto gap = [&](std::size_t lag) { return direct_gap(positions, n, lag, xi * static_cast<double>(lag) * lags.spacing); };
  const double centre = gap(m);
  double lag = static_cast<double>(m), lowest = centre;
  if (m > lags.first && m < lags.last) {
    const double before = gap(m - 1), after = gap(m + 1), curvature = before + after - 2.0 * centre;
    if (centre <= before && centre <= after && curvature > 0.0) {
      lag += (before - after) / (2.0 * curvature);
      lowest = std::max(0.0, centre - (after - before) * (after - before) / (8.0 * curvature));
    } else if (before < centre || after < centre) {
      lag += before < after ? -1.0 : 1.0;
      lowest = std::min(before, after);
    }
  }
  return {xi, std::sqrt(lowest / scale), lag * lags.spacing};
}

/// Mean over samples of sum_i x_i^2 + y_i^2, doubled: the gap of unrelated azimuths.
double unrelated_gap(const std::vector<Eigen::Matrix3Xd>& positions, std::size_t n) {
  double sum = 0.0;
  for (const auto& q : positions) sum += q.topRows<2>().leftCols(static_cast<Eigen::Index>(n)).squaredNorm();
  return 2.0 * sum / static_cast<double>(n);
}

/// Parabolic steps that refine a local minimum of the scan.
constexpr int kRefinements = 4;

/// A local minimum `b` of the scan between its neighbours a and c, refined by successive
/// parabolic interpolation of the squared score: the frame at the vertex of the parabola
/// through the three replaces one of them, keeping the lowest inside the bracket.
template <class Score>
EvokedFrame refined(EvokedFrame a, EvokedFrame b, EvokedFrame c, const Score& score) {
  for (int step = 0; step < kRefinements; ++step) {
    const double ga = a.score * a.score, gb = b.score * b.score, gc = c.score * c.score;
    const double p = (b.xi - a.xi) * (b.xi - a.xi) * (gb - gc) - (b.xi - c.xi) * (b.xi - c.xi) * (gb - ga);
    const double q = (b.xi - a.xi) * (gb - gc) - (b.xi - c.xi) * (gb - ga);
    const double xi = b.xi - 0.5 * p / q;
    if (!(xi > a.xi && xi < c.xi) || xi == b.xi) break;  // also q = 0: a flat bracket
    const EvokedFrame v = score(xi);
    if (v.score < b.score) {
      (xi < b.xi ? c : a) = b;
      b = v;
    } else {
      (xi < b.xi ? a : c) = v;
    }
  }
  return b;
}

/// Whether b is an alias of a (BestFrame): the same lag, to a hundredth, and rates a whole
/// number of turns per lag apart, to a hundredth of a turn.
bool alias_of(const EvokedFrame& a, const EvokedFrame& b) {
  if (!(std::abs(a.lag - b.lag) <= 0.01 * a.lag)) return false;
  const double turns = (b.xi - a.xi) * a.lag / (2.0 * std::numbers::pi);
  return std::abs(turns - std::round(turns)) <= 0.01;
}

/// The local minima of the scan, each refined, lowest first, aliases merged (the frame nearest
/// `critical` standing for them, the slowest if it is NaN), at most `count`; falls_to_bound(frame)
/// tells whether its gap still falls at the lag range's bound.
template <class Score, class FallsToBound>
std::vector<BestFrame> best_frames(const std::vector<EvokedFrame>& frames, int count, double critical,
                                   const Score& score, const FallsToBound& falls_to_bound) {
  const double centre = std::isnan(critical) ? 0.0 : critical;
  std::vector<EvokedFrame> minima;
  for (std::size_t j = 1; j + 1 < frames.size(); ++j)
    if (frames[j].score < frames[j - 1].score && frames[j].score <= frames[j + 1].score)
      minima.push_back(refined(frames[j - 1], frames[j], frames[j + 1], score));
  // Equal scores (closures below the lag parabola's resolution score 0, or aliases): the
  // shorter lag, the simpler pattern, first, then the slower frame.
  std::stable_sort(minima.begin(), minima.end(), [](const EvokedFrame& a, const EvokedFrame& b) {
    if (a.score != b.score) return a.score < b.score;
    return a.lag < b.lag || (a.lag == b.lag && std::abs(a.xi) < std::abs(b.xi));
  });
  std::vector<BestFrame> best;
  for (const EvokedFrame& m : minima) {
    const auto kept = std::find_if(best.begin(), best.end(), [&](const BestFrame& b) { return alias_of(b, m); });
    if (kept != best.end()) {
      double alias = m.xi;
      if (std::abs(alias - centre) < std::abs(kept->xi - centre)) std::swap(alias, kept->xi);
      kept->aliases.insert(std::upper_bound(kept->aliases.begin(), kept->aliases.end(), alias), alias);
    } else if (best.size() < static_cast<std::size_t>(count)) {
      best.push_back({m, {}, falls_to_bound(m)});
    }
  }
  return best;
}

void check_scan(const EvocationScan& scan) {
  if (!(std::isfinite(scan.xi_min) && std::isfinite(scan.xi_max) && scan.xi_min < scan.xi_max))
    throw InputError("the frame rates must be finite with xi_min below xi_max");
  if (scan.count < 2) throw InputError("the scan needs at least 2 frames");
  if (scan.best < 1) throw InputError("at least 1 best frame must be asked for");
}

}  // namespace

double azimuth_rate(const std::vector<double>& times, const Eigen::Matrix3Xd& positions) {
  const std::size_t n = times.size();
  double turns = 0.0, previous = 0.0, t_mean = 0.0, phi_mean = 0.0;
  std::vector<double> phi(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto q = positions.col(static_cast<Eigen::Index>(k));
    if (q.x() == 0.0 && q.y() == 0.0) return std::numeric_limits<double>::quiet_NaN();
    const double a = std::atan2(q.y(), q.x());
    if (k > 0 && a - previous > std::numbers::pi) turns -= 1.0;
    if (k > 0 && a - previous < -std::numbers::pi) turns += 1.0;
    previous = a;
    phi[k] = a + 2.0 * std::numbers::pi * turns;
    t_mean += times[k] / static_cast<double>(n);
    phi_mean += phi[k] / static_cast<double>(n);
  }
  double covariance = 0.0, variance = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    covariance += (times[k] - t_mean) * (phi[k] - phi_mean);
    variance += (times[k] - t_mean) * (times[k] - t_mean);
  }
  return covariance / variance;
}

std::vector<Eigen::Matrix3Xd> frame_positions(const std::vector<double>& times,
                                              const std::vector<Eigen::Matrix3Xd>& positions, double xi) {
  std::vector<Eigen::Matrix3Xd> turned = positions;
  for (auto& q : turned)
    for (Eigen::Index k = 0; k < q.cols(); ++k) {
      const double c = std::cos(xi * times[static_cast<std::size_t>(k)]), s = std::sin(xi * times[static_cast<std::size_t>(k)]);
      const double x = q(0, k), y = q(1, k);
      q(0, k) = c * x + s * y;  // R_z(-xi t)
      q(1, k) = -s * x + c * y;
    }
  return turned;
}

Evocation evoke_patterns(const std::vector<double>& times, const std::vector<Eigen::Matrix3Xd>& positions,
                         const EvocationScan& scan) {
  check_scan(scan);
  require_finite(times, positions);
  const std::size_t n = uniform_samples(times);
  const double spacing = (times[n - 1] - times[0]) / static_cast<double>(n - 1);
  const LagRange lags = lag_range(scan, n, spacing);
  const double scale = unrelated_gap(positions, n);
  if (!(scale > 0.0)) throw InputError("the bodies never leave the e3 axis: every frame sees the same trajectory");

  Evocation e;
  e.samples = n;
  e.lag_min = static_cast<double>(lags.first) * spacing;
  e.lag_max = static_cast<double>(lags.last) * spacing;
  const LagSums sums = lag_sums(positions, n);
  const auto score = [&](double xi) { return score_frame(positions, sums, lags, n, xi, scale); };
  const double step = (scan.xi_max - scan.xi_min) / (scan.count - 1);
  for (int j = 0; j < scan.count; ++j) e.frames.push_back(score(j + 1 == scan.count ? scan.xi_max : scan.xi_min + step * j));
  // A lag on a bound of the range is flagged when the gap still falls there, by more than a
  // thousandth from the next lag inside: a fixed point's flat gap is not.
  const auto falls_to_bound = [&](const EvokedFrame& f) {
    const auto m = static_cast<std::size_t>(std::lround(f.lag / spacing));
    if (lags.first == lags.last || (m != lags.first && m != lags.last)) return false;
    const std::size_t inside = m == lags.first ? m + 1 : m - 1;
    const auto gap = [&](std::size_t lag) { return direct_gap(positions, n, lag, f.xi * static_cast<double>(lag) * spacing); };
    return gap(m) < 0.999 * gap(inside);
  };
  const std::vector<double> used(times.begin(), times.begin() + static_cast<std::ptrdiff_t>(n));
  double sum = 0.0;
  int counted = 0;
  for (const auto& q : positions) {
    e.azimuth_rates.push_back(azimuth_rate(used, q.leftCols(static_cast<Eigen::Index>(n))));
    if (!std::isnan(e.azimuth_rates.back())) {
      sum += e.azimuth_rates.back();
      ++counted;
    }
  }
  e.critical_frequency = counted > 0 ? sum / counted : std::numeric_limits<double>::quiet_NaN();
  e.best = best_frames(e.frames, scan.best, e.critical_frequency, score, falls_to_bound);
  return e;
}

}  // namespace geomint
