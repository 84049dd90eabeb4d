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

#include <string_view>
#include <vector>

#include "models/exercise.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class SphereNBody : public SphereModel<SphereNBody, Eigen::Dynamic, true> {
 public:
  static constexpr std::string_view kName = "sphere_nbody";
  static constexpr std::string_view kDescription =
      "n bodies on the sphere under the Kozlov-Harin potential (LLM Example 2, eq. (3.21))";
  static constexpr Exercise kExercise{"lee2009", 0.005, 1.0, 500.0};
  static constexpr Symmetry kSymmetry = Symmetry::Full;

  static ParameterSet default_parameters();
  static const std::vector<Preset<SphereNBody>>& presets();

  explicit SphereNBody(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const;
  void potential_gradient(const Points& q, Points& grad) const;

 private:
  Inertia inertia_;
  double gamma_;
};

}  // namespace geomint
