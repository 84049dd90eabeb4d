#pragma once
// The N-fold 3-D pendulum (Celledoni Section 5): N bobs m_i on massless links L_i, q_i the
// direction of link i (from bob i-1, or the pivot, to bob i). On (S^2)^N with LLM's form (2.2):
//   M_ij = (sum_{k >= max(i,j)} m_k) L_i L_j,
//   V    = sum_i (sum_{j >= i} m_j) g L_i e3.q_i,
// with gravity along -e3, Celledoni's convention (the opposite of LLM's Example 1).
// All bobs have the same mass m and all links the same length L; N is a parameter.

#include <string_view>
#include <vector>

#include "models/configuration.hpp"
#include "models/exercise.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class PendulumChain : public SphereModel<PendulumChain, Eigen::Dynamic, false> {
 public:
  static constexpr std::string_view kName = "pendulum_chain";
  static constexpr std::string_view kDescription =
      "N-fold 3-D pendulum on (S^2)^N (Celledoni Section 5; LLM (2.7) with the chain's inertia)";
  static constexpr Exercise kExercise{"celledoni2021_N5", 0.0025, 1.0, 250.0};
  static constexpr Symmetry kSymmetry = Symmetry::Vertical;

  static ParameterSet default_parameters();
  static const std::vector<Preset<PendulumChain>>& presets();

  explicit PendulumChain(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const { return weight_.dot(q.row(2)); }
  void potential_gradient(const Points& /*q*/, Points& grad) const {
    grad.setZero();
    grad.row(2) = weight_.transpose();
  }
  /// The pivot and the N bobs (models/configuration.hpp; Celledoni Fig. 4).
  Eigen::Matrix3Xd configuration_points(double /*t*/, const State& y) const {
    return chain_joints(Vec3::Zero(), positions(y), Eigen::VectorXd::Constant(weight_.size(), length_));
  }

 private:
  Inertia inertia_;
  Eigen::VectorXd weight_;  // (sum_{j >= i} m_j) g L_i: V = sum_i weight_i e3.q_i
  double length_;           // L, of every link
};

}  // namespace geomint
