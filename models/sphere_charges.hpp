#pragma once
// N point charges on the unit sphere (DuToit Section 6; NOTES-dutoit 5): n particles, particle i
// of mass m_i and charge e_i, on a conducting shell of unit radius, q_i its position,
//   L = 1/2 sum_i m_i |q_i'|^2 - V(q),   V = sigma k sum_{i<j} e_i e_j / |q_i - q_j|,
// the distances chordal (Euclidean in R^3), not geodesic. No gravity, no magnetism.
// Our choices where the paper is silent or wrong (NOTES-dutoit 0, 5.1):
//   - two species (the paper writes m_i, e_i but fixes none; its runs are "3 electrons", and
//     its symmetry cases (Fig. 3) assume equal particles): the first n1 particles have mass m1
//     and charge e1 of either sign, the others m and e; n1 = 0 (default) makes them all equal;
//   - the sign is a parameter: sigma = +1 (default) is Coulomb's law, like charges repel;
//     sigma = -1 is the formula as printed, V = -1/2 sum_{j != i} e_i e_j / |q_j - q_i|, under
//     which like charges attract (a gravitational sign; the "breathing" of Fig. 3(b) needs
//     repulsion).
// V depends on the q_i only through |q_i - q_j|, so a rotation of all q_i at once leaves it
// unchanged and the whole angular momentum vector is conserved (DuToit Section 6.2,
// Symmetry::Full). V is singular where two charges collide.
//
// Besides the views of SphereModel, the model offers ConstrainedLagrangian (DuToit Section 6.3;
// models/bodies_on_spheres.hpp): the same Lagrangian on R^{3n}, x_i = q_i, M = diag(m_i I3),
// with the n constraints g_i(x) = |x_i|^2 - 1. V extends off the sphere as written (chordal
// distances in R^3), smooth wherever no two charges meet.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "models/bodies_on_spheres.hpp"
#include "models/exercise.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class SphereCharges : public SphereModel<SphereCharges, Eigen::Dynamic, true>,
                      public BodiesOnSpheres<SphereCharges, Eigen::Dynamic> {
 public:
  static constexpr std::string_view kName = "sphere_charges";
  static constexpr std::string_view kDescription =
      "n point charges on the unit sphere (equal, or two species of either sign), Coulomb "
      "potential of chordal distance (DuToit Section 6)";
  // h = 0.02 (breathing period 5.3): at 16 h the generated symplecticity check sees RKMK5's
  // O(H^6) defect above its rounding floor (4.7e-8 at h = 0.01, below the 1e-7 it must exceed).
  static constexpr Exercise kExercise{"breathing_spinning", 0.02, 2.0, 2000.0};
  static constexpr Symmetry kSymmetry = Symmetry::Full;

  static ParameterSet default_parameters();
  static const std::vector<Preset<SphereCharges>>& presets();

  explicit SphereCharges(const ParameterSet& p);

  // ---- SphereLagrangian view -------------------------------------------------------------

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const;
  void potential_gradient(const Points& q, Points& grad) const;

  /// V's Hessian in the q_i, read in R^3 (the ConstrainedLagrangian view, bodies_on_spheres.hpp).
  void ambient_potential_hessian(const Points& q, PositionMatrix& hess) const;

  /// The rate omega at which the configuration q, turning rigidly about e3, supplies charge i's
  /// centripetal acceleration -omega^2 rho_i (rho_i = (x_i, y_i, 0)) by the tangential part of
  /// the force F_i = -dV/dq_i on it (the normal part is the constraint's): with P_i = I - q_i
  /// q_i^T, m_i omega^2 P_i rho_i = -P_i F_i, so
  ///   omega^2 = -(P_i rho_i) . F_i / (m_i |P_i rho_i|^2).
  /// NaN where omega^2 <= 0 or P_i rho_i = 0 (charge i on the axis or on the equator), where no
  /// rate holds it. q is a relative equilibrium if every charge gives the same rate (or has
  /// P_i rho_i = 0 and P_i F_i = 0); the unit test checks the presets' rotating-frame field.
  double rotation_rate(const Points& q, Eigen::Index i) const;

 private:
  Inertia inertia_;
  Eigen::VectorXd charge_;  // e_i
  double coupling_;         // sigma k
};

}  // namespace geomint
