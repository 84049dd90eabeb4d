#pragma once
// The records a result directory keeps between runs (cases/<id>.json, references/<id>.json),
// sealed with a checksum of their content so that a damaged one (truncated, edited, of another
// shape or length) is recognised on resume, set aside and recomputed instead of being read.

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "studies/case.hpp"

namespace geomint {

/// FNV-1a (64 bit) of the text, as 16 hex digits: case ids and record checksums.
std::string hash_hex(std::string_view text);

/// The record with a "checksum" member over the rest of it, as the text to write.
std::string sealed_record_text(nlohmann::json record);

/// A finished case's record, if `text` is one: a sealed JSON object whose checksum matches,
/// whose case_id is `expected_id`, with every member cases.csv reads, of its type. Else null,
/// and `problem` says what is wrong.
std::optional<nlohmann::json> parse_case_record(const std::string& text, const std::string& expected_id,
                                                std::string& problem);

/// A cached reference solution, if `text` is one computed from `inputs` (the reference run's
/// case inputs): sealed, checksum matching, the same inputs, a non-empty finite final state.
std::optional<ReferenceSolution> parse_reference_record(const std::string& text,
                                                        const nlohmann::json& inputs,
                                                        std::string& problem);

/// The record of a reference solution computed from `inputs`, as the text to write.
std::string reference_record_text(const ReferenceSolution& reference, const nlohmann::json& inputs,
                                  const std::string& description);

}  // namespace geomint
