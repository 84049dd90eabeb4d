#pragma once
// The variational integrator with holonomic constraints and Lagrange multipliers (DuToit
// Sections 3, 5.4, 6.3, App. B, C; Wendlandt-Marsden 1997), for a model offering the
// ConstrainedLagrangian view: L = 1/2 x'^T M x' - V(x), g(x, t) = 0. With the midpoint discrete
// Lagrangian L_d(x, y) = h L((x + y)/2, (y - x)/h) the discrete Euler-Lagrange equations with
// multipliers are (NOTES-dutoit 2.1, the DEL of Section 3 read as D1 L_d(q_k, q_k+1))
//   M (x_k+1 - 2 x_k + x_k-1) / h^2 + 1/2 [grad V(x_k+1/2) + grad V(x_k-1/2)] - Dg(x_k, t_k)^T mu = 0,
//   g(x_k+1, t_k+1) = 0,                                             x_k+1/2 = (x_k + x_k+1)/2.
// Two methods share that solve:
//   - constrained_vi: DuToit's two-step recurrence itself (SHAKE when grad V is constant, as for
//     the Astrojax), started from (x_0, x_0') by NOTES 2.6,
//       M (x_1 - x_0) / h + h/2 grad V(x_1/2) = M x_0' + h/2 Dg(x_0, t_0)^T mu_0,   g(x_1, t_1) = 0,
//     (a ghost point x_-1 = x_0 - h x_0' would cost an order). The integrator keeps x_k - x_k-1 and
//     continues the recurrence while it is handed back the state it returned, with the same h;
//     otherwise it starts again from the state.
//   - rattle: every step is the start above (the discrete Legendre transform p_k = M x_k'),
//     followed by the velocity-level constraint at the new point,
//       M x_1' = M (x_1 - x_0) / h - h/2 grad V(x_1/2) + h/2 Dg(x_1, t_1)^T lambda,
//       Dg(x_1, t_1) x_1' + dg/dt(x_1, t_1) = 0.
// Both return the velocity of that last projection, so a state is always on the manifold
// (g = 0, Dg x' + dg/dt = 0). The recurrence's positions are RATTLE's: the momentum
// M (x_k - x_k-1)/h - h/2 grad V(x_k-1/2) that the recurrence uses in place of M x_k' differs
// from it by a multiple of Dg(x_k)^T, which mu absorbs. So the two methods differ in how they
// compute, not in what: a test checks their positions agree to round-off. Both are symmetric,
// symplectic and of order 2 on the constraint manifold, and for a symmetry that leaves V and g
// invariant they conserve the discrete Noether momentum exactly: x_k+1 x [M (x_k+1 - x_k)/h -
// h/2 grad V(x_k+1/2)] (NOTES 2.6) is the momentum of the returned state, since the projection
// adds Dg(x_1)^T lambda, whose moment vanishes for invariant constraints.
//
// The solve, for z = (Delta, nu) in R^(d + c), Delta = x_1 - x_0: with the step's known displacement
//   D = h x_0'                                                  (start, rattle)
//   D = x_0 - x_-1 - h^2/2 M^-1 grad V(x_-1/2)                  (recurrence),
// the residual is written in App. B's scaling (rows divided by M/h^2, so O(1) per unit length)
//   r_x = Delta - D + h^2/2 M^-1 grad V(x_1/2) - h^2 M^-1 Dg(x_0, t_0)^T nu,
//   r_g = g(x_1, t_1),
// (nu = mu in the recurrence, mu_0 / 2 in the start), and Newton's method uses its exact
// Jacobian (NOTES 2.3, 2.4; the paper's chord with Dg(x_0) in the last row converges only
// linearly)
//   [[I + h^2/4 M^-1 Hess V(x_1/2), -h^2 M^-1 Dg(x_0, t_0)^T], [Dg(x_1, t_1), 0]],
// factorised afresh every iteration. The unknown is the increment Delta, not x_1, and the
// velocity Delta / h - ..., so that it carries Delta's rounding, eps |Delta|, and not that of
// x_1 - x_0 formed from two positions, eps |x| (1/h times larger in the velocity): the
// momentum's rounding per step is then of order eps |p|, where through x_1 it was eps M |x| / h
// and grew like its square root of the steps (1e-10 in 10^4 steps of 1e-3 on 42 molecules,
// against 2e-15 for LLM's VIs). Newton starts from Delta = D - h^2/2 M^-1 grad V (at x_0 for a
// start; in the recurrence the last step's grad V(x_k-1/2), already at hand) and the previous
// step's nu, and stops when the correction of Delta is at round-off, 4 eps max(1, |x_0|) (max
// norms), or when it has stopped halving below 1e-12 max(1, |x_0|) (the rounding of evaluating
// the residual). After 30 iterations, or at a non-finite iterate, the step fails with
// NonConvergence, naming the time and the residual.

#include <Eigen/Core>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

struct ConstrainedVi {
  static constexpr bool kRecurrence = true;
  static constexpr Declaration declaration{
      .name = "constrained_vi",
      .description =
          "variational integrator with constraints and Lagrange multipliers, DuToit Sections 3, "
          "5.4 "
          "(App. B, C): the two-step DEL (SHAKE), Newton with the exact Jacobian",
      .family = Family::ConstrainedVariational, .order = 2,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};
struct Rattle {
  static constexpr bool kRecurrence = false;
  static constexpr Declaration declaration{
      .name = "rattle",
      .description =
          "RATTLE: the constrained variational integrator in position-momentum form with the "
          "velocity-level constraint, Newton with the exact Jacobian",
      .family = Family::ConstrainedVariational, .order = 2,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};

template <ConstrainedLagrangian M, class Method>
class ConstrainedVariational : public FixedStepBase<M> {
 public:
  using State = typename M::State;
  using Positions = typename M::Positions;
  using Constraints = typename M::Constraints;
  using ConstraintJacobian = typename M::ConstraintJacobian;
  static constexpr Declaration declaration = Method::declaration;
  static constexpr int kMaxIterations = 30;
  /// The largest d + c the dense Newton matrix may have: its LU costs 2/3 (d + c)^3 flops every
  /// iteration, 0.7 GFlop at 1024 (a few tenths of a second; the 642 molecules of lee2009,
  /// d + c = 2568, took over 10 s a step on a 2-core VM, 2026-11-29).
  static constexpr Eigen::Index kMaxDenseDimension = 1024;

  explicit ConstrainedVariational(const M& model)
      : FixedStepBase<M>(model),
        d_(model.positions_dimension()),
        c_(checked_constraint_count(model)),
        lu_(d_ + c_),
        velocity_lu_(c_) {
    for (Positions* p : {&x0_, &v0_, &x1_, &v1_, &displacement_, &increment_, &grad_, &midpoint_, &force_})
      p->resize(d_);
    for (Constraints* g : {&g1_, &nu_, &mu_, &rate_}) g->resize(c_);
    nu_.setZero();
    for (ConstraintJacobian* j : {&dg0_, &dg1_, &dg1_scaled_}) j->resize(c_, d_);
    residual_.resize(d_ + c_);
    correction_.resize(d_ + c_);
    jacobian_.resize(d_ + c_, d_ + c_);
    if constexpr (!M::kConstantPotentialGradient) hessian_.resize(d_, d_);
    velocity_matrix_.resize(c_, c_);
  }

  /// The multiplier of the last step's position constraint: mu of the recurrence, or 2 nu of
  /// a start (both approximate the force multiplier, M x'' = -grad V + Dg^T mu).
  const Constraints& multiplier() const { return mu_; }

  void step(double t, State& y, double h) {
    const bool continuing =
        Method::kRecurrence && has_history_ && h == h_history_ && t == t_history_ && y == y_history_;
    model_.configuration(t, y, x0_, v0_);
    const Positions& m = model_.mass();
    if (continuing) {  // grad_ still holds grad V(x_k-1/2), from the last step's solve
      displacement_ = increment_ - 0.5 * h * h * grad_.cwiseQuotient(m);
    } else {
      displacement_ = h * v0_;
      model_.constrained_gradient(x0_, grad_);  // for the predictor
      ++work_.f_evals;
    }
    solve_positions(t, h);
    mu_ = (continuing ? 1.0 : 2.0) * nu_;
    project_velocity(t + h, h);
    model_.set_configuration(t + h, x1_, v1_, y);
    if constexpr (Method::kRecurrence) {
      y_history_ = y;
      h_history_ = h;
      t_history_ = t + h;
      has_history_ = true;
    }
    ++work_.steps;
  }

 private:
  /// c, refused where d + c exceeds kMaxDenseDimension (before anything is allocated).
  static Eigen::Index checked_constraint_count(const M& model) {
    if (model.positions_dimension() + model.constraint_count() > kMaxDenseDimension)
      throw InputError(std::string(declaration.name) + ": the model's constrained form has " +
                       std::to_string(model.positions_dimension()) + " positions and " +
                       std::to_string(model.constraint_count()) +
                       " constraints; the dense Newton matrix allows at most " +
                       std::to_string(kMaxDenseDimension) + " together");
    return model.constraint_count();
  }

  using Unknowns = Eigen::Matrix<double, Eigen::Dynamic, 1>;
  using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;
  static constexpr double kEps = std::numeric_limits<double>::epsilon();
  static constexpr double kRoundOff = 4.0 * kEps, kStalled = 1e-12;

  /// r = (r_x, r_g) at z = (x_1 - x_0, nu), with x_1 and grad V(x_1/2) left in x1_, grad_.
  void evaluate_residual(double t, double h) {
    const Positions& m = model_.mass();
    x1_ = x0_ + increment_;
    midpoint_ = x0_ + 0.5 * increment_;
    model_.constrained_gradient(midpoint_, grad_);
    ++work_.f_evals;
    force_.noalias() = dg0_.transpose() * nu_;
    residual_.head(d_) =
        increment_ - displacement_ + (0.5 * h * h * grad_ - h * h * force_).cwiseQuotient(m);
    model_.constraints(t + h, x1_, g1_);
    residual_.tail(c_) = g1_;
  }

  /// The exact Jacobian of (r_x, r_g) at z.
  void assemble_jacobian(double t, double h) {
    const Positions& m = model_.mass();
    jacobian_.setZero();
    jacobian_.topLeftCorner(d_, d_).diagonal().setOnes();
    if constexpr (!M::kConstantPotentialGradient) {
      model_.potential_hessian(midpoint_, hessian_);
      jacobian_.topLeftCorner(d_, d_) += 0.25 * h * h * m.cwiseInverse().asDiagonal() * hessian_;
    }
    jacobian_.topRightCorner(d_, c_) = -h * h * m.cwiseInverse().asDiagonal() * dg0_.transpose();
    model_.constraint_jacobian(t + h, x1_, dg1_);
    jacobian_.bottomLeftCorner(c_, d_) = dg1_;
  }

  /// Newton's method on (r_x, r_g) = 0 for (x_1 - x_0, nu); see the file comment. The
  /// predictor takes grad V from grad_: at x_0 for a start, at x_k-1/2 in the recurrence.
  void solve_positions(double t, double h) {
    const Positions& m = model_.mass();
    model_.constraint_jacobian(t, x0_, dg0_);
    increment_ = displacement_ - 0.5 * h * h * grad_.cwiseQuotient(m);
    double last = std::numeric_limits<double>::infinity();
    for (int it = 1; it <= kMaxIterations; ++it) {
      evaluate_residual(t, h);
      if (!residual_.allFinite()) fail(t, h, "a non-finite residual");
      assemble_jacobian(t, h);
      lu_.compute(jacobian_);
      correction_ = lu_.solve(residual_);
      increment_ -= correction_.head(d_);
      nu_ -= correction_.tail(c_);
      ++work_.nonlinear_iterations;
      const double size = correction_.head(d_).template lpNorm<Eigen::Infinity>();
      const double scale = std::max(1.0, x0_.template lpNorm<Eigen::Infinity>());
      if (!std::isfinite(size)) fail(t, h, "a non-finite Newton correction");
      if (size <= kRoundOff * scale || (size <= kStalled * scale && size > 0.5 * last)) {
        evaluate_residual(t, h);  // x_1, grad V(x_1/2) and g(x_1) at the accepted increment
        return;
      }
      last = size;
    }
    fail(t, h, "no convergence in " + std::to_string(kMaxIterations) + " Newton iterations");
  }

  /// x_1' from M x_1' = M (x_1 - x_0)/h - h/2 grad V(x_1/2) + h/2 Dg(x_1)^T lambda with
  /// Dg(x_1) x_1' + dg/dt = 0: a c x c solve for lambda (grad_ holds grad V(x_1/2)).
  void project_velocity(double t1, double h) {
    const Positions& m = model_.mass();
    v1_ = increment_ / h - 0.5 * h * grad_.cwiseQuotient(m);
    model_.constraint_jacobian(t1, x1_, dg1_);
    model_.constraint_rate(t1, x1_, rate_);
    dg1_scaled_ = dg1_ * m.cwiseInverse().asDiagonal();
    velocity_matrix_.noalias() = 0.5 * h * dg1_scaled_ * dg1_.transpose();
    velocity_lu_.compute(velocity_matrix_);
    rate_ = -rate_;
    rate_.noalias() -= dg1_ * v1_;
    g1_ = velocity_lu_.solve(rate_);  // lambda
    force_.noalias() = dg1_.transpose() * g1_;
    v1_ += 0.5 * h * force_.cwiseQuotient(m);
  }

  [[noreturn]] void fail(double t, double h, const std::string& what) const {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s: %s solving the step t -> t + %.3e (residual %.3e)",
                  declaration.name.data(), what.c_str(), h,
                  residual_.template lpNorm<Eigen::Infinity>());
    throw NonConvergence(t, buf);
  }

  using FixedStepBase<M>::model_;
  using FixedStepBase<M>::work_;
  Eigen::Index d_, c_;
  Eigen::PartialPivLU<Matrix> lu_;
  Eigen::PartialPivLU<Matrix> velocity_lu_;
  Positions x0_, v0_, x1_, v1_, displacement_, increment_, grad_, midpoint_, force_;
  Constraints g1_, nu_, mu_, rate_;
  ConstraintJacobian dg0_, dg1_, dg1_scaled_;
  Unknowns residual_, correction_;
  Matrix jacobian_, velocity_matrix_;
  typename M::PositionMatrix hessian_;
  State y_history_;
  double h_history_ = 0.0, t_history_ = 0.0;
  bool has_history_ = false;
};

}  // namespace geomint
