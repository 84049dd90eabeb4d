#pragma once
// A planar array of magnetic dipoles (LLM Example 5): n thin rod magnets (mass m, length l)
// on frictionless pivots at the vertices of a rows x columns square grid of spacing a, each
// free to point anywhere; q_i is the direction of magnet i's north pole, nu q_i its moment.
//   M_ij = m l^2/12 delta_ij,
//   V    = 1/2 sum_{i != j} mu nu^2 / (4 pi |r_ij|^3) [q_i.q_j - 3 (q_i.r_ij)(q_j.r_ij)/|r_ij|^2],
// r_ij the vector from pivot i to pivot j (the sign of r_ij does not matter).
// Our choices (the paper leaves them open): the grid lies in the horizontal plane spanned by
// e1 and e2, and the magnets are numbered as a page is read when the plane is seen from above
// with e1 to the right and e2 up: magnet k = columns r + c + 1 sits at a (c e1 - r e2),
// c = 0..columns-1, r = 0..rows-1. So magnet 1 is the top-left corner (the origin), magnet
// `columns` the top-right one, magnet rows*columns the bottom-right one, and the rows run along
// e1. The layout matters for LLM's figures (studies/lee2009.yaml, Example 5): with this one
// all four are reproduced at one horizon and step; stacking the rows along +e2 instead
// (magnet 16 at a(3, 3, 0)) gives no horizon at which both RK45 figures come out.
// Symmetry::None: rotating every q_i but not the pivots changes the (q_i.r_ij) terms.

#include <string_view>
#include <vector>

#include "models/exercise.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class MagneticDipoles : public SphereModel<MagneticDipoles, Eigen::Dynamic, true> {
 public:
  static constexpr std::string_view kName = "magnetic_dipoles";
  static constexpr std::string_view kDescription =
      "planar square array of magnetic dipoles on pivots (LLM Example 5, eqs. (3.25)-(3.26))";
  static constexpr Exercise kExercise{"lee2009", 0.001, 1.0, 100.0};
  static constexpr Symmetry kSymmetry = Symmetry::None;

  static ParameterSet default_parameters();
  static const std::vector<Preset<MagneticDipoles>>& presets();

  explicit MagneticDipoles(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const;
  void potential_gradient(const Points& q, Points& grad) const;

  /// The pivot of magnet i (0-based), in m.
  const Vec3& pivot(Eigen::Index i) const { return pivots_[static_cast<std::size_t>(i)]; }

 private:
  struct Pair {
    Eigen::Index i, j;
    Vec3 u;           // r_ij / |r_ij|
    double strength;  // mu nu^2 / (4 pi |r_ij|^3)
  };
  Inertia inertia_;
  std::vector<Vec3> pivots_;
  std::vector<Pair> pairs_;
};

}  // namespace geomint
