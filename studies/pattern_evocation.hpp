#pragma once
// Pattern evocation (DuToit §4, §5.5; NOTES-dutoit 4): a trajectory of a system with an S^1
// symmetry about e3, seen from frames turning about e3 at rates xi, q~(t) = R_z(-xi t) q(t).
// By the pattern evocation theorem (DuToit Thm 4.1) a relative periodic orbit closes in some
// of these frames; a scan over xi scores each frame by how closed its pattern is.
//
// Closure score of the frame xi (dimensionless; 0 for a fixed point and for a closed curve):
//
//   G(xi, tau)^2 = < sum_i |q~_i(t + tau) - q~_i(t)|^2 >_t / (2 R^2),
//   score(xi)    = min over tau in [tau_min, tau_max] of G(xi, tau),
//
// < >_t the mean over the sample pairs (t, t + tau) of the trajectory, the sum over its bodies,
// and R^2 = < sum_i (x_i^2 + y_i^2) >_t the mean squared distance of the bodies from the axis.
// A pattern whose azimuths at t and t + tau are unrelated has a gap of about 2 R^2, so it
// scores about 1; the score scales like the positions' error (an RE integrated with an error
// O(h^2) scores O(h^2) in its own frame). Lags are the multiples of the sample spacing in the
// range; between them the lag is refined by the vertex of the parabola through the squared
// gaps at the best sampled lag and its two neighbours (a closing lag need not be a multiple of
// the spacing; a vertex below 0, where the pattern closes to within the parabola's resolution,
// scores 0). Every frame turns a relative equilibrium of rate omega into a circle traced
// at |omega - xi|, which closes after 2 pi / |omega - xi|: the lag range decides which
// closures count, and tau_max bounds how many loops a closed pattern may have.
//
// Cost: |q(t + tau) - R_z(xi tau) q(t)| = |q~(t + tau) - q~(t)|, so the mean squared gap is
//   <|q(t+tau)|^2 + |q(t)|^2 - 2 z(t) z(t+tau)> - 2 Re(e^{i xi tau} <w(t) conj(w(t+tau))>),
// w = x + i y: the lagged products do not depend on xi and are computed once, for all lags,
// by FFT. That expansion cancels to about 1e-16 R^2, so it only picks the lag; the gaps at
// the picked lags are then summed directly. O(M log M + N (L + M)) for M samples, N frames
// and L lags, and up to 4 frames more per local minimum (the refinement of `best`).

#include <Eigen/Core>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace geomint {

/// The frames to scan and the lags after which a pattern may close.
struct EvocationScan {
  double xi_min = 0.0, xi_max = 0.0;  // [rad/s]; count frames xi_min + j (xi_max - xi_min)/(count - 1)
  int count = 0;                      // at least 2
  /// Lag range [s]; NaN: a tenth and a half of the trajectory's time span.
  double lag_min = std::numeric_limits<double>::quiet_NaN();
  double lag_max = std::numeric_limits<double>::quiet_NaN();
  int best = 5;  // how many of the best frames to return (at least 1)
};

/// A frame of the scan: its rate, its score and the lag it closes after (or comes closest).
struct EvokedFrame {
  double xi, score, lag;
};

/// A frame "closes" when its score is at most this: the gap between the pattern and itself a
/// lag later is under 5 % of that of unrelated azimuths. A scan whose best frame scores more
/// says that no frame closes (a chaotic orbit: its near-closures still rank).
inline constexpr double kClosingScore = 0.05;

/// One of the best frames, with its aliases: at lag tau the frames xi + 2 pi k / tau compare
/// the same pairs of points (R_z(2 pi k) is the identity), so they score the same and are one
/// pattern seen at rates a turn per lag apart. They count once, by the one nearest the critical
/// frequency (the slowest, smallest |xi|, when there is none), with the lowest score among
/// them; `aliases` are the others' rates, ascending. For a relative periodic orbit that is
/// Delta phi / T, the frame that the whole group turns with (NOTES-dutoit 4).
struct BestFrame : EvokedFrame {
  std::vector<double> aliases;
  /// Its lag sits on a bound of the lag range and the gap still falls there (by more than a
  /// thousandth from the next lag inside): the pattern may close better outside the range,
  /// which should be widened.
  bool lag_on_bound = false;
};

struct Evocation {
  std::vector<EvokedFrame> frames;  // every frame of the scan, by xi
  /// Local minima of the score over the scan (a frame lower than the one before and no higher
  /// than the one after; the two ends of the scan never are), lowest first (equal scores: the
  /// shorter lag first), aliases merged (BestFrame), at most `best`.
  /// Each is refined between its neighbours by 4 steps of successive parabolic interpolation of
  /// the squared score (near a closing frame the score grows like |xi - xi*| tau), so that its
  /// rate may lie between the scan's and frames closing after a long lag tau, whose dip is
  /// ~1/tau wide, do not rank by how near the scan passes to them.
  std::vector<BestFrame> best;
  /// Whether the best frame closes (kClosingScore).
  bool closes() const { return !best.empty() && best.front().score <= kClosingScore; }
  /// The least-squares slope of the unwrapped azimuth atan2(y, x)(t) of each body (NaN for a
  /// body that touches the axis, where its azimuth is undefined), and their mean over the other
  /// bodies, the critical frequency (NaN if there are none). For a relative equilibrium of rate
  /// omega both are omega.
  std::vector<double> azimuth_rates;
  double critical_frequency = 0.0;
  double lag_min = 0.0, lag_max = 0.0;  // the lag range used, rounded to whole samples [s]
  std::size_t samples = 0;              // the samples used (a shorter last step is left out)
};

/// The one-paragraph definition of the score, for result files.
inline constexpr const char* kClosureScoreDefinition =
    "score(xi) = min over lags tau in [lag_min, lag_max] of sqrt(<sum_i |q~_i(t+tau) - "
    "q~_i(t)|^2>_t / (2 R^2)), q~_i(t) = R_z(-xi t) q_i(t), <>_t the mean over sample pairs, "
    "R^2 = <sum_i x_i^2 + y_i^2>_t; lags are whole sample spacings, refined between them by the "
    "vertex of a parabola through the squared gaps at the best one and its neighbours. 0: the "
    "pattern closes (a fixed point or a closed curve); about 1: no closure.";

/// Scans the frames of `scan` over the trajectory sampled at `times` (uniformly spaced; a
/// shorter last step, as `geomint run` ends on T, is left out), positions[i] holding body i's
/// positions at those times (3 x times.size()). InputError for what cannot be scanned: sizes
/// that differ, non-finite numbers, times not uniformly spaced, fewer than 3 samples, bodies
/// that never leave the axis, a lag range without a whole sample spacing in it.
Evocation evoke_patterns(const std::vector<double>& times, const std::vector<Eigen::Matrix3Xd>& positions,
                         const EvocationScan& scan);

/// The positions seen from the frame turning at xi: R_z(-xi t_k) q_i(t_k) (DuToit §5.5).
std::vector<Eigen::Matrix3Xd> frame_positions(const std::vector<double>& times,
                                              const std::vector<Eigen::Matrix3Xd>& positions, double xi);

/// The least-squares slope of one body's unwrapped azimuth atan2(y, x) over `times`; NaN if
/// the body is on the axis at some sample. The azimuth must turn by less than pi a step.
double azimuth_rate(const std::vector<double>& times, const Eigen::Matrix3Xd& positions);

}  // namespace geomint
