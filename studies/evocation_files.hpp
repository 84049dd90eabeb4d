#pragma once
// The result files of a pattern evocation (docs/pattern-evocation.md), each written atomically:
//   DIR/scores.csv                      xi, score, lag: every frame of the scan
//   DIR/evocation.json                  the scan, the critical frequency, the best frames with
//                                       their aliases, whether a frame closes, the warnings, the
//                                       definitions
//   DIR/frames/<rank>-xi<value>.csv     t and each body's position in a best frame's turning frame
// Frames an earlier evocation left in DIR/frames are removed.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "studies/pattern_evocation.hpp"
#include "studies/trajectory_csv.hpp"

namespace geomint {

/// What a reader of the evocation must be told (evocation.json "warnings", the CLI's lines):
/// that no frame closes (kClosingScore), and each best frame whose lag sits on a bound.
std::vector<std::string> evocation_warnings(const Evocation& e);

/// frames/<rank>-xi<value>.csv, relative to DIR; rank counts from 1.
std::string evoked_frame_path(std::size_t rank, double xi);

/// Writes the files; `source` names the trajectory in evocation.json (the file it was read
/// from, or the study case). Returns each file written, relative to DIR, with the hash_hex of
/// its content (studies/result_records.hpp), for a study's case record.
std::map<std::string, std::string> write_evocation(const std::filesystem::path& dir, const std::string& source,
                                                   const TrajectoryPositions& trajectory, const EvocationScan& scan,
                                                   const Evocation& e);

}  // namespace geomint
