#pragma once
// The matrix of LLM (2.11) and (3.13),
//   K(q)_ii = M_ii I,   K(q)_ij = -M_ij hat(q_i) hat(q_j)  (i != j),
// which maps angular velocities (or accelerations) to angular momenta on (S^2)^n. It is
// symmetric positive definite: on tangent vectors w_i (q_i . w_i = 0) it is the kinetic metric
// (w^T K w = sum_ij M_ij (q_i x w_i).(q_j x w_j)), on normal ones diag(M_ii), and it does not
// mix the two. So a Cholesky factorisation solves it, and for a diagonal M it is diagonal.

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "geometry/so3.hpp"

namespace geomint {

template <int N, bool Diagonal>
class SphereInertiaSolver {
 public:
  using Points = Eigen::Matrix<double, 3, N>;
  using Inertia = Eigen::Matrix<double, N, N>;

  /// Sizes the scratch memory for n bodies (a no-op when N is fixed).
  void resize(Eigen::Index n) {
    if constexpr (!Diagonal && N == Eigen::Dynamic) {
      k_.resize(3 * n, 3 * n);
      rhs_.resize(3 * n);
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
      for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Matrix3d qi_hat = so3::hat(q.col(i));
        k_.template block<3, 3>(3 * i, 3 * i) = diagonal(i) * Eigen::Matrix3d::Identity();
        for (Eigen::Index j = i + 1; j < n; ++j) {
          const Eigen::Matrix3d kij = -m(i, j) * qi_hat * so3::hat(q.col(j));
          k_.template block<3, 3>(3 * i, 3 * j) = kij;
          k_.template block<3, 3>(3 * j, 3 * i) = kij.transpose();
        }
      }
      llt_.compute(k_);
      rhs_ = Eigen::Map<const Stacked>(b.data(), 3 * n);
      llt_.solveInPlace(rhs_);
      Eigen::Map<Stacked>(b.data(), 3 * n) = rhs_;
    }
  }

 private:
  static constexpr int kStacked = N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N;
  using Stacked = Eigen::Matrix<double, kStacked, 1>;
  using KMatrix = Eigen::Matrix<double, kStacked, kStacked>;
  KMatrix k_;
  Stacked rhs_;
  Eigen::LLT<KMatrix> llt_;
};

}  // namespace geomint
