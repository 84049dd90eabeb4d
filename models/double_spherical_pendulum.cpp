#include "models/double_spherical_pendulum.hpp"

#include <cmath>

#include "models/sphere_state.hpp"

namespace geomint {

ParameterSet DoubleSphericalPendulum::default_parameters() {
  return {{"m1", 1.0, "kg", "mass of the first bob", ParameterDomain::positive()},
          {"m2", 1.0, "kg", "mass of the second bob", ParameterDomain::positive()},
          {"l1", 1.0, "m", "length of the first link", ParameterDomain::positive()},
          {"l2", 1.0, "m", "length of the second link", ParameterDomain::positive()},
          {"g", 9.81, "m/s^2", "gravitational acceleration, along +e3"}};
}

DoubleSphericalPendulum::DoubleSphericalPendulum(const ParameterSet& p) {
  const double m1 = p["m1"], m2 = p["m2"], l1 = p["l1"], l2 = p["l2"], g = p["g"];
  inertia_ << (m1 + m2) * l1 * l1, m2 * l1 * l2,  //
      m2 * l1 * l2, m2 * l2 * l2;
  weight_ << (m1 + m2) * g * l1, m2 * g * l2;
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
       }}};
  return list;
}

}  // namespace geomint
