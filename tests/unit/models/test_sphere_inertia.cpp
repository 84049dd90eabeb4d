// Label `unit`: SphereInertiaSolver solves K(q) x = b of LLM (2.11) for every way it is built:
// the two-body Schur complement (fixed N = 2), the dense Cholesky factorisation (fixed N = 3,
// run-time N) and the diagonal inertia. Each is checked by the residual of K x = b, with K
// assembled block by block from its definition here, on the sphere and off it (held norms).

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "geometry/so3.hpp"
#include "models/sphere_inertia.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

/// K(q) as a dense 3n x 3n matrix: K_ii = M_ii |q_i|^2 I (held norms) or M_ii I, and
/// K_ij = -M_ij hat(q_i) hat(q_j).
Eigen::MatrixXd assemble(const Eigen::MatrixXd& m, const Eigen::Matrix3Xd& q, bool held_norms) {
  const Eigen::Index n = q.cols();
  Eigen::MatrixXd k(3 * n, 3 * n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j)
      k.block<3, 3>(3 * i, 3 * j) =
          i == j ? Eigen::Matrix3d(m(i, i) * (held_norms ? q.col(i).squaredNorm() : 1.0) *
                                   Eigen::Matrix3d::Identity())
                 : Eigen::Matrix3d(-m(i, j) * so3::hat(q.col(i)) * so3::hat(q.col(j)));
  return k;
}

/// A random symmetric positive definite n x n inertia with a dominant diagonal.
Eigen::MatrixXd random_inertia(testing::Rng& rng, Eigen::Index n) {
  Eigen::MatrixXd a(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) a(i, j) = rng.uniform(-1.0, 1.0);
  return a * a.transpose() + static_cast<double>(n) * Eigen::MatrixXd::Identity(n, n);
}

template <int N, bool Diagonal>
void check_solves(testing::Rng& rng, Eigen::Index n) {
  using Solver = SphereInertiaSolver<N, Diagonal>;
  using Points = typename Solver::Points;
  const Eigen::MatrixXd dense = Diagonal ? Eigen::MatrixXd(random_inertia(rng, n).diagonal().asDiagonal())
                                         : random_inertia(rng, n);
  typename Solver::Inertia m;
  if constexpr (Diagonal)
    m = typename Solver::Inertia(dense.diagonal());
  else
    m = dense;
  Solver solver;
  solver.resize(n);
  for (int trial = 0; trial < 20; ++trial) {
    for (const bool held_norms : {false, true}) {
      Eigen::Matrix3Xd q(3, n);
      for (Eigen::Index i = 0; i < n; ++i)  // on the sphere, or 10 % off it with held norms
        q.col(i) = rng.with_norm(held_norms ? rng.uniform(0.9, 1.1) : 1.0);
      if (trial == 0 && n > 1) q.col(1) = -q.col(0).norm() * q.col(0).normalized();  // aligned
      Points b(3, n), x(3, n);
      for (Eigen::Index i = 0; i < n; ++i) b.col(i) = rng.vec3();
      x = b;
      solver.solve_in_place(m, q, x, held_norms);
      const Eigen::MatrixXd k = assemble(dense, q, held_norms);
      const Eigen::VectorXd xs = Eigen::Map<const Eigen::VectorXd>(x.data(), 3 * n);
      const Eigen::VectorXd bs = Eigen::Map<const Eigen::VectorXd>(b.data(), 3 * n);
      EXPECT_LT((k * xs - bs).norm(), 1e-13 * k.norm() * xs.norm())
          << "n = " << n << ", held norms " << held_norms << ", trial " << trial;
    }
  }
}

TEST(SphereInertiaSolver, TwoBodiesBySchurComplement) {
  GEOMINT_SEEDED_RNG(rng, 41);
  check_solves<2, false>(rng, 2);
}

TEST(SphereInertiaSolver, DenseCholeskyFixedAndRunTimeSize) {
  GEOMINT_SEEDED_RNG(rng, 42);
  check_solves<3, false>(rng, 3);
  check_solves<Eigen::Dynamic, false>(rng, 2);
  check_solves<Eigen::Dynamic, false>(rng, 7);
}

TEST(SphereInertiaSolver, Diagonal) {
  GEOMINT_SEEDED_RNG(rng, 43);
  check_solves<4, true>(rng, 4);
  check_solves<Eigen::Dynamic, true>(rng, 9);
}

}  // namespace
}  // namespace geomint
