#pragma once
// The load's desired trajectory for the two quadrotors (NOTES-celledoni 4.4, from the authors'
// code): the parabola
//   y_d(t) = (a tau, 0, b tau^2 - c),   tau = t - t0,
// with the paper's a = 1 m/s, b = 1 m/s^2, c = 7 m, t0 = 2.5 s (e3 points down, so the load
// climbs from altitude 0.75 to 7 and back over [0, 5]). The controller needs it and its
// derivatives to the fourth (models/load_transport_controller.hpp).

#include <Eigen/Core>

namespace geomint {

struct DesiredLoadTrajectory {
  double t0, speed, curvature, depth;  // t0, a, b, c above

  struct Jet {
    Eigen::Vector3d position, velocity, acceleration, jerk, snap;
  };
  Jet at(double t) const {
    const double tau = t - t0;
    return {{speed * tau, 0.0, curvature * tau * tau - depth},
            {speed, 0.0, 2.0 * curvature * tau},
            {0.0, 0.0, 2.0 * curvature},
            Eigen::Vector3d::Zero(),
            Eigen::Vector3d::Zero()};
  }
};

}  // namespace geomint
