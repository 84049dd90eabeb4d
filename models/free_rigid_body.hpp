#pragma once
// The torque-free rigid body, reduced to its body angular momentum Pi (Euler's equations):
//   Pi' = Pi x Omega,  Omega = I^{-1} Pi,  I = diag(I1, I2, I3),
// a Lie-Poisson system on so(3)*: Pi moves on the sphere |Pi| = L (a Casimir) and keeps the
// energy 1/2 Pi . Omega. As a Lie group ODE, Pi' = xi(Pi) x Pi with xi = -Omega, under SO(3)
// acting by rotation. It offers AmbientOde and LieGroupOde (not SphereLagrangian: it is not a
// Lagrangian system on (S^2)^n), and has the closed-form solution of
// models/rigid_body_solution.hpp. It is not in the study catalogue: the study metrics are
// written for (TS^2)^n states; the tests use it directly.

#include <Eigen/Core>

#include "geometry/rotation_action.hpp"

namespace geomint {

class FreeRigidBody {
 public:
  using Group = RotationAction;
  using State = Group::Point;
  using Algebra = Group::Algebra;

  /// Principal moments of inertia I, and L = |Pi|, the radius of the orbit `project` keeps.
  FreeRigidBody(const Eigen::Vector3d& inertia, double angular_momentum)
      : inverse_inertia_(inertia.cwiseInverse()), angular_momentum_(angular_momentum) {}

  Eigen::Index dimension() const { return 3; }
  void rhs(double /*t*/, const State& pi, State& dpi) const {
    dpi = pi.cross(inverse_inertia_.cwiseProduct(pi));
  }
  void generator(double /*t*/, const State& pi, Algebra& xi) const {
    xi = -inverse_inertia_.cwiseProduct(pi);
  }
  /// Onto the orbit |Pi| = L.
  void project(State& pi) const { pi *= angular_momentum_ / pi.norm(); }
  double energy(const State& pi) const { return 0.5 * pi.dot(inverse_inertia_.cwiseProduct(pi)); }

 private:
  Eigen::Vector3d inverse_inertia_;
  double angular_momentum_;
};

}  // namespace geomint
