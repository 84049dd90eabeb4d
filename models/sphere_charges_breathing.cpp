#include "models/sphere_charges_breathing.hpp"

#include <algorithm>
#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/sinc.hpp>
#include <cmath>
#include <numbers>

#include "models/parameters.hpp"

namespace geomint {

namespace {

/// int_{theta0}^{pi/2} weight(theta) dtheta / theta'(theta), the integrals of the header being
/// four times this (the integrands are symmetric about pi/2).
///
/// theta' vanishes like sqrt(theta - theta0) at theta0, and U(theta0) - U(theta) loses its
/// digits to cancellation there, so both are taken apart by hand: with s = sin theta,
/// s0 = sin theta0, d = theta - theta0, a = J^2 / (6m), b = sqrt(3) k e^2,
///   U(theta0) - U(theta) = (s - s0) [a (s + s0) / (s0^2 s^2) + b / (s0 s)],
///   s - s0 = 2 cos(theta0 + d/2) sin(d/2) = d cos(theta0 + d/2) sinc(d/2),
/// and the substitution d = L sin^2 tau, L = pi/2 - theta0, tau in [0, pi/2], turns
/// dtheta / theta' into the smooth 2 sqrt(L) cos tau dtau / sqrt((2/(3m)) G(d)),
///   G(d) = cos(theta0 + d/2) sinc(d/2) [a (s + s0) / (s0^2 s^2) + b / (s0 s)] > 0,
/// which tanh-sinh quadrature integrates to round-off.
template <class Weight>
double quarter_integral(const BreathingTriangle& orbit, const Weight& weight) {
  constexpr double half_pi = std::numbers::pi / 2;
  const double theta0 = std::min(orbit.theta0, std::numbers::pi - orbit.theta0);
  if (!(theta0 > 0.0 && theta0 < half_pi))
    throw InputError("breathing triangle: theta0 = " + number_text(orbit.theta0) +
                     " must lie in (0, pi) and differ from pi/2");
  const double length = half_pi - theta0;
  const double j = breathing_angular_momentum(orbit);
  const double a = j * j / (6.0 * orbit.m);
  const double b = std::sqrt(3.0) * orbit.k * orbit.e * orbit.e;
  const double s0 = std::sin(theta0);
  const auto integrand = [&](double tau) {
    const double d = length * std::sin(tau) * std::sin(tau);
    const double theta = theta0 + d;
    const double s = std::sin(theta);
    const double g = std::cos(theta0 + d / 2) * boost::math::sinc_pi(d / 2) *
                     (a * (s + s0) / (s0 * s0 * s * s) + b / (s0 * s));
    return weight(theta) * 2.0 * std::sqrt(length) * std::cos(tau) /
           std::sqrt(2.0 / (3.0 * orbit.m) * g);
  };
  return boost::math::quadrature::tanh_sinh<double>().integrate(integrand, 0.0, half_pi);
}

}  // namespace

double breathing_angular_momentum(const BreathingTriangle& orbit) {
  const double s0 = std::sin(orbit.theta0);
  return 3.0 * orbit.m * orbit.omega0 * s0 * s0;
}

double breathing_reduced_period(const BreathingTriangle& orbit) {
  return 4.0 * quarter_integral(orbit, [](double) { return 1.0; });
}

// phi' = J / (3 m sin^2 theta).
double breathing_azimuth_advance(const BreathingTriangle& orbit) {
  const double rate = breathing_angular_momentum(orbit) / (3.0 * orbit.m);
  return 4.0 * quarter_integral(orbit, [rate](double theta) {
           const double s = std::sin(theta);
           return rate / (s * s);
         });
}

}  // namespace geomint
