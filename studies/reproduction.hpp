#pragma once
// reproduction.csv (docs/result-files.md): each published figure of a spec's `published` rows
// next to ours from the matching case, with the ratio, whether it lies in the reproduction band,
// and the row's note filled in from the result (studies/note_template.hpp).
//
// A dimensionless figure (mean unit-length error, relative energy error) is at round-off when
// both ours and the published one are below kRoundOffLevel: their ratio compares two round-off
// numbers and means nothing, so such a row is marked round_off and has no band verdict.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/spec.hpp"

namespace geomint {

inline constexpr double kRoundOffLevel = 1e4 * 2.220446049250313e-16;  // 10^4 machine epsilons
/// A reproduction holds when ours / published lies in [kBandLow, kBandHigh].
inline constexpr double kBandLow = 0.75, kBandHigh = 1.25;

std::string reproduction_csv(const StudySpec& spec, const std::vector<nlohmann::json>& records);

}  // namespace geomint
