#pragma once
// The bounds the long-time promises are judged by (studies/verdicts.hpp), in one place for the
// verdicts and the `longtime` tests (tests/support/long_time_promises.hpp). An error
// at round-off over N steps is a random walk, ~ eps sqrt(N) of its quantity's scale (Brouwer's
// law); max(1, |scale|) keeps quantities that start near 0 at the models' unit scale.

#include <algorithm>
#include <cmath>
#include <limits>

namespace geomint {

inline constexpr double kLongAlphaBound = 0.6;
inline constexpr double kRoundOffUlps = 16.0;
inline constexpr double kReversibilityUlps = 16.0;

/// err in ULPs of max(1, |scale|) per sqrt(steps): what kRoundOffUlps and kReversibilityUlps bound.
inline double ulps_per_root_step(double err, double scale, double steps) {
  return err / (std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(scale)) * std::sqrt(std::max(1.0, steps)));
}

/// The round-off a quantity of this scale may gather over `steps` steps: kRoundOffUlps ULPs a sqrt(step).
inline double round_off_bound(double scale, double steps) {
  return kRoundOffUlps * std::numeric_limits<double>::epsilon() * std::max(1.0, std::abs(scale)) *
         std::sqrt(std::max(1.0, steps));
}

/// An energy error's envelope is bounded: alpha <= kLongAlphaBound, or the error is still within
/// round-off (one random walk's fitted alpha scatters by 0.1 or more about 1/2). NaN is not.
inline bool energy_bounded(double alpha, double abs_max, double initial, double steps) {
  return alpha <= kLongAlphaBound || abs_max <= round_off_bound(initial, steps);
}

/// A batch-means drift that matters: beyond 4 standard errors, and carrying the error by more
/// than half its largest value over the run of length T.
inline bool drifts(double drift, double drift_se, double T, double abs_max) {
  return std::abs(drift) > 4.0 * drift_se && std::abs(drift) * T > 0.5 * abs_max;
}

}  // namespace geomint
