#include "models/double_spherical_pendulum.hpp"

#include <cmath>

#include "models/double_spherical_pendulum_relative_equilibrium.hpp"
#include "models/sphere_state.hpp"

namespace geomint {

namespace {

/// NOTES-dutoit Section 6: m = l = 1, g = 9.81 for the relative equilibria.
void unit_pendulum(ParameterSet& p) {
  p.set("m1", 1.0);
  p.set("m2", 1.0);
  p.set("l1", 1.0);
  p.set("l2", 1.0);
  p.set("g", 9.81);
}

}  // namespace

ParameterSet DoubleSphericalPendulum::default_parameters() {
  return {{"m1", 1.0, "kg", "mass of the first bob", ParameterDomain::positive()},
          {"m2", 1.0, "kg", "mass of the second bob", ParameterDomain::positive()},
          {"l1", 1.0, "m", "length of the first link", ParameterDomain::positive()},
          {"l2", 1.0, "m", "length of the second link", ParameterDomain::positive()},
          {"g", 9.81, "m/s^2", "gravitational acceleration, along +e3"}};
}

DoubleSphericalPendulum::DoubleSphericalPendulum(const ParameterSet& p)
    : parameters_{p["m1"], p["m2"], p["l1"], p["l2"], p["g"]} {
  const auto [m1, m2, l1, l2, g] = parameters_;
  inertia_ << (m1 + m2) * l1 * l1, m2 * l1 * l2,  //
      m2 * l1 * l2, m2 * l2 * l2;
  weight_ << (m1 + m2) * g * l1, m2 * g * l2;
  set_links(Links(l1, l2), Links(m1, m2), Vec3(0.0, 0.0, g));  // gravity along +e3
  allocate_scratch(2);
}

double DoubleSphericalPendulum::potential(const Points& q) const {
  return -weight_(0) * q(2, 0) - weight_(1) * q(2, 1);
}

void DoubleSphericalPendulum::potential_gradient(const Points& /*q*/, Points& grad) const {
  grad.setZero();
  grad(2, 0) = -weight_(0);
  grad(2, 1) = -weight_(1);
}

const std::vector<Preset<DoubleSphericalPendulum>>& DoubleSphericalPendulum::presets() {
  static const std::vector<Preset<DoubleSphericalPendulum>> list = {
      {"lee2009",
       "LLM Example 1: m1 = m2 = 1 kg, l1 = l2 = 9.81 m; q1 = (sqrt3/2, 0, 1/2), q2 = e3, "
       "w1 = (-sqrt3/4, 0, 3/4), w2 = (0, 1, 0) rad/s. The paper prints these rounded to four "
       "digits (off the sphere by 1e-5); we use the exact values they round. g is not stated: "
       "we take 9.81 m/s^2 (which makes sqrt(g/l) = 1 rad/s).",
       [](ParameterSet& p) {
         p.set("m1", 1.0);
         p.set("m2", 1.0);
         p.set("l1", 9.81);
         p.set("l2", 9.81);
         p.set("g", 9.81);
       },
       [](const DoubleSphericalPendulum&) {
         const double s3 = std::sqrt(3.0);
         return make_sphere_state<State>({{s3 / 2, 0, 0.5}, {0, 0, 1}},
                                         {{-s3 / 4, 0, 0.75}, {0, 1, 0}});
       }},
      {"straight_out",
       "NOTES-dutoit 3.4 and Section 6: the straight-out relative equilibrium at theta1 = 0.6 "
       "from the downward vertical, m = l = 1, g = 9.81; theta2 and the rate computed from the "
       "parameters (here theta2 = 0.75589, omega = 2.71929 rad/s about e3; "
       "models/double_spherical_pendulum_relative_equilibrium.hpp). Linearly stable: in the "
       "turning frame the linearisation has eigenvalues +-i 4.325, 4.604, 8.505 rad/s and the "
       "zeros of the symmetry, which its finite differences split (largest growth rate "
       "1e-6 1/s; models/relative_equilibrium.hpp).",
       unit_pendulum,
       [](const DoubleSphericalPendulum& m) {
         return DspRelativeEquilibrium(m.parameters(), DspBranch::StraightOut, 0.6).at(0.0);
       }},
      {"cowboy",
       "NOTES-dutoit 3.4: the cowboy relative equilibrium (second bob across the axis) at "
       "theta1 = 0.3 (our choice, mid-branch), m = l = 1, g = 9.81; theta2 and the rate "
       "computed from the parameters (here theta2 = -0.43621, omega = 6.00098 rad/s; the branch "
       "ends in a fold at theta1 = 0.59900). Linearly stable: eigenvalues +-i 3.457, 8.281, "
       "9.023 rad/s and the zeros (largest growth rate 2e-14 1/s).",
       unit_pendulum, [](const DoubleSphericalPendulum& m) {
         return DspRelativeEquilibrium(m.parameters(), DspBranch::Cowboy, 0.3).at(0.0);
       }}};
  return list;
}

}  // namespace geomint
