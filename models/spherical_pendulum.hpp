#pragma once
// Spherical pendulum: a bob m on a massless link l, q the direction from the pivot to the bob,
// gravity along +e3 (LLM's convention):  M = m l^2,  V = -m g l e3.q.

#include <string_view>
#include <vector>

#include "models/exercise.hpp"
#include "models/linked_bobs.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class SphericalPendulum : public SphereModel<SphericalPendulum, 1, true>, public LinkedBobs<1> {
 public:
  static constexpr std::string_view kName = "spherical_pendulum";
  static constexpr std::string_view kDescription = "spherical pendulum on S^2";
  static constexpr Exercise kExercise{"swing", 0.01, 1.0, 1000.0};
  static constexpr Symmetry kSymmetry = Symmetry::Vertical;

  static ParameterSet default_parameters();
  static const std::vector<Preset<SphericalPendulum>>& presets();

  explicit SphericalPendulum(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const { return -weight_ * q(2, 0); }
  void potential_gradient(const Points& /*q*/, Points& grad) const { grad << 0.0, 0.0, -weight_; }

 private:
  Inertia inertia_;
  double weight_;  // m g l
};

}  // namespace geomint
