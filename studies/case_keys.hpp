#pragma once
// A case's keys: the hash of everything its numbers depend on, under which its finished record
// is kept (DIR/cases/<case_id>.json) and its reference cached (DIR/references/), and the key of
// its recorded cost (DIR/costs.json), which outlives a rebuild.

#include <string>

#include <nlohmann/json.hpp>

#include "studies/spec.hpp"

namespace geomint {

/// Everything a run's numbers depend on, the code revision included.
nlohmann::json case_inputs(const CaseSpec& c);

/// The hash of inputs as JSON (text that is not UTF-8 replaced, so that hashing cannot throw).
std::string hash_of(const nlohmann::json& inputs);

/// The scan of an evocation as JSON (lags null: the default).
nlohmann::json scan_json(const EvocationScan& scan);

/// A case's key: its run's inputs, and what the experiment measures on it (the reference, the
/// series, the snapshots, the curves, the outputs, the evocation).
std::string case_id(const CaseSpec& c, const ExperimentSpec& ex);

/// A case's key in DIR/costs.json: its inputs without the code revision, so that the costs
/// outlive a rebuild.
std::string cost_key(const CaseSpec& c);

}  // namespace geomint
