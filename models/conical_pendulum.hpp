#pragma once
// The conical pendulum: the relative equilibrium of the spherical pendulum in which the bob
// circles the vertical at a constant angle theta from the downward direction (+e3, LLM's
// convention). With q = (sin th cos Wt, sin th sin Wt, cos th), the tangential part of
// l q'' = g e3 balances when W^2 = g / (l cos th) (0 < th < 90 degrees), and the angular
// velocity with q' = w x q and q . w = 0 is w = W (e3 - cos th q). An exact trajectory of
// SphericalPendulum for any m (the mass cancels), used to test integrators against.

#include <cmath>
#include <numbers>

#include "models/spherical_pendulum.hpp"

namespace geomint {

class ConicalPendulum {
 public:
  /// The spherical_pendulum preset `conical`: 60 degrees, l = 1, g = 9.81.
  static constexpr double kPresetAngle = std::numbers::pi / 3;

  /// theta in radians, 0 < theta < pi/2; l and g as in the model's parameters.
  ConicalPendulum(double theta, double l, double g)
      : theta_(theta), rate_(std::sqrt(g / (l * std::cos(theta)))) {}

  double rate() const { return rate_; }  // W [rad/s]

  SphericalPendulum::State at(double t) const {
    const Eigen::Vector3d q(std::sin(theta_) * std::cos(rate_ * t),
                            std::sin(theta_) * std::sin(rate_ * t), std::cos(theta_));
    const Eigen::Vector3d w = rate_ * (Eigen::Vector3d::UnitZ() - std::cos(theta_) * q);
    SphericalPendulum::State y;
    y << q, w;
    return y;
  }

 private:
  double theta_, rate_;
};

}  // namespace geomint
