#pragma once
// A paper's checkable claims about an experiment (a spec's `claims`, ClaimSpec), measured:
// claims.csv (docs/result-files.md). A claim is "held" when the largest (at_most) or smallest
// (at_least) value of its metric over the selected finished cases is within its bound, "not_held"
// when it is not (a NaN never is), and "not_checked" when no selected case finished or the model
// declares nothing for the metric.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/spec.hpp"

namespace geomint {

std::string claims_csv(const StudySpec& spec, const std::vector<nlohmann::json>& records);

}  // namespace geomint
