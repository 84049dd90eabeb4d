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

/// Solves K(q) x = b; owns the scratch memory for it. Copies get scratch of their own (of the
/// same size) and copy no contents: there is nothing to share, and a factorisation that was
/// never computed must not be read.
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
    if constexpr (!Diagonal && N == Eigen::Dynamic) {
      dense_.k.resize(3 * n, 3 * n);
      dense_.rhs.resize(3 * n);
    }
  }

  /// Overwrites the columns b_i of `b` with the solution x of K(q) x = b.
  /// With `held_norms` the diagonal blocks are M_ii |q_i|^2 I, which is what K_ii is when it is
  /// derived without assuming |q_i| = 1 (q_i x (w_i x q_i) = |q_i|^2 w_i for w_i . q_i = 0); on
  /// the sphere the two are the same.
  template <class Q>
  void solve_in_place(const Inertia& m, const Q& q, Points& b, bool held_norms = false) {
    const Eigen::Index n = m.rows();
    const auto diagonal = [&](Eigen::Index i) {
      return held_norms ? m(i, i) * q.col(i).squaredNorm() : m(i, i);
    };
    if constexpr (Diagonal) {
      for (Eigen::Index i = 0; i < n; ++i) b.col(i) /= diagonal(i);
    } else {
      auto& k = dense_.k;
      for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Matrix3d qi_hat = so3::hat(q.col(i));
        k.template block<3, 3>(3 * i, 3 * i) = diagonal(i) * Eigen::Matrix3d::Identity();
        for (Eigen::Index j = i + 1; j < n; ++j) {
          const Eigen::Matrix3d kij = -m(i, j) * qi_hat * so3::hat(q.col(j));
          k.template block<3, 3>(3 * i, 3 * j) = kij;
          k.template block<3, 3>(3 * j, 3 * i) = kij.transpose();
        }
      }
      dense_.llt.compute(k);
      dense_.rhs = Eigen::Map<const Stacked>(b.data(), 3 * n);
      dense_.llt.solveInPlace(dense_.rhs);
      Eigen::Map<Stacked>(b.data(), 3 * n) = dense_.rhs;
    }
  }

 private:
  static constexpr int kStacked = N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N;
  using Stacked = Eigen::Matrix<double, kStacked, 1>;
  using KMatrix = Eigen::Matrix<double, kStacked, kStacked>;
  struct Dense {
    KMatrix k;
    Stacked rhs;
    Eigen::LLT<KMatrix> llt;
  };
  struct None {};
  Eigen::Index bodies_ = 0;
  std::conditional_t<Diagonal, None, Dense> dense_;
};

}  // namespace geomint
