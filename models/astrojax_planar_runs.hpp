#pragma once
// DuToit's four planar Astrojax runs (Section 5.1; NOTES-dutoit 1.6), shared by the Cartesian
// model (embedded in the x-z plane) and the planar one. The paper states only the angles and
// "m1 = 10 m2" for run 3; from NOTES-dutoit 1.6: l = 1, g = 9.81, lambda0 = l/2, at rest, and
// m1 = m2 = 1 (run 3: m2 = 1, m1 = 10).

#include <array>
#include <numbers>
#include <string_view>

namespace geomint {

struct AstrojaxPlanarRun {
  std::string_view name;
  std::string_view description;
  double m1, m2, theta1, theta2;
};

inline constexpr std::array<AstrojaxPlanarRun, 4> kAstrojaxPlanarRuns = {{
    {"planar1",
     "DuToit Section 5.1 run 1, 'typical motion' with collisions: theta1 = theta2 = pi/4 from "
     "the downward vertical, in the x-z plane, at rest; lambda0 = l/2, m1 = m2 = 1, l = 1, "
     "g = 9.81 (NOTES-dutoit 1.6's choices: the paper gives only the angles)",
     1.0, 1.0, std::numbers::pi / 4, std::numbers::pi / 4},
    {"planar2",
     "DuToit Section 5.1 run 2, 'more energetic motion above the height of the pivot': "
     "theta1 = theta2 = 3 pi/4, at rest; lambda0 = l/2, m1 = m2 = 1, l = 1, g = 9.81 (our "
     "choices)",
     1.0, 1.0, 3 * std::numbers::pi / 4, 3 * std::numbers::pi / 4},
    {"planar3",
     "DuToit Section 5.1 run 3, whiplash: theta1 = theta2 = pi/4, at rest, m1 = 10 m2 read as "
     "m2 = 1, m1 = 10; lambda0 = l/2, l = 1, g = 9.81 (our choices)",
     10.0, 1.0, std::numbers::pi / 4, std::numbers::pi / 4},
    {"planar4",
     "DuToit Section 5.1 run 4, bouncing and collisions: theta1 = 0.05, theta2 = 0, at rest; "
     "lambda0 = l/2, m1 = m2 = 1, l = 1, g = 9.81 (our choices)",
     1.0, 1.0, 0.05, 0.0},
}};

}  // namespace geomint
