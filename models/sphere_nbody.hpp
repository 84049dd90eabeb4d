#pragma once
// The n-body problem on the sphere (LLM Example 2): n particles of mass m on the unit sphere,
// q_i the position of particle i, under the Kozlov-Harin analogue of gravity,
//   M_ij = m delta_ij,
//   V    = -gamma/2 sum_{i != j} (q_i.q_j) / sqrt(1 - (q_i.q_j)^2)
//        = -gamma sum_{i < j} cot(theta_ij),   theta_ij the angle between q_i and q_j.
// V depends on the q_i only through the products q_i.q_j, so a rotation of all q_i at once
// leaves it unchanged and the whole angular momentum vector is conserved (Symmetry::Full).
// V is singular where two particles collide (q_i.q_j = 1) and also where they are antipodal
// (q_i.q_j = -1).
//
// Besides the views of SphereModel, the model offers ConstrainedLagrangian
// (models/bodies_on_spheres.hpp): x_i = q_i, M = m I, g_i(x) = |x_i|^2 - 1. V extends off the
// sphere by its formula in c_ij = x_i.x_j, smooth wherever |c_ij| < 1; at the midpoint of two
// points on the sphere |x| <= 1, so c_ij stays in (-1, 1) away from the same two singularities.

#include <string_view>
#include <vector>

#include "models/bodies_on_spheres.hpp"
#include "models/exercise.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class SphereNBody : public SphereModel<SphereNBody, Eigen::Dynamic, true>,
                    public BodiesOnSpheres<SphereNBody, Eigen::Dynamic> {
 public:
  static constexpr std::string_view kName = "sphere_nbody";
  static constexpr std::string_view kDescription =
      "n bodies on the sphere under the Kozlov-Harin potential (LLM Example 2, eq. (3.21))";
  // Not long-run regular: lee2009's bodies near-collide at t = 10.5, where RK4 at h overflows
  // (t = 10.555) and RATTLE's residual is no longer finite (t = 10.835); the VIs' solves fail at
  // t = 17.7 (implicit) and 58.3 (explicit).
  static constexpr Exercise kExercise{"lee2009", 0.005, 1.0, 500.0, false};
  static constexpr Symmetry kSymmetry = Symmetry::Full;

  static ParameterSet default_parameters();
  static const std::vector<Preset<SphereNBody>>& presets();

  explicit SphereNBody(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const;
  void potential_gradient(const Points& q, Points& grad) const;
  /// V's Hessian in the q_i, read in R^3 (the ConstrainedLagrangian view).
  void ambient_potential_hessian(const Points& q, PositionMatrix& hess) const;

 private:
  Inertia inertia_;
  double gamma_;
};

}  // namespace geomint
