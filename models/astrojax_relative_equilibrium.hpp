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
//
// No stretched-out relative equilibrium, free or driven (DuToit Section 5.4.1 suggests, from
// players' tricks, that the controlled Astrojax has one; NOTES-dutoit 3.3 rules it out for the
// free one). Let the masses turn rigidly at rate Omega != 0 about a vertical axis, rho_i the
// horizontal offset of mass i from the axis, so that its acceleration is -Omega^2 rho_i. With
// n1 the unit vector from the support to the bead, n2 from the bead to the end and T > 0 the
// one tension, the end's balance and the sum of both masses' balances are
//   T n2 = Omega^2 m2 rho2 - m2 g e3,   T n1 = Omega^2 (m1 rho1 + m2 rho2) - (m1 + m2) g e3
// (the model's own equations, M x'' + grad V = Dg^T mu with mu = -T: test_astrojax.cpp checks
// them). Equating the squared lengths of T n2 and T n1,
//   Omega^4 (m2^2 |rho2|^2 - |m1 rho1 + m2 rho2|^2) = ((m1 + m2)^2 - m2^2) g^2 > 0,
// that is Omega^4 m1 (m1 |rho1|^2 + 2 m2 rho1 . rho2) < 0, so rho1 . rho2 < 0: in every
// relative equilibrium the bead and the end are on opposite sides of the axis (a cowboy), and
// none has both on one side (stretched out, rho1 . rho2 >= 0). The support's position never
// enters the two balances, so this holds for the fixed support, for the circular driver in the
// frame turning with its support (Omega = W about the circle's centre: its only relative
// equilibria), for a support at constant velocity (a Galilean frame) and for one accelerating
// uniformly upwards (g -> g + b). At Omega = 0 the same balances have no solution at all with
// 0 < lambda < l (no equilibrium at rest). The vertical driver has no relative equilibria (its
// forcing a W^2 sin(W t) e3 is constant in no frame); its steady motions would be periodic
// orbits locked to the driver, as Kapitza's pendulum is held inverted by a vibrating support,
// which the bench does not search: not checked. A player's stretched-out trick relies on what
// the model leaves out (the bead's friction on the string, a hand that is not a prescribed
// position).

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
