#pragma once
// The result files of a pattern evocation (docs/pattern-evocation.md), each written atomically:
//   DIR/scores.csv                      xi, score, lag: every frame of the scan
//   DIR/evocation.json                  the scan, the critical frequency, the best frames, the
//                                       score's definition
//   DIR/frames/<rank>-xi<value>.csv     t and each body's position in a best frame's turning frame
// Frames an earlier evocation left in DIR/frames are removed.

#include <filesystem>
#include <string>

#include "studies/pattern_evocation.hpp"
#include "studies/trajectory_csv.hpp"

namespace geomint {

/// frames/<rank>-xi<value>.csv, relative to DIR; rank counts from 1.
std::string evoked_frame_path(std::size_t rank, double xi);

void write_evocation(const std::filesystem::path& dir, const std::filesystem::path& trajectory_file,
                     const TrajectoryPositions& trajectory, const EvocationScan& scan, const Evocation& e);

}  // namespace geomint
