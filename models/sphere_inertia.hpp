#pragma once
// The matrix of LLM (2.11) and (3.13),
//   K(q)_ii = M_ii I,   K(q)_ij = -M_ij hat(q_i) hat(q_j)  (i != j),
// which maps angular velocities (or accelerations) to angular momenta on (S^2)^n. It is
// symmetric positive definite: on tangent vectors w_i (q_i . w_i = 0) it is the kinetic metric
// (w^T K w = sum_ij M_ij (q_i x w_i).(q_j x w_j)), on normal ones diag(M_ii), and it does not
// mix the two. So a Cholesky factorisation solves it, and for a diagonal M it is diagonal.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <type_traits>
#include <utility>

#include "geometry/so3.hpp"

namespace geomint {

/// A diagonal inertia M = diag(M_11, .., M_nn), held as its diagonal: O(n) memory, so a model
/// of 10^5 bodies coupled through the potential only (molecules on the sphere) keeps no n x n
/// matrix. It reads like the dense matrix it stands for: M(i, j) = 0 off the diagonal.
template <int N>
class DiagonalInertia {
 public:
  using Diagonal = Eigen::Matrix<double, N, 1>;

  DiagonalInertia() = default;
  explicit DiagonalInertia(Diagonal d) : d_(std::move(d)) {}
  /// n bodies of the same inertia m.
  static DiagonalInertia constant(Eigen::Index n, double m) {
    return DiagonalInertia(Diagonal::Constant(n, m));
  }

  double operator()(Eigen::Index i, Eigen::Index j) const { return i == j ? d_(i) : 0.0; }
  Eigen::Index rows() const { return d_.size(); }
  Eigen::Index cols() const { return d_.size(); }
  const Diagonal& diagonal() const { return d_; }

 private:
  Diagonal d_;
};

/// Solves K(q) x = b; owns the scratch memory for it. factorize(m, q) prepares the solve for
/// one q, after which solve_in_place(b) may be called for any number of right-hand sides (the
/// implicit VI's chord iteration solves with K(q_k) many times per step); the four-argument
/// solve_in_place does both. Copies get scratch of their own (of the same size) and copy no
/// contents: there is nothing to share, and a factorisation that was never computed must not
/// be read.
template <int N, bool Diagonal>
class SphereInertiaSolver {
 public:
  using Points = Eigen::Matrix<double, 3, N>;
  using Inertia = std::conditional_t<Diagonal, DiagonalInertia<N>, Eigen::Matrix<double, N, N>>;

  SphereInertiaSolver() = default;
  SphereInertiaSolver(const SphereInertiaSolver& other) { resize(other.bodies_); }
  SphereInertiaSolver& operator=(const SphereInertiaSolver& other) {
    resize(other.bodies_);
    return *this;
  }

  /// Sizes the scratch memory for n bodies (only dynamic sizes allocate).
  void resize(Eigen::Index n) {
    bodies_ = n;
    if constexpr (Diagonal) {
      factors_.diagonal.resize(n);
    } else if constexpr (N == Eigen::Dynamic) {
      factors_.k.resize(3 * n, 3 * n);
      factors_.rhs.resize(3 * n);
    }
  }

  /// Prepares solves with K(q). With `held_norms` the diagonal blocks are M_ii |q_i|^2 I, which
  /// is what K_ii is when it is derived without assuming |q_i| = 1
  /// (q_i x (w_i x q_i) = |q_i|^2 w_i for w_i . q_i = 0); on the sphere the two are the same.
  template <class Q>
  void factorize(const Inertia& m, const Q& q, bool held_norms = false) {
    const Eigen::Index n = m.rows();
    const auto diagonal = [&](Eigen::Index i) { return diagonal_block(m, q, i, held_norms); };
    if constexpr (Diagonal) {
      for (Eigen::Index i = 0; i < n; ++i) factors_.diagonal(i) = diagonal(i);
    } else if constexpr (N == 2) {
      factors_.factorize(m(0, 1), diagonal(0), diagonal(1), q.col(0), q.col(1));
    } else {
      auto& k = factors_.k;
      for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Matrix3d qi_hat = so3::hat(q.col(i));
        k.template block<3, 3>(3 * i, 3 * i) = diagonal(i) * Eigen::Matrix3d::Identity();
        for (Eigen::Index j = i + 1; j < n; ++j) {
          const Eigen::Matrix3d kij = -m(i, j) * qi_hat * so3::hat(q.col(j));
          k.template block<3, 3>(3 * i, 3 * j) = kij;
          k.template block<3, 3>(3 * j, 3 * i) = kij.transpose();
        }
      }
      factors_.llt.compute(k);
    }
  }

  /// Overwrites the columns b_i of `b` (a 3 x n matrix or map) with the solution x of
  /// K(q) x = b, for the q of the last factorize().
  template <class B>
  void solve_in_place(B& b) {
    if constexpr (Diagonal) {
      for (Eigen::Index i = 0; i < bodies_; ++i) b.col(i) /= factors_.diagonal(i);
    } else if constexpr (N == 2) {
      factors_.solve_in_place(b);
    } else {
      factors_.rhs = Eigen::Map<const Stacked>(b.data(), 3 * bodies_);
      factors_.llt.solveInPlace(factors_.rhs);
      Eigen::Map<Stacked>(b.data(), 3 * bodies_) = factors_.rhs;
    }
  }

  template <class Q>
  void solve_in_place(const Inertia& m, const Q& q, Points& b, bool held_norms = false) {
    if constexpr (Diagonal) {  // one pass, nothing to keep (the vector field of every step)
      for (Eigen::Index i = 0; i < m.rows(); ++i) b.col(i) /= diagonal_block(m, q, i, held_norms);
    } else {
      factorize(m, q, held_norms);
      solve_in_place(b);
    }
  }

 private:
  /// K_ii / I: M_ii, or M_ii |q_i|^2 with held norms (see factorize).
  template <class Q>
  static double diagonal_block(const Inertia& m, const Q& q, Eigen::Index i, bool held_norms) {
    return held_norms ? m(i, i) * q.col(i).squaredNorm() : m(i, i);
  }

  static constexpr int kStacked = N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N;
  using Stacked = Eigen::Matrix<double, kStacked, 1>;
  using KMatrix = Eigen::Matrix<double, kStacked, kStacked>;

  /// A diagonal inertia: K = diag(K_11 I, .., K_nn I), kept as K_11..K_nn.
  struct DiagonalFactors {
    Eigen::Matrix<double, N, 1> diagonal;
  };

  /// Two bodies (the double pendulum, LLM (2.11)): K = [a I, B; B^T, c I] with
  /// B = -m12 hat(q1) hat(q2) is solved through the Schur complement of its first block,
  ///   S x2 = b2 - B^T b1 / a,   a x1 = b1 - B x2,   S = c I - B^T B / a,
  /// B^T B = m12^2 hat(q2) hat(q1)^2 hat(q2) = -m12^2 (u u^T + |q1|^2 (q2 q2^T - |q2|^2 I)),
  /// u = q2 x q1, so S = alpha I + beta q2 q2^T + gamma u u^T with u . q2 = 0:
  ///   alpha = c - gamma |q1|^2 |q2|^2,  beta = gamma |q1|^2,  gamma = m12^2 / a.
  /// Two orthogonal rank-one updates of a multiple of I invert in closed form (Sherman-Morrison
  /// twice; no division by |u|, which vanishes when the links are aligned):
  ///   S^-1 = (I - beta q2 q2^T / (alpha + beta |q2|^2) - gamma u u^T / (alpha + gamma |u|^2))
  ///          / alpha.
  /// alpha > 0 because K is positive definite (alpha = |q2|^2 det M / M11 with held norms, and
  /// det M / M11 on the sphere). About 60 flops instead of a 6 x 6 Cholesky factorisation.
  struct TwoBodyFactors {
    template <class Q1, class Q2>
    void factorize(double m12_, double a_, double c, const Q1& q1_, const Q2& q2_) {
      m12 = m12_;
      a = a_;
      q1 = q1_;
      q2 = q2_;
      u = q2.cross(q1);
      const double gamma = m12 * m12 / a;
      const double q2q2 = q2.squaredNorm();
      const double beta = gamma * q1.squaredNorm();
      alpha = c - beta * q2q2;
      beta_over = beta / (alpha + beta * q2q2);
      gamma_over = gamma / (alpha + gamma * u.squaredNorm());
    }
    template <class B>
    void solve_in_place(B& b) const {
      const Eigen::Vector3d b1 = b.col(0);
      const Eigen::Vector3d r = b.col(1) + (m12 / a) * q2.cross(q1.cross(b1));  // b2 - B^T b1 / a
      const Eigen::Vector3d x2 =
          (r - (beta_over * q2.dot(r)) * q2 - (gamma_over * u.dot(r)) * u) / alpha;
      b.col(0) = (b1 + m12 * q1.cross(q2.cross(x2))) / a;  // (b1 - B x2) / a
      b.col(1) = x2;
    }
    double m12 = 0.0, a = 1.0, alpha = 1.0, beta_over = 0.0, gamma_over = 0.0;
    Eigen::Vector3d q1, q2, u;
  };

  /// Any other coupled inertia: K assembled and factorised by Cholesky.
  struct DenseFactors {
    KMatrix k;
    Stacked rhs;
    Eigen::LLT<KMatrix> llt;
  };

  Eigen::Index bodies_ = 0;
  std::conditional_t<Diagonal, DiagonalFactors,
                     std::conditional_t<N == 2, TwoBodyFactors, DenseFactors>>
      factors_;
};

}  // namespace geomint
