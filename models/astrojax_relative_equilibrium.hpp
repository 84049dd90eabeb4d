#pragma once
// The "cowboy" relative equilibria of the free Astrojax in closed form (NOTES-dutoit 3.3; not
// in the paper): the tether turns rigidly about the vertical at rate omega in a vertical
// half-plane, the bead m1 at signed horizontal distance r1 = lambda sin th1 > 0 and the end m2
// across the axis, r2 = lambda sin th1 + (l - lambda) sin th2 < 0. One tension T acts in both
// segments (the bead slides freely), so the balances of the two masses are
//   T cos th2 = m2 g,               T (cos th1 - cos th2) = m1 g,
//   m2 omega^2 r2 = T sin th2,      m1 omega^2 r1 = T (sin th1 - sin th2),
// and for th1 in (0, pi/2)
//   cos th2 = m2 cos th1 / (m1 + m2),   sin th2 = -sqrt(1 - cos^2 th2),   T = m2 g / cos th2,
//   A := omega^2 lambda = m2 g (sin th1 - sin th2) / (m1 sin th1 cos th2),
//   omega^2 = (g tan th2 - A (sin th1 - sin th2)) / (l sin th2),   lambda = A / omega^2,
// with omega^2 > 0 and 0 < lambda < l along the whole family (both terms of the numerator and
// the denominator are negative; lambda < l reduces to A |sin th2| < g |tan th2| + A (sin th1 +
// |sin th2|)). The other root, sin th2 > 0, would need A < 0: no "stretched-out" equilibrium.
// J_z = I omega with the locked inertia I = m1 r1^2 + m2 r2^2 (NOTES-dutoit 3.2).

#include <cmath>

#include "models/astrojax_coordinates.hpp"

namespace geomint {

struct AstrojaxRelativeEquilibrium {
  double lambda, theta1, theta2;  // theta2 < 0: m2 across the axis
  double omega;                   // rate about e3
  double tension;                 // T > 0 (the multiplier of the index-1 form is -T)
  double angular_momentum;        // J_z = I omega
  AstrojaxState state;            // (q1, q2, v1, v2) in the x-z plane, x1 > 0, v = omega e3 x q
};

/// The cowboy relative equilibrium with bead angle theta1 in (0, pi/2).
inline AstrojaxRelativeEquilibrium astrojax_cowboy(double m1, double m2, double l, double g,
                                                   double theta1) {
  const double s1 = std::sin(theta1);
  const double c2 = m2 * std::cos(theta1) / (m1 + m2);
  const double s2 = -std::sqrt(1.0 - c2 * c2);
  const double tension = m2 * g / c2;
  const double a = m2 * g * (s1 - s2) / (m1 * s1 * c2);
  const double omega2 = (g * s2 / c2 - a * (s1 - s2)) / (l * s2);
  const double lambda = a / omega2;
  const double omega = std::sqrt(omega2);
  const double r1 = lambda * s1, r2 = r1 + (l - lambda) * s2;
  const double theta2 = std::atan2(s2, c2);
  return {lambda,
          theta1,
          theta2,
          omega,
          tension,
          (m1 * r1 * r1 + m2 * r2 * r2) * omega,
          astrojax_rotating_state(l, {lambda, theta1, 0.0, theta2, 0.0}, omega)};
}

}  // namespace geomint
