#pragma once
// Lennard-Jones configurations of any size for the benchmarks: n molecules spread evenly over
// the unit sphere, at the density of LLM Example 6's 642 (so that per-molecule costs compare
// across sizes).

#include <Eigen/Core>
#include <cmath>
#include <numbers>

namespace geomint::bench {

/// n points spread evenly by the Fibonacci (golden-angle) spiral, z_i = 1 - (2i + 1)/n.
inline Eigen::Matrix3Xd fibonacci_sphere(Eigen::Index n) {
  Eigen::Matrix3Xd q(3, n);
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (Eigen::Index i = 0; i < n; ++i) {
    const double z = 1.0 - (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n);
    const double rho = std::sqrt(1.0 - z * z), phi = golden * static_cast<double>(i);
    q.col(i) << rho * std::cos(phi), rho * std::sin(phi), z;
  }
  return q;
}

/// sigma with the LJ minimum 2^(1/6) sigma at the spacing of a triangular lattice of n points
/// on the unit sphere (cell area 4 pi / n = (sqrt3/2) d^2), as lee2009 does for 642.
inline double sigma_for(Eigen::Index n) {
  const double spacing =
      std::sqrt(8.0 * std::numbers::pi / (std::sqrt(3.0) * static_cast<double>(n)));
  return spacing / std::pow(2.0, 1.0 / 6.0);
}

}  // namespace geomint::bench
