#pragma once
// The breathing triangle of three repelling charges on the unit sphere (DuToit Fig. 3(b);
// NOTES-dutoit 4 "Analytic test case" and 5.2), by quadrature: an exact solution the bench
// computes, not a number typed in.
//
// Three equal charges (mass m, charge e, Coulomb constant k, sigma = +1) start as an
// equilateral triangle at polar angle theta0 (from +e3), azimuths phi0 + 2 pi i/3, each turning
// about e3 at rate omega0 (omega0 = 0: from rest). The rotation by 2 pi/3 about e3 maps the
// state to itself, so the triangle stays equilateral and horizontal, at one polar angle
// theta(t) and azimuths phi(t) + 2 pi i/3. Then (derived here)
//   side      |q_i - q_j| = sqrt(3) sin theta,   V = 3 k e^2 / (sqrt(3) sin theta)
//                                                   = sqrt(3) k e^2 / sin theta,
//   kinetic   T = 3 (m/2) (theta'^2 + sin^2 theta phi'^2),
//   momentum  J = J_z = 3 m sin^2 theta phi'   (conserved; = 3 m omega0 sin^2 theta0),
// and eliminating phi' = J / (3 m sin^2 theta) (Routh) leaves the reduced energy
//   E = (3/2) m theta'^2 + U(theta),
//   U(theta) = J^2 / (6 m sin^2 theta) + sqrt(3) k e^2 / sin theta.
// U is a decreasing function of sin theta, symmetric about theta = pi/2, so from theta' = 0 at
// theta0 < pi/2 the angle swings over [theta0, pi - theta0] for every J: with repulsion there is
// no small-circle relative equilibrium (NOTES-dutoit 5.2). Over one period of theta,
//   T_r     = 2 int_{theta0}^{pi - theta0} dtheta / theta'(theta),
//   Delta phi = 2 int_{theta0}^{pi - theta0} (J / (3 m sin^2 theta)) dtheta / theta'(theta),
//   theta'^2 = (2 / (3m)) (U(theta0) - U(theta)).
// T_r is the period of the motion reduced by rotations about e3 (the shape and height return);
// the state itself returns turned about e3 by Delta phi. (Reduced by all of SO(3), the motion
// has period T_r / 2: the triangles at theta and pi - theta are congruent.)

namespace geomint {

struct BreathingTriangle {
  double m;       // mass of each charge
  double e;       // charge of each
  double k;       // Coulomb constant
  double theta0;  // polar angle at rest in theta, in (0, pi) and not pi/2
  double omega0;  // rate of turning about e3 at theta0 (0: from rest)
};

/// J = 3 m omega0 sin^2 theta0, the e3 component of the angular momentum (the others vanish).
double breathing_angular_momentum(const BreathingTriangle& orbit);

/// T_r above: the period of theta(t).
double breathing_reduced_period(const BreathingTriangle& orbit);

/// Delta phi above: how far the triangle turns about e3 over one period of theta.
double breathing_azimuth_advance(const BreathingTriangle& orbit);

}  // namespace geomint
