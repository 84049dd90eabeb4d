#pragma once
// The double spherical pendulum's amended potential (DuToit Sections 2 and 4; NOTES-dutoit 3.1,
// 3.4), as models/astrojax_amended_potential.hpp for the Astrojax: under rotations about the
// vertical e3 the shape is s = (theta1, theta2, beta), beta = phi1 - phi2 the links' relative
// azimuth, theta_i signed from e3, which points down in this model (gravity along +e3;
// double_spherical_pendulum_relative_equilibrium.hpp), and on the level set J_z = mu
//   V_mu(s) = V(s) + mu^2 / (2 I(s)),
//   V(s) = -(m1 + m2) g l1 cos th1 - m2 g l2 cos th2,
//   I(s) = m1 l1^2 sin^2 th1 + m2 (l1^2 sin^2 th1 + l2^2 sin^2 th2 + 2 l1 l2 sin th1 sin th2 cos beta).
// Its critical points are the relative equilibria with momentum mu; its Hessian there is the
// energy-momentum test (see the Astrojax's header).

#include <Eigen/Core>
#include <cmath>

#include "models/double_spherical_pendulum.hpp"

namespace geomint {

using DspShape = Eigen::Vector3d;  // (theta1, theta2, beta)

/// I(s): the locked inertia about e3.
inline double dsp_locked_inertia(const DoubleSphericalPendulum::Parameters& p, const DspShape& s) {
  const double r1 = p.l1 * std::sin(s(0)), r2 = p.l2 * std::sin(s(1));
  return p.m1 * r1 * r1 + p.m2 * (r1 * r1 + r2 * r2 + 2.0 * r1 * r2 * std::cos(s(2)));
}

/// V_mu(s) on the level set J_z = mu.
inline double dsp_amended_potential(const DoubleSphericalPendulum::Parameters& p, const DspShape& s, double mu) {
  const double v = -(p.m1 + p.m2) * p.g * p.l1 * std::cos(s(0)) - p.m2 * p.g * p.l2 * std::cos(s(1));
  return v + mu * mu / (2.0 * dsp_locked_inertia(p, s));
}

}  // namespace geomint
