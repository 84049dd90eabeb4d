#pragma once
// The long-time statistics of a case (studies/long_time_statistics.hpp) as a result file holds
// them (docs/result-files.md): one JSON object per quantity, its bins as columns; and as the
// one line per quantity `geomint run --stats-only` prints.

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "studies/long_time_statistics.hpp"

namespace geomint {

/// {"quantities": [{"name", "kind", "initial", "abs_max", "alpha", "alpha_se", "alpha_note",
/// "fit_from", "fit_to", "fit_bins", "drift", "drift_se", "correlation", "bins": {"t_lo": [...],
/// "t_hi", "count", "min", "max", "mean"}}, ...], "points": N, "samples": S}; a NaN is null.
nlohmann::json long_time_json(const std::vector<LongTimeSummary>& summaries, std::int64_t points,
                              std::int64_t samples);

/// E.g. "energy: max |err| 3.1e-09, alpha 0.01 +- 0.002 over t in [1, 2e+03] (30 bins), drift
/// 1e-15 +- 3e-15 per unit time, correlation of t and |err| 0.001".
std::string long_time_line(const LongTimeSummary& s);

}  // namespace geomint
