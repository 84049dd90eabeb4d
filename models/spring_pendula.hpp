#pragma once
// Four spherical pendula coupled by springs (LLM Example 3). Pendulum i is a bob of mass m on
// a massless link of length l from a pivot p_i in the horizontal plane; q_i is the direction
// from p_i to the bob, and gravity points along +e3 (LLM's convention: q = e3 hangs down).
// The pivots are the corners of a square of side d, connected in a ring
// Xi = {(1,2), (2,3), (3,4), (4,1)} by linear springs between the midpoints of the links:
//   r_12 = -r_34 = d e1,  r_23 = -r_41 = -d e2   (r_ij from pivot i to pivot j),
// i.e. p_1 = 0, p_2 = d e1, p_3 = d e1 - d e2, p_4 = -d e2. Then
//   M_ij = m l^2 delta_ij,
//   V    = -sum_i m g l q_i.e3
//          + sum_{(i,j) in Xi} 1/2 kappa_ij (|r_ij + l/2 q_j - l/2 q_i| - |r_ij|)^2.
// Symmetry::None: with the pivots spread over the plane, rotating every q_i about the vertical
// moves the link midpoints relative to each other and changes the spring energies, so no
// component of the angular momentum is conserved (gravity alone would conserve L_z).
//
// Besides the views of SphereModel, the model offers ConstrainedLagrangian
// (models/bodies_on_spheres.hpp): the bobs x_i = p_i + l q_i of mass m, g_i(x) = |x_i - p_i|^2 -
// l^2. V extends off the spheres as written (gravity linear, each spring's length that of the
// segment between the link midpoints), smooth wherever no spring has zero length.

#include <array>
#include <string_view>
#include <vector>

#include "models/bodies_on_spheres.hpp"
#include "models/exercise.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class SpringPendula : public SphereModel<SpringPendula, 4, true>,
                      public BodiesOnSpheres<SpringPendula, 4> {
 public:
  static constexpr std::string_view kName = "spring_pendula";
  static constexpr std::string_view kDescription =
      "4 spherical pendula on a square of pivots, coupled in a ring by springs at the link "
      "midpoints (LLM Example 3, eqs. (3.22)-(3.23))";
  static constexpr Exercise kExercise{"lee2009", 0.001, 0.5, 100.0};
  static constexpr Symmetry kSymmetry = Symmetry::None;

  struct Spring {
    int i, j;      // 0-based bodies
    Vec3 r;        // r_ij, from pivot i to pivot j
    double kappa;  // spring constant
    double rest;   // |r_ij|
  };

  static ParameterSet default_parameters();
  static const std::vector<Preset<SpringPendula>>& presets();

  explicit SpringPendula(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const;
  void potential_gradient(const Points& q, Points& grad) const;
  /// V's Hessian in the q_i, read in R^3 (the ConstrainedLagrangian view).
  void ambient_potential_hessian(const Points& q, PositionMatrix& hess) const;

  const std::array<Spring, 4>& springs() const { return springs_; }

 private:
  Inertia inertia_;
  double weight_;       // m g l
  double half_length_;  // l / 2
  std::array<Spring, 4> springs_;
};

}  // namespace geomint
