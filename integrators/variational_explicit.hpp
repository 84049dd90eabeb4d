#pragma once
// The explicit variational integrator on (S^2)^n (LLM Cor. 3), for a diagonal inertia
// (bodies coupled through the potential only):
//   a_i       = h w_i - h^2/(2 M_ii) q_i x dV_k/dq_i
//   q_{k+1,i} = a_i x q_i + (1 - |a_i|^2)^{1/2} q_i                                     (3.17)
//   w_{k+1,i} = w_i - h/(2 M_ii) q_i x dV_k/dq_i - h/(2 M_ii) q_{k+1,i} x dV_{k+1}/dq_i   (3.18)
// A step with |a_i| > 1 has no solution on the sphere: the step is too large for the motion.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <string>

#include "integrators/compensated_sum.hpp"
#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

inline constexpr Declaration kExplicitVariationalDeclaration{
    .name = "vi_explicit",
    .description = "explicit variational integrator on (S^2)^n for diagonal inertia, LLM Cor. 3",
    .family = Family::Variational, .order = 2,
    .symplectic = true, .symmetric = true, .stays_on_manifold = true};

template <DiagonalSphereLagrangian M>
class ExplicitVariational : public FixedStepBase<M> {
 public:
  using State = typename M::State;
  using Points = typename M::Points;
  static constexpr Declaration declaration = kExplicitVariationalDeclaration;

  explicit ExplicitVariational(const M& model)
      : FixedStepBase<M>(model), n_(model.bodies()) {
    for (Points* p : {&q_, &grad_, &grad_at_, &kick_}) p->resize(3, n_);
  }

  void step(double t, State& y, double h) {
    if (compensated_) [[unlikely]]
      advance_compensated(t, y, h);
    else
      advance<false>(t, y, h);
  }

  /// Compensated summation of (3.17) and (3.18) (integrators/compensated_sum.hpp).
  void compensate() {
    compensated_ = true;
    carry_q_.setZero(3, n_);
    carry_w_.setZero(3, n_);
  }

 private:
  /// Out of line, so that the plain step is compiled and inlined as without the option.
  [[gnu::noinline]] void advance_compensated(double t, State& y, double h) { advance<true>(t, y, h); }

  /// One step; Compensated a template argument, so that the plain step's code is what it is
  /// without the option.
  template <bool Compensated>
  void advance(double t, State& y, double h) {
    const auto& m = model_.inertia();
    Eigen::Map<Points> q(y.data(), 3, n_);  // y = [q_1..q_n, w_1..w_n]
    Eigen::Map<Points> w(y.data() + 3 * n_, 3, n_);
    if (!(grad_valid_ && q == grad_at_)) {
      q_ = q;
      model_.potential_gradient(q_, grad_);
      ++work_.f_evals;
    }
    for (Eigen::Index i = 0; i < n_; ++i) {
      kick_.col(i) = (0.5 * h / m(i, i)) * q.col(i).cross(grad_.col(i));
      const Eigen::Vector3d a = h * (w.col(i) - kick_.col(i));
      const double aa = a.squaredNorm();
      if (!(aa <= 1.0))
        throw NonConvergence(t, "LLM (3.17) has no solution: |h w - h^2/(2M) q x dV/dq| = " +
                                    std::to_string(std::sqrt(aa)) + " > 1 for body " +
                                    std::to_string(i + 1) + "; the step size is too large");
      // (3.17) in increment form, q + (a x q + (c - 1) q) with c - 1 = -|a|^2 / (1 + c),
      // c = (1 - |a|^2)^{1/2}: the same point, but not c q. c is a double near 1 that carries
      // the rounding of 1 - |a|^2 (up to 2^-54), and as |a|^2 varies slowly that rounding has
      // the same sign step after step: |q_i| drifted linearly, 3e-17 per step (3e-13 over 10^4
      // steps of sphere_lj, 2e-12 for the seven substeps of Yoshida-6). The increment is
      // rounded relative to its own size, and q + increment adds a rounding that does not
      // repeat: a random walk (tests/manifold/test_stays_on_manifold.cpp).
      const Eigen::Vector3d qi = q.col(i);
      const Eigen::Vector3d dq = a.cross(qi) - (aa / (1.0 + std::sqrt(1.0 - aa))) * qi;
      if constexpr (Compensated) compensated_add(q.col(i), dq, carry_q_.col(i));
      else q.col(i) = qi + dq;
      q_.col(i) = q.col(i);  // (the copy for the gradient, made while the column is at hand)
    }
    model_.potential_gradient(q_, grad_);
    ++work_.f_evals;
    for (Eigen::Index i = 0; i < n_; ++i) {  // (3.18)
      if constexpr (Compensated) {
        const Eigen::Vector3d dw = -(kick_.col(i) + (0.5 * h / m(i, i)) * q.col(i).cross(grad_.col(i)));
        compensated_add(w.col(i), dw, carry_w_.col(i));
      } else {
        w.col(i) -= kick_.col(i) + (0.5 * h / m(i, i)) * q.col(i).cross(grad_.col(i));
      }
    }
    grad_at_.swap(q_);  // q_ is scratch, rewritten before its next use
    grad_valid_ = true;
    ++work_.steps;
  }

  using FixedStepBase<M>::model_;
  using FixedStepBase<M>::work_;
  Eigen::Index n_;
  Points q_, grad_, grad_at_, kick_;
  bool grad_valid_ = false;
  bool compensated_ = false;
  Points carry_q_, carry_w_;  // the compensations, when compensated_
};

}  // namespace geomint
