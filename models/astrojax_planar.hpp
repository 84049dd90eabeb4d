#pragma once
// The planar Astrojax (DuToit Section 5.1, the runs of its movies) as an ODE in its generalised
// coordinates q = (lambda, theta1, theta2), with theta signed from the downward vertical and
// z up (NOTES-dutoit 1.3): the bead at q1 = lambda (sin th1, -cos th1) and the end at q2 = q1 +
// (l - lambda)(sin th2, -cos th2) in the (x, z) plane, and
//   L = 1/2 q'^T M(q) q' + (m1 + m2) g lambda cos th1 + m2 g (l - lambda) cos th2,
//   M q'' = f(q, q')   (the Euler-Lagrange equations; M and f in astrojax_planar.cpp).
// M is singular at lambda = 0 and lambda = l (the bead at the support or at the end), where
// the Cartesian model's constraint is singular too. An independent formulation of the motion
// the Cartesian model (models/astrojax.hpp) describes in the plane y = 0: cartesian_state maps
// a planar state to the Astrojax one.
//
// Contract: six blocks on R^1 (lambda, theta1, theta2 and their rates); invariant the energy;
// AmbientOde only (the state space is open: project is the identity).

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

class AstrojaxPlanar {
 public:
  static constexpr std::string_view kName = "astrojax_planar";
  static constexpr std::string_view kDescription =
      "planar Astrojax pendulum in (lambda, theta1, theta2): the Euler-Lagrange ODE of DuToit "
      "Section 5.1's model (NOTES-dutoit 1.3)";
  // planar2: its first close approach of the masses (l - lambda = 0.03) comes at t = 1.96;
  // planar1 has one (l - lambda = 0.011) at t = 0.35.
  static constexpr Exercise kExercise{"planar2", 0.001, 1.0, 100.0};
  using State = Eigen::Matrix<double, 6, 1>;  // (lambda, theta1, theta2, and their rates)

  static ParameterSet default_parameters();
  static const std::vector<Preset<AstrojaxPlanar>>& presets();

  explicit AstrojaxPlanar(const ParameterSet& p);

  /// M(q) and f(q, q') of M q'' = f.
  Eigen::Matrix3d mass_matrix(const Eigen::Vector3d& q) const;
  Eigen::Vector3d force(const Eigen::Vector3d& q, const Eigen::Vector3d& qdot) const;

  Eigen::Index dimension() const { return 6; }
  void rhs(double /*t*/, const State& y, State& dy) const {
    dy.head<3>() = y.tail<3>();
    dy.tail<3>() = mass_matrix(y.head<3>()).ldlt().solve(force(y.head<3>(), y.tail<3>()));
  }
  void project(State& /*y*/) const {}

  double energy(const State& y) const;

  /// The Astrojax state (q1, q2, v1, v2) of y, in the plane y = 0 (fixed support).
  AstrojaxState cartesian_state(const State& y) const;

  /// Another formulation of `astrojax` (models/formulation.hpp): its presets planar1..4 are
  /// the same motions, so studies can measure the Cartesian runs against this ODE.
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
