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
// Views: AmbientOde, LieGroupOde and CotangentLieGroup (not SphereLagrangian: it is not a
// Lagrangian system on (S^2)^n). The CotangentLieGroup view lifts Pi to the point (I, Pi) of
// T*SO(3) (attitude Q = I, spatial momentum pi = Q Pi = Pi), on which H = 1/2 pi . omega with
// omega = Q I^{-1} Q^T pi, and reduces a stepped point (Q, pi) back to Pi = Q^T pi. The reduced
// map does not depend on the attitude the lift chose: H is invariant under the spatial
// rotations (Q, pi) -> (R Q, R pi), and so is each step of (15)-(17), whose Ad*, dexp* and exp
// are equivariant under them; so stepping from (I, Pi) is stepping from any (Q, Q Pi). Its closed-form solution (models/rigid_body_solution.hpp) is the exact reference
// of studies/rigid_body.yaml.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "geometry/cotangent_so3.hpp"
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
  static constexpr Exercise kExercise{"elliptic", 0.01, 1.0, 1000.0};
  using Group = RotationAction;
  using State = Group::Point;
  using Algebra = Group::Algebra;
  static constexpr bool kReducedCotangentState = true;
  static constexpr bool kLeftInvariantHamiltonian = true;
  using Cotangent = CotangentSO3;

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
  Cotangent::Point cotangent_point(const State& pi) const { return {Eigen::Matrix3d::Identity(), pi}; }
  void set_cotangent_point(const Cotangent::Point& z, State& pi) const { pi = z.g.transpose() * z.mu; }
  /// pi(z + dz) - pi(z) = dg^T (mu + dmu) + g^T dmu.
  void cotangent_increment(const Cotangent::Point& z, const Cotangent::Point& dz, State& dpi) const {
    dpi = dz.g.transpose() * (z.mu + dz.mu) + z.g.transpose() * dz.mu;
  }
  /// Celledoni (14) for H(Q, pi) = 1/2 pi . omega: f1 = omega, f2 = -R_Q^* dH/dQ = pi x omega.
  void hamiltonian_field(double /*t*/, const Cotangent::Point& z, Eigen::Vector3d& f1,
                         Eigen::Vector3d& f2) const {
    f1 = z.g * inverse_inertia_.cwiseProduct(z.g.transpose() * z.mu);
    f2 = z.mu.cross(f1);
  }
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
