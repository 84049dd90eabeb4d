#pragma once
// Reading the positions of a trajectory that `geomint run` wrote as CSV: the column t and
// every 3-vector block q<i> (columns q<i>_x, q<i>_y, q<i>_z), the bodies of an (S^2)^n or
// R^3 model. Other columns (velocities, invariants) are not read.

#include <Eigen/Core>
#include <filesystem>
#include <string>
#include <vector>

namespace geomint {

struct TrajectoryPositions {
  std::vector<double> times;
  std::vector<std::string> bodies;          // q1, q2, ... by their number
  std::vector<Eigen::Matrix3Xd> positions;  // per body, 3 x times.size()
};

/// InputError (one line, the path, and the line and column named) for a file that does not
/// exist, has no column t or no complete q<i> block, a row of another length than the header,
/// or a field of those columns that is not a finite number; IoError if it cannot be read.
TrajectoryPositions read_trajectory_positions(const std::filesystem::path& path);

}  // namespace geomint
