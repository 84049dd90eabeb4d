#pragma once
// The pattern evocation of a finished study case (an experiment's `evoke`, studies/README.md):
// the positions its fixed-step run kept (studies/evocation_positions.hpp), scanned by
// evoke_patterns (DuToit §4, §5.5) and written to DIR/evocation/<case_id>/ as `geomint evoke`
// writes them (studies/evocation_files.hpp; docs/result-files.md).

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "studies/case.hpp"
#include "studies/evocation_positions.hpp"
#include "studies/pattern_evocation.hpp"

namespace geomint {

/// DIR/evocation/<case_id>, relative to DIR.
std::string evocation_dir(const std::string& case_id);

/// Evokes the case's patterns and writes their files; returns the case record's "evocation":
///   status   "ok"; "skipped" when the run did not finish; "failed" when the positions cannot
///            be scanned (evoke_patterns' InputError: e.g. bodies that never leave the axis)
///   detail   why not "ok" (else empty)
///   dir      evocation/<case_id>; stride, samples: every how many steps the positions were
///            kept, and how many; critical_frequency
///   files    each file written, relative to DIR, with its checksum (hash_hex), for resuming
nlohmann::json evoke_case(const std::filesystem::path& dir, const std::string& case_id, const CaseResult& result,
                          const PositionRecorder& positions, const EvocationScan& scan);

}  // namespace geomint
