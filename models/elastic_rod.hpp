#pragma once
// Pure bending of an elastic rod (LLM Example 4): n + 1 rigid elements in series, joined by
// rotational springs; the zeroth is clamped along a fixed direction q_0, the others are free.
// q_i is the direction of element i (i = 1..n), which has mass m_i = m/(n+1) and length
// l_i = l/(n+1) (the rod's total mass m and length l include the clamped element). Gravity
// points along +e3 (LLM's convention). The potential is
//   V = -sum_i m_i g (sum_{j<i} l_j q_j + l_i/2 q_i).e3 + sum_i 1/2 kappa (1 - q_{i-1}.q_i)^2,
// positions measured from the clamped joint (the zeroth element adds a constant).
//
// Two inertia matrices, selected by the parameter `uniform_rods`:
//   0 (LLM's printed one, which produced the published figures):
//       M_ii = 1/3 m_i l_i^2 + sum_{k>i} m_k l_k^2,   M_ij = sum_{k>=max(i,j)} 1/2 m_k l_k^2;
//   1 (the kinetic energy of a chain of uniform rods, 1/2 int rho |x'|^2 along each element,
//      with x(s) = sum_{j<k} l_j q_j + s q_k on element k):
//       M_ii = 1/3 m_i l_i^2 + sum_{k>i} m_k l_i^2,
//       M_ij = (m_j/2 + sum_{k>j} m_k) l_i l_j   for i < j.
// With equal elements the diagonals agree; off the diagonal LLM's (n - j + 1)/2 m_e l_e^2
// differs from the rods' (n - j + 1/2) m_e l_e^2 except in the last column (j = n).
// Symmetry::None: the clamp and gravity leave no rotation acting on every q_i that keeps V.

#include <string_view>
#include <vector>

#include "models/configuration.hpp"
#include "models/exercise.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/sphere_model.hpp"

namespace geomint {

class ElasticRod : public SphereModel<ElasticRod, Eigen::Dynamic, false> {
 public:
  static constexpr std::string_view kName = "elastic_rod";
  static constexpr std::string_view kDescription =
      "pure bending of an elastic rod of n rigid elements clamped at one end (LLM Example 4, "
      "eq. (3.24)); printed or uniform-rod inertia";
  static constexpr Exercise kExercise{"lee2009", 2.5e-05, 0.1, 2.5};
  static constexpr Symmetry kSymmetry = Symmetry::None;

  static ParameterSet default_parameters();
  static const std::vector<Preset<ElasticRod>>& presets();

  explicit ElasticRod(const ParameterSet& p);

  const Inertia& inertia() const { return inertia_; }
  double potential(const Points& q) const;
  void potential_gradient(const Points& q, Points& grad) const;

  /// The direction of the clamped zeroth element.
  const Vec3& clamp_direction() const { return q0_; }
  /// The clamped element's far end, the clamped joint and the joints of elements 1..n, each
  /// element l/(n+1) long (models/configuration.hpp).
  Eigen::Matrix3Xd configuration_points(double /*t*/, const State& y) const {
    const auto q = positions(y);
    Eigen::Matrix3Xd directions(3, q.cols() + 1);
    directions << q0_, q;
    return chain_joints(Vec3(-element_length_ * q0_), directions,
                        Eigen::VectorXd::Constant(directions.cols(), element_length_));
  }

 private:
  Inertia inertia_;
  Eigen::VectorXd weight_;  // g l_j (m_j/2 + sum_{k>j} m_k): gravity is -sum_j weight_j e3.q_j
  double kappa_;
  Vec3 q0_;
  double element_length_;  // l/(n+1)
};

}  // namespace geomint
