#pragma once
// The Astrojax's amended potential (DuToit Sections 2 and 4; NOTES-dutoit 3.1-3.2): under its S^1
// symmetry about the vertical e3 (Section 5.3) the shape is s = (lambda, theta1, theta2, beta),
// beta = phi1 - phi2 the bodies' relative azimuth (theta signed from the downward vertical, as
// in astrojax_coordinates.hpp), and on the level set J_z = mu
//   V_mu(s) = V(s) + mu^2 / (2 I(s)),
//   V(s) = -(m1 + m2) g lambda cos th1 - m2 g (l - lambda) cos th2          (z up),
//   I(s) = m1 lambda^2 sin^2 th1 + m2 (lambda^2 sin^2 th1 + (l - lambda)^2 sin^2 th2
//          + 2 lambda (l - lambda) sin th1 sin th2 cos beta),
// I the locked inertia about e3 (the bodies' moment of inertia about the axis). A state is a
// relative equilibrium with momentum mu exactly where its shape is a critical point of V_mu
// (Section 4); the Hessian of V_mu there is the energy-momentum method's test: positive
// definite, stable; an odd number of negative eigenvalues, unstable (Thomson-Tait-Chetaev: the
// reduced linearisation is gyroscopic, M x'' + G x' + V_mu'' x = 0); an even, positive number
// decides nothing (gyroscopic stability is possible).

#include <Eigen/Core>
#include <cmath>

#include "models/astrojax.hpp"

namespace geomint {

using AstrojaxShape = Eigen::Vector4d;  // (lambda, theta1, theta2, beta)

/// I(s): the locked inertia about e3.
inline double astrojax_locked_inertia(const Astrojax& m, const AstrojaxShape& s) {
  const double lambda = s(0), rest = m.l() - s(0);
  const double s1 = std::sin(s(1)), s2 = std::sin(s(2));
  return m.m1() * lambda * lambda * s1 * s1 +
         m.m2() * (lambda * lambda * s1 * s1 + rest * rest * s2 * s2 + 2.0 * lambda * rest * s1 * s2 * std::cos(s(3)));
}

/// V_mu(s) on the level set J_z = mu.
inline double astrojax_amended_potential(const Astrojax& m, const AstrojaxShape& s, double mu) {
  const double v = -(m.m1() + m.m2()) * m.g() * s(0) * std::cos(s(1)) - m.m2() * m.g() * (m.l() - s(0)) * std::cos(s(2));
  return v + mu * mu / (2.0 * astrojax_locked_inertia(m, s));
}

}  // namespace geomint
