#pragma once
// The Lennard-Jones pair sum of n points of R^3, over all pairs or, with a cutoff, over the
// pairs closer than r_c (found by a cell list), in O(n) memory:
//   V = sum_{i<j} phi(|q_i - q_j|),   phi(r) = 4 eps [(sigma/r)^12 - (sigma/r)^6]   (all pairs).
//
// With a cutoff r_c = cutoff sigma the pair energy is the shifted-force potential in r^2,
//   phi_c(r) = phi(r) - phi(r_c) - (r^2 - r_c^2) dphi/d(r^2)(r_c)   for r < r_c,  0 beyond,
// which with its first derivative vanishes at r_c (Stoddard & Ford, Phys. Rev. A 8, 1504
// (1973), who add the same quadratic term). A plain truncation would make the force jump
// where a pair crosses r_c: a variational (symplectic) integrator has a modified energy that
// it conserves over long times only for a smooth enough force, and a force with jumps shows up
// as an energy random walk. Shifting in r^2 rather than in r keeps the pair term a function of
// r^2 alone, so neither term needs a square root.

#include <Eigen/Core>
#include <optional>

#include "models/cell_list.hpp"

namespace geomint {

/// The points are copied into structure-of-arrays scratch (sorted by cell with a cutoff) so
/// that the pair loop runs over contiguous x, y, z arrays; the scratch makes one object
/// unusable by two threads at once (like SphereModel's). One evaluation runs on up to
/// kernel_threads() threads (models/kernel_threads.hpp) and its result is bitwise the same
/// for any number of them (see the .cpp, "Threads").
class LennardJonesPairs {
 public:
  /// cutoff = 0: all pairs; cutoff > 0: the pairs closer than cutoff sigma, by phi_c.
  LennardJonesPairs(double epsilon, double sigma, Eigen::Index n, double cutoff = 0.0);

  double epsilon() const { return epsilon_; }
  double sigma() const { return sigma_; }
  /// The cutoff radius in units of sigma (0: all pairs).
  double cutoff() const { return cutoff_; }

  /// V(q), the sum of phi (or phi_c) over the pairs of columns of q.
  double potential(const Eigen::Matrix3Xd& q) const;
  /// dV/dq_i, as the columns of grad (q and grad of the size given to the constructor).
  void gradient(const Eigen::Matrix3Xd& q, Eigen::Matrix3Xd& grad) const;

  /// The pair energy phi(r) (phi_c(r) with a cutoff).
  double pair_energy(double r) const;
  /// d phi / dr of one pair at distance r (d phi_c / dr with a cutoff): > 0 attracts.
  double pair_force(double r) const;
  /// The Hessian of phi(|d|) (phi_c) in d = q_i - q_j, for the constrained integrators' Newton
  /// iteration (models/bodies_on_spheres.hpp).
  Eigen::Matrix3d pair_hessian(const Eigen::Vector3d& d) const;

  /// How many pairs an evaluation at q computes: n(n-1)/2, or with a cutoff the pairs of
  /// neighbouring cells (a superset of those closer than r_c). Rebuilds the cell list.
  Eigen::Index evaluated_pairs(const Eigen::Matrix3Xd& q) const;

 private:
  /// The threads an evaluation uses: kernel_threads(), or 1 for small n.
  int threads() const;
  /// Copies q into x_, y_, z_ (in cell order with a cutoff) and zeroes ax_, ay_, az_.
  void load(const Eigen::Matrix3Xd& q, int threads) const;

  double epsilon_, sigma_, cutoff_;
  Eigen::Index n_;
  mutable std::optional<CellList> cells_;  // with a cutoff
  // x, y, z of the points and the per-point accumulators, n + 3 long (the vector loops read
  // up to 3 entries past a row); with all pairs, 12 lane sums per point (see the .cpp); with a
  // cutoff, the potential's 4 lane sums per plane of cells.
  mutable Eigen::VectorXd x_, y_, z_, ax_, ay_, az_, sums_, plane_lanes_;
};

}  // namespace geomint
