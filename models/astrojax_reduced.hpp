#pragma once
// The Astrojax reduced by its symmetry (DuToit Sections 2-4 and 5.3; Routh reduction): with
// the fixed support, rotations about e3 leave the Lagrangian of models/astrojax.hpp unchanged.
//
// Coordinates (astrojax_coordinates.hpp; theta from the downward vertical, z up):
//   - the shape s = (lambda, theta1, theta2, beta), with beta = phi1 - phi2 the relative
//     azimuth of the two masses;
//   - the group angle phi = phi2.
//
// The Lagrangian. With q = (s, phi), L = 1/2 q'^T K(s) q' - V(s), where K = J^T M J and J is the
// Jacobian of the positions (q1, q2) in q. L does not depend on phi, so the momentum
// p_phi = K_(phi,s) s' + I(s) phi' is J_z; I = K_(phi,phi) is the locked inertia.
//
// The Routhian. On the level set J_z = mu, eliminating phi' gives R = L - mu phi':
//   R(s, s') = 1/2 s'^T A(s) s' + b(s).s' - V_mu(s),
//   A = K_ss - K_(s,phi) K_(phi,s) / I,   b = mu K_(s,phi) / I,   V_mu = V + mu^2 / (2 I).
// V_mu is the amended potential of astrojax_amended_potential.hpp.
//
// The reduced motion is the Euler-Lagrange equations of R:
//   A s'' = -(sum_k dA/ds_k s'_k) s' + 1/2 (s'^T dA/ds_i s')_i - (Db - Db^T) s' - grad V_mu.
// The term in Db - Db^T is the curvature of the mechanical connection, a gyroscopic force.
// The group angle is reconstructed by phi' = (mu - K_(phi,s) s') / I. The derivatives of A, b
// and V_mu come from K by forward automatic differentiation (Eigen's AutoDiffScalar), not from a
// second derivation by hand.
//
// An independent formulation of the motion that models/astrojax.hpp integrates as a constrained
// system in R^6; cartesian_state reconstructs the latter's state. The two must agree
// (tests/unit/models/test_astrojax_reduced.cpp, and the study experiment spatial_reduced).
//
// State: (s, s', phi, mu). mu rides along at zero rate, so that each preset fixes its level set
// from its Cartesian state, whatever parameters it runs with.
//
// The chart is singular where a mass is on the vertical through the support of its segment
// (sin theta_i = 0), and where lambda = 0 or lambda = l. Presets: the undriven spatial runs and
// the cowboys of models/astrojax.hpp, whose masses stay off those sets over the horizons the
// bench runs them (the unit test measures the smallest of |sin theta_i|, lambda and l - lambda
// along each; the spatial runs keep 0.008 or more over [0, 20]).
//
// Invariant: the energy 1/2 s'^T A s' + V_mu(s), equal to the Cartesian energy on the level set.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "models/astrojax_coordinates.hpp"
#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class AstrojaxReduced {
 public:
  static constexpr std::string_view kName = "astrojax_reduced";
  static constexpr std::string_view kDescription =
      "Astrojax pendulum reduced by its rotation symmetry: the Routhian equations in the shape "
      "(lambda, theta1, theta2, beta) on a level set of J_z, and the group angle reconstructed "
      "(DuToit Sections 2-4, 5.3)";
  // spatial_high stays 0.085 or more from the chart's singular sets (|sin theta_i|, lambda,
  // l - lambda) over [0, 1], 0.012 over [0, 20], 0.0013 over [0, 100] (Dormand-Prince at rtol
  // 1e-10; over [0, 1] the closest is l - lambda = 0.085 at t = 0.24). Up to T = 0.5: over
  // [0, 1] RK4 is pre-asymptotic at h = 4e-3..2.5e-4 (fitted 3.76), over [0, 0.5] it fits 4.00.
  // The chart is not global: over the long-time matrix's [0, 100] the fixed-step methods at h,
  // whose chaotic paths differ from the reference's, reach sin theta2 = 0 (RK2 at t = 2.3, RK4
  // at 6.7: the second segment pointing straight up) and stop NonFinite there; the adaptive
  // ones pass.
  static constexpr Exercise kExercise{"spatial_high", 0.001, 0.5, 100.0};
  using State = Eigen::Matrix<double, 10, 1>;  // (s, s', phi, mu)
  using Shape = Eigen::Vector4d;
  using Coordinates = Eigen::Matrix<double, 5, 1>;  // q = (s, phi)

  static ParameterSet default_parameters();
  static const std::vector<Preset<AstrojaxReduced>>& presets();

  explicit AstrojaxReduced(const ParameterSet& p);

  double m1() const { return m1_; }
  double m2() const { return m2_; }
  double l() const { return l_; }
  double g() const { return g_; }

  /// K(s): the kinetic energy's matrix in q = (s, phi); it does not depend on phi.
  Eigen::Matrix<double, 5, 5> kinetic_matrix(const Shape& s) const;

  Eigen::Index dimension() const { return 10; }
  void rhs(double t, const State& y, State& dy) const;
  void project(State& /*y*/) const {}

  double energy(const State& y) const;

  /// The Astrojax state (q1, q2, v1, v2) of y (models/astrojax.hpp, fixed support).
  AstrojaxState cartesian_state(const State& y) const;
  /// The reduced state of a Cartesian one on the tether, its phi in (-pi, pi].
  State reduced_state(const AstrojaxState& x) const;

  /// Another formulation of `astrojax` (models/formulation.hpp): the presets of the same names.
  static constexpr std::string_view kFormulationOf = "astrojax";
  Eigen::VectorXd state_in_other_formulation(const State& y) const { return cartesian_state(y); }

  // ---- The model contract (models/model_contract.hpp) -----------------------------------
  const StateLayout& state_layout() const { return layout_; }
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& y, double* out) const { out[0] = energy(y); }

 private:
  double m1_, m2_, l_, g_;
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
