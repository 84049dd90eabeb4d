#pragma once
// Resuming an interrupted study: a job's record from an earlier run is taken only if it, and
// every file it lists, is whole and is what the experiment now asks for.

#include <optional>

#include <nlohmann/json.hpp>

#include "studies/case_job.hpp"
#include "studies/result_folder.hpp"

namespace geomint {

/// The finished record of a job from an earlier run, if there is one and it and its series
/// files are whole; a damaged one is set aside (and the case is run again).
std::optional<nlohmann::json> resumed_record(const Job& job, const ResultFolder& folder);

}  // namespace geomint
