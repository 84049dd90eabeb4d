#pragma once
// DuToit's spherical coordinates of the Astrojax (Section 5.1; NOTES-dutoit, Conventions): z
// up, theta from the DOWNWARD vertical, e(theta, phi) = (sin th cos ph, sin th sin ph, -cos th),
//   q1 = lambda e(theta1, phi1),   q2 = q1 + (l - lambda) e(theta2, phi2),
// and the Cartesian state the Astrojax model keeps, (q1, q2, v1, v2) relative to the support,
// here for a configuration turning rigidly about e3 at rate omega: v_i = omega e3 x q_i (at
// rest for omega = 0; consistent with the tether for every omega, since a rotation keeps
// lengths).

#include <Eigen/Core>
#include <cmath>

namespace geomint {

using AstrojaxState = Eigen::Matrix<double, 12, 1>;

/// e(theta, phi).
inline Eigen::Vector3d astrojax_direction(double theta, double phi) {
  return {std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), -std::cos(theta)};
}

struct AstrojaxAngles {
  double lambda, theta1, phi1, theta2, phi2;
};

/// The state at the configuration `c` of a tether of length l, turning at omega about e3.
inline AstrojaxState astrojax_rotating_state(double l, const AstrojaxAngles& c, double omega) {
  const Eigen::Vector3d q1 = c.lambda * astrojax_direction(c.theta1, c.phi1);
  const Eigen::Vector3d q2 = q1 + (l - c.lambda) * astrojax_direction(c.theta2, c.phi2);
  const Eigen::Vector3d spin = omega * Eigen::Vector3d::UnitZ();
  AstrojaxState y;
  y << q1, q2, spin.cross(q1), spin.cross(q2);
  return y;
}

}  // namespace geomint
