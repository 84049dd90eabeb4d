#pragma once
// Molecular dynamics on the unit sphere (LLM Example 6): n molecules of mass m on S^2 coupled
// by the Lennard-Jones potential, by default over all pairs (no cutoff, as in the paper),
//   M_ij = m delta_ij,
//   V    = 1/2 sum_{i != j} 4 eps [(sigma/|q_i - q_j|)^12 - (sigma/|q_i - q_j|)^6].
// Parameter `cutoff` > 0 (in units of sigma) replaces the pair energy by its shifted-force
// form cut at cutoff sigma (models/lennard_jones_pairs.hpp), which a cell list evaluates in
// O(n) time. V depends on the distances only, so every rotation leaves it unchanged and the
// whole angular momentum vector is conserved, with or without the cutoff.
//
// The pair sum lives in LennardJonesPairs, which needs O(n) memory, and the diagonal inertia
// is held as its diagonal (DiagonalInertia): the model keeps no n x n matrix.
//
// Besides the views of SphereModel, the model offers ConstrainedLagrangian
// (models/bodies_on_spheres.hpp): x_i = q_i, M = m I, g_i(x) = |x_i|^2 - 1. V extends off the
// sphere as written (chordal distances in R^3). Its Newton iteration factorises a dense
// (4n) x (4n) matrix every iteration, O(n^3): the view is meant for tens of molecules, not the
// 642 of lee2009.

#include <Eigen/Core>
#include <array>
#include <string_view>
#include <vector>

#include "models/bodies_on_spheres.hpp"
#include "models/exercise.hpp"
#include "models/lennard_jones_pairs.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

/// The unit sphere triangulated by an icosahedron whose faces are split into four, `level`
/// times, each new vertex (an edge midpoint) projected onto the sphere: 10 4^level + 2
/// vertices, 20 4^level faces, 30 4^level edges. The first 12 vertices are the icosahedron's,
/// (0, +-1, +-phi) and its cyclic permutations, normalised.
struct Icosphere {
  Eigen::Matrix3Xd vertices;
  std::vector<std::array<int, 3>> faces;
  std::vector<std::array<int, 2>> edges;  // (a, b) with a < b, sorted
};
Icosphere icosphere(int level);

/// The mean over the columns q_i of min_{j != i} |q_i - q_j| (by brute force, O(n^2) time).
double mean_nearest_neighbour_distance(const Eigen::Matrix3Xd& q);

class SphereLennardJones : public SphereModel<SphereLennardJones, Eigen::Dynamic, true>,
                           public BodiesOnSpheres<SphereLennardJones, Eigen::Dynamic> {
 public:
  static constexpr std::string_view kName = "sphere_lj";
  static constexpr std::string_view kDescription =
      "Lennard-Jones molecules on the unit sphere, all pairs or cut off (LLM Example 6, (3.27))";
  // Not long-run regular: the energy error rises for a few hundred time units before it
  // settles (models/exercise.hpp), so 200 horizons measure the transient (the constrained VI:
  // drift 0.21 of its band, with varying signs).
  static constexpr Exercise kExercise{"icosphere42", 0.01, 1.0, 1000.0, false};
  static constexpr Symmetry kSymmetry = Symmetry::Full;

  static ParameterSet default_parameters();
  static const std::vector<Preset<SphereLennardJones>>& presets();

  /// The lee2009 preset's choices (see presets() in sphere_lj.cpp).
  static constexpr int kLee2009Level = 3;                   // 642 molecules
  static constexpr double kLee2009VortexSeparationDeg = 30;  // angle between the two axes
  static constexpr double kLee2009VortexWidthDeg = 10;       // Gaussian width theta_0
  static constexpr double kLee2009VortexRate = 1.5;          // Omega [rad/s]
  /// sigma = (mean nearest-neighbour chord of the level-3 icosphere's vertices) / 2^(1/6).
  static double lee2009_sigma();
  /// The two vortex axes a_1, a_2 (unit, in the x-z plane, 15 degrees either side of e3).
  static std::array<Eigen::Vector3d, 2> lee2009_vortex_axes();

  explicit SphereLennardJones(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  const LennardJonesPairs& pairs() const { return pairs_; }
  double potential(const Points& q) const { return pairs_.potential(q); }
  void potential_gradient(const Points& q, Points& grad) const { pairs_.gradient(q, grad); }
  /// V's Hessian in the q_i, read in R^3 (the ConstrainedLagrangian view), over all pairs.
  void ambient_potential_hessian(const Points& q, PositionMatrix& hess) const;

 private:
  Inertia inertia_;
  LennardJonesPairs pairs_;
};

}  // namespace geomint
