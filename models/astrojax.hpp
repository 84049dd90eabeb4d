#pragma once
// The Astrojax pendulum in Cartesian constrained form (DuToit Sections 5.1, 5.4, App. B, C;
// NOTES-dutoit 1.4, 1.5, 2.5): a bead m1 sliding freely on a massless taut tether of length l
// whose end carries m2, hanging from a support at A(t) (fixed or driven, models/
// astrojax_support.hpp), in uniform gravity -g e3 (z up). Positions x = (q1, q2) in R^6,
//   L = 1/2 x'^T M x' - V(x),   M = diag(m1, m1, m1, m2, m2, m2),   V = g (m1 z1 + m2 z2),
// and one holonomic constraint
//   g(x, t) = |q1 - A(t)| + |q2 - q1| - l = 0.
//
// State: relative to the support, (r1, r2, u1, u2) with r_i = q_i - A(t), u_i = q_i' - A'(t)
// (blocks q1, q2, v1, v2 on R^3). In this frame the constraint G(r) = |r1| + |r2 - r1| - l and
// its hidden constraint DG(r) u = 0 do not depend on t, so that project(y) needs no time.
// With n1 = r1/|r1| and n2 = (r2 - r1)/|r2 - r1|, DG = [(n1 - n2)^T, n2^T] (NOTES-dutoit 1.4)
// and the motion is the index-1 form
//   M r'' = -grad V + DG^T mu - M (A'', A''),    DG r'' + kappa(r, u) = 0,
//   kappa = u^T (Hess G) u = (|u1|^2 - (n1.u1)^2)/|r1| + (|w|^2 - (n2.w)^2)/|r2 - r1|,
// w = u2 - u1. mu is the multiplier of NOTES-dutoit 2.1: mu = -T < 0 for a taut tether.
//
// Invariants: the energy in the support frame, 1/2 sum m_i |u_i|^2 + g' sum m_i z(r_i) with
// g' = g + b for the uniformly accelerated support (stronger gravity) and g otherwise,
// conserved for the fixed support and drivers 3 and 4 (no fictitious force, or a constant one),
// not for the oscillating drivers 1 and 2; J_z = sum m_i (x_i u_iy - y_i u_ix) of the relative
// motion, conserved unless the fictitious force -m A'' is horizontal (driver 2); the tether's
// defects G(r) and DG(r) u.
//
// Views: AmbientOde in R^12 (the index-1 form above; project: Newton on G along M^-1 DG^T,
// then the M^-1-orthogonal projection of u onto DG u = 0); ConstrainedLagrangian in the
// absolute coordinates x (models/views.hpp), which the constrained variational integrator
// steps.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "models/astrojax_coordinates.hpp"
#include "models/astrojax_support.hpp"
#include "models/configuration.hpp"
#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class Astrojax {
 public:
  static constexpr std::string_view kName = "astrojax";
  static constexpr std::string_view kDescription =
      "Astrojax pendulum: a bead sliding on a taut tether with a mass at its end, Cartesian "
      "constrained form, fixed or driven support (DuToit Sections 5.4, App. B, C)";
  // Up to T = 0.25: at t ~ 0.32 the masses come within l - lambda = 0.02 of each other, where
  // the short segment spins fast and the fixed-step methods' errors leave their asymptotic
  // regime until h ~ 1e-4 (RK4 with projection fits 4.5 over [0, 1] at h = 4e-3..2.5e-4, and
  // 4.0 over [0, 0.25]).
  static constexpr Exercise kExercise{"spatial_intermediate", 0.001, 0.25, 100.0};
  using State = AstrojaxState;
  using Positions = Eigen::Matrix<double, 6, 1>;
  using Constraints = Eigen::Matrix<double, 1, 1>;
  using ConstraintJacobian = Eigen::Matrix<double, 1, 6>;
  using PositionMatrix = Eigen::Matrix<double, 6, 6>;
  static constexpr bool kConstantPotentialGradient = true;  // uniform gravity

  static ParameterSet default_parameters();
  static const std::vector<Preset<Astrojax>>& presets();

  explicit Astrojax(const ParameterSet& p);

  double m1() const { return m1_; }
  double m2() const { return m2_; }
  double l() const { return l_; }
  double g() const { return g_; }
  const AstrojaxSupport& support() const { return support_; }

  // ---- AmbientOde ------------------------------------------------------------------------
  Eigen::Index dimension() const { return 12; }
  void rhs(double t, const State& y, State& dy) const;
  void project(State& y) const;
  /// The multiplier mu of the index-1 form at (t, y): -T, T the tension.
  double multiplier(double t, const State& y) const;

  double energy(const State& y) const;
  double angular_momentum_z(const State& y) const;
  double tether_defect(const State& y) const;  // G(r)
  double tether_rate(const State& y) const;    // DG(r) u

  // ---- ConstrainedLagrangian (models/views.hpp), absolute coordinates ---------------------
  Eigen::Index positions_dimension() const { return 6; }
  Eigen::Index constraint_count() const { return 1; }
  const Positions& mass() const { return mass_; }
  void configuration(double t, const State& y, Positions& x, Positions& v) const;
  void set_configuration(double t, const Positions& x, const Positions& v, State& y) const;
  /// The support at t, then m1 and m2 (models/configuration.hpp): the tether's two straight pieces.
  Eigen::Matrix3Xd configuration_points(double t, const State& y) const {
    const Eigen::Vector3d a = support_.position(t);
    Eigen::Matrix3Xd points(3, 3);
    points << a, y.segment<3>(0) + a, y.segment<3>(3) + a;
    return points;
  }
  double constrained_potential(const Positions& x) const { return g_ * (m1_ * x(2) + m2_ * x(5)); }
  void constrained_gradient(const Positions& /*x*/, Positions& grad) const { grad = gradient_; }
  void constraints(double t, const Positions& x, Constraints& c) const;
  void constraint_jacobian(double t, const Positions& x, ConstraintJacobian& dg) const;
  void constraint_rate(double t, const Positions& x, Constraints& rate) const;
  void constraint_curvature(double t, const Positions& x, const Positions& v,
                            Constraints& curvature) const;

  // ---- The model contract (models/model_contract.hpp) -----------------------------------
  const StateLayout& state_layout() const { return layout_; }
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& y, double* out) const {
    out[0] = energy(y);
    out[1] = angular_momentum_z(y);
    out[2] = tether_defect(y);
    out[3] = tether_rate(y);
  }

 private:
  /// DG(r) = (n1 - n2, n2) as a 6-vector.
  Positions tether_gradient(const State& y) const;

  double m1_, m2_, l_, g_;
  double effective_gravity_;  // g + b for the uniformly accelerated support, else g
  AstrojaxSupport support_;
  Positions mass_, inverse_mass_, gradient_;
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
