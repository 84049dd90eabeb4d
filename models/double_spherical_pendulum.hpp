#pragma once
// Double spherical pendulum (LLM Example 1): two bobs m1, m2 on massless links l1, l2,
// q1 the direction from the pivot to the first bob, q2 from the first bob to the second.
// Gravity points along +e3 (LLM's convention: q = e3 hangs straight down):
//   M = [(m1 + m2) l1^2, m2 l1 l2; m2 l1 l2, m2 l2^2],
//   V = -(m1 + m2) g l1 e3.q1 - m2 g l2 e3.q2.

#include <string_view>
#include <vector>

#include "models/exercise.hpp"
#include "models/linked_bobs.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class DoubleSphericalPendulum : public SphereModel<DoubleSphericalPendulum, 2, false>, public LinkedBobs<2> {
 public:
  static constexpr std::string_view kName = "double_spherical_pendulum";
  static constexpr std::string_view kDescription =
      "double spherical pendulum on (S^2)^2 (LLM Example 1, Celledoni Section 5 with N = 2)";
  static constexpr Exercise kExercise{"lee2009", 0.01, 1.0, 1000.0};
  static constexpr Symmetry kSymmetry = Symmetry::Vertical;

  /// The parameters by name; the relative equilibria are computed from them
  /// (models/double_spherical_pendulum_relative_equilibrium.hpp).
  struct Parameters {
    double m1, m2, l1, l2, g;
  };

  static ParameterSet default_parameters();
  static const std::vector<Preset<DoubleSphericalPendulum>>& presets();

  explicit DoubleSphericalPendulum(const ParameterSet& p);

  const Parameters& parameters() const { return parameters_; }
  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const;
  void potential_gradient(const Points& q, Points& grad) const;

 private:
  Parameters parameters_;
  Inertia inertia_;
  Eigen::Vector2d weight_;  // ((m1 + m2) g l1, m2 g l2): V = -weight_i e3.q_i
};

}  // namespace geomint
