#pragma once
// The implicit variational integrator on (S^2)^n (LLM Cor. 2), for any symmetric positive
// definite inertia M. One step (q_k, w_k) -> (q_{k+1}, w_{k+1}):
//   1. d_i = h M_ii w_i - h q_i x sum_{j!=i} M_ij (q_j x w_j) - h^2/2 q_i x dV_k/dq_i   (3.10)
//   2. solve A(f) f = d for the Cayley coordinates f_i of F_i                              (3.16)
//   3. q_{k+1,i} = F_i q_i = ((1 - f_i.f_i) q_i + 2 f_i x q_i) / (1 + f_i.f_i)            (3.15)
//   4. K(q_{k+1}) w_{k+1} = 1/h q_{k+1,i} x sum_j M_ij (q_{k+1,j} - q_{k,j})
//                           - h/2 q_{k+1,i} x dV_{k+1}/dq_i                                 (3.13)
// Steps 1, 2 and 4 use M_ii |q_i|^2 where LLM writes M_ii (see apply_a): the same on the
// sphere, and then all three rest on the identity q_i x (M_ii w_i x q_i) = M_ii |q_i|^2 w_i
// that makes their left-hand sides the momentum map, so the round-off in |q_i| cannot bias it.
// (3.16) is solved by a chord iteration, f <- f - A(0)^{-1} (A(f) f - d), started from f = 0
// and run until the residual is at round-off. A(0) = 2 K(q_k), the matrix of (2.11) with held
// norms, so one factorisation of K (closed form for two bodies, Cholesky otherwise) serves
// every iteration of the step, and A(f) f is applied without forming A. Like LLM's fixed point
// f <- A(f)^{-1} d its contraction factor is O(h): both replace the Jacobian of A(f) f by a
// matrix that differs from it by O(|f|) = O(h). If it stalls (the residual shrinks by less than
// half per iteration before reaching round-off, or 50 iterations pass) the solve continues
// with Newton's method on G(f) = A(f) f - d with the exact Jacobian.
// The gradient dV_{k+1} of one step is reused as dV_k of the next.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "integrators/compensated_sum.hpp"
#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/sphere_inertia.hpp"
#include "models/views.hpp"

namespace geomint {

inline constexpr Declaration kImplicitVariationalDeclaration{
    .name = "vi_implicit",
    .description =
        "variational integrator on (S^2)^n, LLM Cor. 2, Cayley equation (3.16) by chord iteration "
        "then Newton",
    .family = Family::Variational, .order = 2,
    .symplectic = true, .symmetric = true, .stays_on_manifold = true};

template <SphereLagrangian M>
class ImplicitVariational : public FixedStepBase<M> {
 public:
  using State = typename M::State;
  using Points = typename M::Points;
  static constexpr Declaration declaration = kImplicitVariationalDeclaration;
  static constexpr int kMaxFixedPoint = 50;
  static constexpr int kMaxNewton = 20;

  explicit ImplicitVariational(const M& model)
      : FixedStepBase<M>(model),
        n_(model.bodies()),
        lu_(3 * n_) {
    inertia_solver_.resize(n_);
    for (Points* p : {&q_, &w_, &q_next_, &dq_, &grad_, &grad_next_, &rhs_, &grad_at_, &g_})
      p->resize(3, n_);
    for (Vector* v : {&d_, &f_, &residual_, &correction_, &f_last_, &f_before_last_, &f_third_last_}) v->resize(3 * n_);
    if constexpr (!M::kDiagonalInertia) jacobian_.resize(3 * n_, 3 * n_);
  }

  void step(double t, State& y, double h) {
    const auto& m = model_.inertia();
    const Eigen::Index n = bodies();
    q_ = Eigen::Map<const Points>(y.data(), 3, n_);  // y = [q_1..q_n, w_1..w_n]
    w_ = Eigen::Map<const Points>(y.data() + 3 * n_, 3, n_);
    continuing_ = grad_valid_ && q_ == grad_at_;
    if (!continuing_) {
      model_.potential_gradient(q_, grad_);
      ++work_.f_evals;
    }
    // (3.10): the known right-hand side d.
    for (Eigen::Index i = 0; i < n; ++i) {
      Vec3 coupling = Vec3::Zero();
      if constexpr (!M::kDiagonalInertia)  // (a diagonal M couples nothing: O(n), not O(n^2))
        for (Eigen::Index j = 0; j < n; ++j)
          if (j != i && m(i, j) != 0.0) coupling += m(i, j) * q_.col(j).cross(w_.col(j));
      d_.template segment<3>(3 * i) = h * m(i, i) * q_.col(i).squaredNorm() * w_.col(i) -
                                      h * q_.col(i).cross(coupling) -
                                      0.5 * h * h * q_.col(i).cross(grad_.col(i));
    }
    solve_cayley(t);
    // (3.15), as q_{k+1} = q_k + dq with dq = (F - I) q = 2 (f x q - (f.f) q) / (1 + f.f)
    // computed from f directly: q_{k+1} - q_k would lose log10(1/h) digits to cancellation,
    // and (3.13) divides it by h, so the momentum map would take errors of eps/h per step.
    for (Eigen::Index i = 0; i < n; ++i) {
      const Vec3 fi = f_.template segment<3>(3 * i);
      const double ff = fi.squaredNorm();
      dq_.col(i) = 2.0 * (fi.cross(q_.col(i)) - ff * q_.col(i)) / (1.0 + ff);
      q_next_.col(i) = q_.col(i) + dq_.col(i);
    }
    model_.potential_gradient(q_next_, grad_next_);
    ++work_.f_evals;
    // (3.13)
    for (Eigen::Index i = 0; i < n; ++i) {
      Vec3 momentum_change = m(i, i) * dq_.col(i);
      if constexpr (!M::kDiagonalInertia)
        for (Eigen::Index j = 0; j < n; ++j)
          if (j != i && m(i, j) != 0.0) momentum_change += m(i, j) * dq_.col(j);
      rhs_.col(i) = q_next_.col(i).cross(momentum_change) / h -
                    0.5 * h * q_next_.col(i).cross(grad_next_.col(i));
    }
    inertia_solver_.solve_in_place(m, q_next_, rhs_, /*held_norms=*/true);  // see apply_a
    // With the option, q_{k+1} = q_k + dq compensated (integrators/compensated_sum.hpp): a
    // point that may differ from q_next_ by an ulp, where the gradient is then evaluated anew
    // (grad_at_ stays q_next_). w_{k+1} is the solution of (3.13), not a sum: as without it.
    for (Eigen::Index i = 0; i < n; ++i) {
      if (compensated_) compensated_add(y.template segment<3>(3 * i), dq_.col(i), carry_q_.col(i));
      else y.template segment<3>(3 * i) = q_next_.col(i);
      y.template segment<3>(3 * (n_ + i)) = rhs_.col(i);
    }
    grad_.swap(grad_next_);
    grad_at_ = q_next_;
    grad_valid_ = true;
    ++work_.steps;
  }

  /// Compensated summation of (3.15) (integrators/compensated_sum.hpp).
  void compensate() {
    compensated_ = true;
    carry_q_.setZero(3, n_);
  }

 private:
  using Vec3 = Eigen::Vector3d;
  using Mat3 = Eigen::Matrix3d;
  static constexpr int kStacked = M::kBodies == Eigen::Dynamic ? Eigen::Dynamic : 3 * M::kBodies;
  using Vector = Eigen::Matrix<double, kStacked, 1>;
  using Matrix = Eigen::Matrix<double, kStacked, kStacked>;
  static constexpr double kEps = std::numeric_limits<double>::epsilon();

  /// out = A(f) f - d, with A(f) of (3.16): blocks 2 M_ii |q_i|^2 / (1 + f_i.f_i) I on the
  /// diagonal and -2 M_ij hat(q_i) (hat(q_j) + q_j f_j^T) / (1 + f_j.f_j) off it, applied
  /// without forming A: (A f)_i = 2 M_ii |q_i|^2 f_i / s_i - q_i x sum_{j != i} M_ij g_j with
  /// g_j = 2 (q_j x f_j + |f_j|^2 q_j) / s_j, s_j = 1 + f_j.f_j.
  /// LLM derives the diagonal from q_i x F_i q_i = 2 f_i / (1 + f_i.f_i), which assumes
  /// |q_i| = 1; without that assumption it is 2 |q_i|^2 f_i / (1 + f_i.f_i) (the off-diagonal
  /// identity holds for any |q_j|). The two agree on the sphere, but |q_i| - 1 random-walks at
  /// round-off level with a sign that persists for many steps, and with the factor 1 that bias
  /// leaks into every step's solution of (3.14) and makes the momentum map drift (we measured
  /// 1e-12 per step on LLM Example 1, 70 times more than rounding alone). With |q_i|^2 the
  /// solve of (3.16) is a solve of (3.14) for the q_i actually held.
  void residual_of(const Vector& f, Vector& out) {
    const auto& m = model_.inertia();
    const Eigen::Index n = bodies();
    for (Eigen::Index j = 0; j < n; ++j) {
      const Vec3 fj = f.template segment<3>(3 * j);
      const double ffj = fj.squaredNorm();
      g_.col(j) = (2.0 / (1.0 + ffj)) * (q_.col(j).cross(fj) + ffj * q_.col(j));
    }
    for (Eigen::Index i = 0; i < n; ++i) {
      const Vec3 fi = f.template segment<3>(3 * i);
      Vec3 coupling = Vec3::Zero();
      for (Eigen::Index j = 0; j < n; ++j)
        if (j != i) coupling += m(i, j) * g_.col(j);
      out.template segment<3>(3 * i) =
          (2.0 * m(i, i) * q_.col(i).squaredNorm() / (1.0 + fi.squaredNorm())) * fi -
          q_.col(i).cross(coupling) - d_.template segment<3>(3 * i);
    }
  }

  /// The number of bodies, known at compile time for fixed-size models (so that the loops
  /// over them unroll).
  Eigen::Index bodies() const { return M::kBodies == Eigen::Dynamic ? n_ : M::kBodies; }

  /// The Jacobian of G(f) = A(f) f - d. With s = 1 + f.f:
  ///   dG_i/df_i = 2 M_ii |q_i|^2 (I/s_i - 2 f_i f_i^T / s_i^2),
  ///   dG_i/df_j = -2 M_ij hat(q_i) [(hat(q_j) + 2 q_j f_j^T) / s_j
  ///                                 - (q_j x f_j + q_j |f_j|^2) 2 f_j^T / s_j^2].
  void assemble_jacobian(const Vector& f) {
    const auto& m = model_.inertia();
    for (Eigen::Index j = 0; j < n_; ++j) {
      const Vec3 fj = f.template segment<3>(3 * j);
      const double ffj = fj.squaredNorm(), sj = 1.0 + ffj;
      const Vec3 qj = q_.col(j);
      jacobian_.template block<3, 3>(3 * j, 3 * j) =
          2.0 * m(j, j) * qj.squaredNorm() *
          (Mat3::Identity() / sj - 2.0 * fj * fj.transpose() / (sj * sj));
      const Mat3 dj = (so3::hat(qj) + 2.0 * qj * fj.transpose()) / sj -
                      (qj.cross(fj) + qj * ffj) * (2.0 / (sj * sj)) * fj.transpose();
      for (Eigen::Index i = 0; i < n_; ++i)
        if (i != j) jacobian_.template block<3, 3>(3 * i, 3 * j) = -2.0 * m(i, j) * so3::hat(q_.col(i)) * dj;
    }
  }

  /// The chord iteration in correction form, f <- f - A(0)^{-1} r with r = A(f) f - d: the
  /// solve rounds relative to the small correction instead of to f, and r is the stopping
  /// test. The residual is what the momentum map feels (its change per step is ~ |r| / h), so
  /// the iteration runs until r is at the level of the rounding in evaluating it.
  void solve_cayley(double t) {
    if constexpr (M::kDiagonalInertia)
      for (Eigen::Index i = 0; i < n_; ++i) solve_body(i, t);
    else
      solve_coupled(t);
  }

  void solve_coupled(double t) {
    start_from_history();
    inertia_solver_.factorize(model_.inertia(), q_, /*held_norms=*/true);  // A(0) = 2 K(q_k)
    const double floor = kEps * d_.template lpNorm<Eigen::Infinity>();
    if (!chord(floor)) newton(t, floor);
    f_third_last_ = f_before_last_;
    f_before_last_ = f_last_;
    f_last_ = f_;
    history_ = std::min(history_ + 1, 3);
  }

  /// The starting guess: along a trajectory (the state is the one the last step returned) the
  /// quadratic extrapolation 3 f_{k-1} - 3 f_{k-2} + f_{k-3}, which is O(h^4) from the
  /// solution (f_k is a smooth function of the state, and the states are h apart); it saves
  /// the chord iteration about two of its six iterations from f = 0 on LLM Example 1, which
  /// is where it starts anywhere else. The guess decides only where the iteration starts: it
  /// runs to round-off either way.
  void start_from_history() {
    if (!continuing_) history_ = 0;
    if (history_ == 3)
      f_ = 3.0 * (f_last_ - f_before_last_) + f_third_last_;
    else if (history_ == 2)
      f_ = 2.0 * f_last_ - f_before_last_;
    else if (history_ == 1)
      f_ = f_last_;
    else
      f_.setZero();
  }

  /// Runs the chord iteration to round-off; false if it stalls (the residual shrinks by less
  /// than half per iteration) or fails.
  bool chord(double floor) {
    double last = std::numeric_limits<double>::infinity();
    for (int it = 1; it <= kMaxFixedPoint; ++it) {
      residual_of(f_, residual_);
      const double r = residual_.template lpNorm<Eigen::Infinity>();
      if (!std::isfinite(r)) return false;
      if (converged(r, last, floor)) {
        // One more correction: the iteration approaches its solution from one side, so an
        // accepted residual of a few ulps is biased, and that bias would add up in the
        // momentum map.
        if (it > 1) chord_correction();
        return true;
      }
      if (it >= 3 && r > 0.5 * last) return false;
      last = r;
      ++work_.nonlinear_iterations;
      chord_correction();
    }
    return false;
  }

  /// f <- f - A(0)^{-1} r = f - K(q_k)^{-1} r / 2, into preallocated memory.
  void chord_correction() {
    Eigen::Map<Points> correction(correction_.data(), 3, n_);
    correction_ = residual_;
    inertia_solver_.solve_in_place(correction);
    f_ -= 0.5 * correction_;
  }

  /// With a diagonal inertia (3.16) falls apart into one equation per body,
  ///   G_i(f) = 2 a f / (1 + f.f) - d_i = 0,   a = M_ii |q_i|^2,
  /// solved by the same fixed point (f <- (1 + f.f) d_i / (2 a), in correction form) and the
  /// same Newton fallback, without ever forming the 3n x 3n matrix.
  void solve_body(Eigen::Index i, double t) {
    const double a = model_.inertia()(i, i) * q_.col(i).squaredNorm();
    const Vec3 d = d_.template segment<3>(3 * i);
    const double floor = kEps * d.template lpNorm<Eigen::Infinity>();
    Vec3 f = Vec3::Zero();
    double last = std::numeric_limits<double>::infinity();
    bool newton = false;
    for (int it = 1; it <= kMaxFixedPoint + kMaxNewton; ++it) {
      const double s = 1.0 + f.squaredNorm();
      const Vec3 r = (2.0 * a / s) * f - d;
      const double rn = r.template lpNorm<Eigen::Infinity>();
      if (!std::isfinite(rn)) break;
      if (converged(rn, last, floor)) {
        f_.template segment<3>(3 * i) = f;
        return;
      }
      if (!newton && (it > kMaxFixedPoint || (it >= 3 && rn > 0.5 * last))) newton = true;
      last = rn;
      ++work_.nonlinear_iterations;
      if (newton) {
        const Mat3 jac = 2.0 * a * (Mat3::Identity() / s - 2.0 * f * f.transpose() / (s * s));
        f -= jac.partialPivLu().solve(r);
      } else {
        f -= (s / (2.0 * a)) * r;
      }
    }
    throw NonConvergence(t, "LLM (3.16) for body " + std::to_string(i + 1) +
                                ": neither the fixed point nor Newton converged (residual " +
                                std::to_string(last) + "); the step size is probably too large");
  }

  /// At round-off: the residual is within a few ulps of d, or has stopped decreasing within
  /// a hundred of them.
  static bool converged(double r, double last, double floor) {
    return r <= 4.0 * floor || (r >= last && r <= 100.0 * floor);
  }

  void newton(double t, double floor) {
    if (!f_.allFinite()) f_.setZero();
    double last = std::numeric_limits<double>::infinity();
    for (int it = 1; it <= kMaxNewton; ++it) {
      residual_of(f_, residual_);
      const double r = residual_.template lpNorm<Eigen::Infinity>();
      if (!std::isfinite(r)) break;
      if (converged(r, last, floor)) return;
      last = r;
      ++work_.nonlinear_iterations;
      assemble_jacobian(f_);
      lu_.compute(jacobian_);
      correction_ = lu_.solve(residual_);  // (assigned: `f_ -= lu_.solve(..)` would allocate)
      f_ -= correction_;
    }
    throw NonConvergence(t, "LLM (3.16): fixed-point iteration stalled and Newton did not "
                            "converge in " + std::to_string(kMaxNewton) +
                            " iterations (residual " + std::to_string(last) +
                            "); the step size is probably too large");
  }

  using FixedStepBase<M>::model_;
  using FixedStepBase<M>::work_;
  Eigen::Index n_;
  SphereInertiaSolver<M::kBodies, M::kDiagonalInertia> inertia_solver_;
  Points q_, w_, q_next_, dq_, grad_, grad_next_, rhs_, grad_at_;
  Points g_;  // residual_of's g_j
  bool grad_valid_ = false;
  bool compensated_ = false;
  Points carry_q_;  // the compensation, when compensated_
  bool continuing_ = false;  // y is the state the last step returned
  int history_ = 0;          // how many of f_last_, f_before_last_ belong to this trajectory
  Vector f_last_, f_before_last_, f_third_last_;
  Vector d_, f_, residual_, correction_;
  // The Newton fallback's Jacobian and factorisation; a diagonal inertia needs neither.
  struct NoFactorisation {
    explicit NoFactorisation(Eigen::Index) {}
  };
  Matrix jacobian_;
  std::conditional_t<M::kDiagonalInertia, NoFactorisation, Eigen::PartialPivLU<Matrix>> lu_;
};

}  // namespace geomint
