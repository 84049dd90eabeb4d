#include "models/spherical_pendulum.hpp"

#include <cmath>

#include "models/conical_pendulum.hpp"
#include "models/sphere_state.hpp"

namespace geomint {

ParameterSet SphericalPendulum::default_parameters() {
  return {{"m", 1.0, "kg", "mass of the bob", ParameterDomain::positive()},
          {"l", 1.0, "m", "length of the link", ParameterDomain::positive()},
          {"g", 9.81, "m/s^2", "gravitational acceleration, along +e3"}};
}

SphericalPendulum::SphericalPendulum(const ParameterSet& p) {
  inertia_ = Inertia::constant(1, p["m"] * p["l"] * p["l"]);
  weight_ = p["m"] * p["g"] * p["l"];
  set_links(Links::Constant(p["l"]), Links::Constant(p["m"]), Vec3(0.0, 0.0, p["g"]));  // gravity along +e3
  allocate_scratch(1);
}

const std::vector<Preset<SphericalPendulum>>& SphericalPendulum::presets() {
  static const std::vector<Preset<SphericalPendulum>> list = {
      {"swing",
       "Our choice (no paper fixes one): m = l = 1, g = 9.81; released 60 degrees from the "
       "downward vertical, q = (sqrt3/2, 0, 1/2), with w = (-1, 1, sqrt3): a swing in the "
       "x-z plane plus an azimuthal spin, so the motion is genuinely three-dimensional.",
       [](ParameterSet&) {},
       [](const SphericalPendulum&) {
         const double s3 = std::sqrt(3.0);
         return make_sphere_state<State>({{s3 / 2, 0, 0.5}}, {{-1.0, 1.0, s3}});
       }},
      {"conical",
       "The conical pendulum (an exact solution, models/conical_pendulum.hpp): m = l = 1, "
       "g = 9.81, the bob 60 degrees from the downward vertical circling it at "
       "W = sqrt(g / (l cos 60deg)) = 4.43 rad/s (exact for these parameters only).",
       [](ParameterSet& p) {
         p.set("m", 1.0);
         p.set("l", 1.0);
         p.set("g", 9.81);
       },
       [](const SphericalPendulum&) {
         return ConicalPendulum(ConicalPendulum::kPresetAngle, 1.0, 9.81).at(0.0);
       }}};
  return list;
}

}  // namespace geomint
