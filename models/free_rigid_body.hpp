#pragma once
// The torque-free rigid body, reduced to its body angular momentum Pi (Euler's equations):
//   Pi' = Pi x Omega,  Omega = I^{-1} Pi,  I = diag(I1, I2, I3),
// a Lie-Poisson system on so(3)*: Pi moves on the coadjoint orbit |Pi| = L (the Casimir |Pi|^2
// is conserved) and keeps the energy 1/2 Pi . Omega. As a Lie group ODE, Pi' = xi(Pi) x Pi with
// xi = -Omega, under SO(3) acting by rotation, whose orbits are exactly the coadjoint ones.
//
// Contract: one block Pi on so3*; invariants the energy, the Casimir |Pi|^2 and the defect
// |Pi| - L of the orbit the model is set on (L a parameter, so that the AmbientOde projection
// knows where to project and an initial Pi off that orbit is refused as off the manifold).
// Views: AmbientOde and LieGroupOde (not SphereLagrangian: it is not a Lagrangian system on
// (S^2)^n). Its closed-form solution (models/rigid_body_solution.hpp) is the exact reference
// of studies/rigid_body.yaml.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "geometry/rotation_action.hpp"
#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class FreeRigidBody {
 public:
  static constexpr std::string_view kName = "free_rigid_body";
  static constexpr std::string_view kDescription =
      "torque-free rigid body, Euler's equations for the body angular momentum on so(3)*";
  static constexpr Exercise kExercise{"elliptic", 0.01, 1.0};
  using Group = RotationAction;
  using State = Group::Point;
  using Algebra = Group::Algebra;

  static ParameterSet default_parameters();
  static const std::vector<Preset<FreeRigidBody>>& presets();

  explicit FreeRigidBody(const ParameterSet& p);

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

  // ---- The model contract (models/model_contract.hpp) -----------------------------------
  const StateLayout& state_layout() const { return layout_; }
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& pi, double* out) const {
    out[0] = energy(pi);
    out[1] = pi.squaredNorm();
    out[2] = pi.norm() - angular_momentum_;
  }

  /// Pi(t) from Pi(0) = pi0 in closed form (models/rigid_body_solution.hpp, which states
  /// the initial states it covers and refuses the others).
  State exact_solution(const State& pi0, double t) const;

 private:
  Eigen::Vector3d inertia_, inverse_inertia_;
  double angular_momentum_;
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
