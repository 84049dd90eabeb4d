#pragma once
// The support of the Astrojax tether, fixed or driven along a prescribed path A(t): DuToit's
// "controlled" Astrojax (Section 5.4.1, App. C), whose control is the position of the support.
// The paper gives no law; the laws here are NOTES-dutoit 1.5's choices (vertical and circular
// oscillation) and the two exactly solvable drivers of NOTES-dutoit 2.6-2.7 (a support moving
// at constant velocity is a Galilean change of frame; one accelerating uniformly upwards is
// stronger gravity).

#include <Eigen/Core>
#include <cmath>

namespace geomint {

/// The driving law; its value is the model's `driver` parameter.
enum class AstrojaxDriver {
  Fixed = 0,                // A = 0
  Vertical = 1,             // A = (0, 0, a sin W t)
  Circle = 2,               // A = (a cos W t, a sin W t, 0)
  ConstantVelocity = 3,     // A = c t
  UniformAcceleration = 4,  // A = (0, 0, b t^2 / 2)
};

struct AstrojaxSupport {
  AstrojaxDriver driver;
  double a;           // amplitude (Vertical, Circle)
  double W;           // angular frequency (Vertical, Circle)
  Eigen::Vector3d c;  // velocity (ConstantVelocity)
  double b;           // upward acceleration (UniformAcceleration)

  /// A(t).
  Eigen::Vector3d position(double t) const {
    switch (driver) {
      case AstrojaxDriver::Fixed:
        break;
      case AstrojaxDriver::Vertical:
        return {0.0, 0.0, a * std::sin(W * t)};
      case AstrojaxDriver::Circle:
        return {a * std::cos(W * t), a * std::sin(W * t), 0.0};
      case AstrojaxDriver::ConstantVelocity:
        return c * t;
      case AstrojaxDriver::UniformAcceleration:
        return {0.0, 0.0, 0.5 * b * t * t};
    }
    return Eigen::Vector3d::Zero();
  }
  /// A'(t).
  Eigen::Vector3d velocity(double t) const {
    switch (driver) {
      case AstrojaxDriver::Fixed:
        break;
      case AstrojaxDriver::Vertical:
        return {0.0, 0.0, a * W * std::cos(W * t)};
      case AstrojaxDriver::Circle:
        return {-a * W * std::sin(W * t), a * W * std::cos(W * t), 0.0};
      case AstrojaxDriver::ConstantVelocity:
        return c;
      case AstrojaxDriver::UniformAcceleration:
        return {0.0, 0.0, b * t};
    }
    return Eigen::Vector3d::Zero();
  }
  /// A''(t).
  Eigen::Vector3d acceleration(double t) const {
    const double w2 = W * W;
    switch (driver) {
      case AstrojaxDriver::Fixed:
        break;
      case AstrojaxDriver::Vertical:
        return {0.0, 0.0, -a * w2 * std::sin(W * t)};
      case AstrojaxDriver::Circle:
        return {-a * w2 * std::cos(W * t), -a * w2 * std::sin(W * t), 0.0};
      case AstrojaxDriver::ConstantVelocity:
        break;
      case AstrojaxDriver::UniformAcceleration:
        return {0.0, 0.0, b};
    }
    return Eigen::Vector3d::Zero();
  }
};

}  // namespace geomint
