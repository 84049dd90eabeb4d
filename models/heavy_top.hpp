#pragma once
// The heavy top on T*SO(3) in spatial variables (Celledoni (21)-(22)): attitude Q in SO(3) and
// spatial angular momentum pi = Q Pi, with
//   H(Q, pi) = 1/2 pi . omega + kappa . (Q X),   omega = Q I^{-1} Q^T pi,
//   Q' = hat(omega) Q                                                          (22)
//   pi' = kappa x (Q X)                                                         (21)
// (kappa = s M g l e3 and the readings of the paper's gravity: models/heavy_top_parameters.hpp).
//
// Contract: blocks Q (SO3) and pi (R3); invariants the energy H, the Casimir pi . e3 (the
// component of pi along the vertical, conserved: (21) is normal to kappa), Pi . X (conserved
// for a Lagrange top, as the paper's is), and the blocks' defects |Q^T Q - I|, det Q - 1.
// Views:
//   - CotangentLieGroup on T*SO(3) (geometry/cotangent_so3.hpp), with the field of (14):
//     f1 = dH/dpi = omega and f2 = -R_Q^* dH/dQ = pi x omega + kappa x (Q X) (so that
//     pi' = f2 - ad*_{f1} pi = f2 + omega x pi is (21)): "SLGI" of the paper's experiments;
//   - LieGroupOde, SO(3) x R^3 acting on (Q, pi) (geometry/rotation_translation_action.hpp),
//     generator (omega, kappa x Q X);
//   - AmbientOde in R^12 (Q's nine entries, then pi), projected by the nearest rotation.

#include <Eigen/Core>
#include <array>
#include <string_view>
#include <vector>

#include "geometry/cotangent_so3.hpp"
#include "geometry/rotation_translation_action.hpp"
#include "geometry/so3.hpp"
#include "models/configuration.hpp"
#include "models/exercise.hpp"
#include "models/heavy_top_parameters.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class HeavyTop {
 public:
  static constexpr std::string_view kName = "heavy_top";
  static constexpr std::string_view kDescription =
      "heavy top on T*SO(3) in spatial variables (Q, pi), Celledoni (21)-(22)";
  static constexpr Exercise kExercise{"weak_gravity", 0.001, 1.0, 100.0};
  using Group = RotationTranslationAction;
  using State = Group::Point;
  using Algebra = Group::Algebra;
  static constexpr bool kReducedCotangentState = false;
  static constexpr bool kLeftInvariantHamiltonian = false;
  using Cotangent = CotangentSO3;

  static ParameterSet default_parameters() { return HeavyTopParameters::defaults(); }
  static const std::vector<Preset<HeavyTop>>& presets();

  explicit HeavyTop(const ParameterSet& p);

  Eigen::Index dimension() const { return 12; }

  void rhs(double /*t*/, const State& y, State& dy) const {
    const auto q = Group::rotation(y);
    const Eigen::Vector3d omega = top_.angular_velocity(q, y.tail<3>());
    Eigen::Map<Eigen::Matrix3d>(dy.data()) = so3::hat(omega) * q;
    dy.tail<3>() = top_.kappa.cross(q * top_.axis);
  }
  void generator(double /*t*/, const State& y, Algebra& xi) const {
    const auto q = Group::rotation(y);
    xi << top_.angular_velocity(q, y.tail<3>()), top_.kappa.cross(q * top_.axis);
  }
  /// Q onto SO(3) (the nearest rotation); pi is free.
  void project(State& y) const { Group::rotation(y) = so3::nearest_rotation(Group::rotation(y)); }

  Cotangent::Point cotangent_point(const State& y) const {
    return {Group::rotation(y), y.tail<3>()};
  }
  void set_cotangent_point(const Cotangent::Point& z, State& y) const {
    Group::rotation(y) = z.g;
    y.tail<3>() = z.mu;
  }
  /// The state is (g, mu) itself: its change is (dg, dmu).
  void cotangent_increment(const Cotangent::Point& /*z*/, const Cotangent::Point& dz, State& dy) const {
    set_cotangent_point(dz, dy);
  }
  /// Celledoni (14) for H above (see the file comment).
  void hamiltonian_field(double /*t*/, const Cotangent::Point& z, Eigen::Vector3d& f1,
                         Eigen::Vector3d& f2) const {
    f1 = top_.angular_velocity(z.g, z.mu);
    f2 = z.mu.cross(f1) + top_.kappa.cross(z.g * top_.axis);
  }

  double energy(const State& y) const {
    const auto q = Group::rotation(y);
    return 0.5 * y.tail<3>().dot(top_.angular_velocity(q, y.tail<3>())) + top_.kappa.dot(q * top_.axis);
  }

  /// The curves of Celledoni Fig. 2 (models/curves.hpp): Q X, the axis to the centre of mass in
  /// space, and M l Q^{-1} Gamma0, the gravity vector seen from the body, with M l Gamma0 read
  /// as kappa (the vector of the potential; its sign is gravity_sign's reading).
  static constexpr std::array<std::string_view, 2> kCurves = {"Q X", "M l Q^-1 Gamma0"};
  std::array<Eigen::Vector3d, 2> curve_points(double /*t*/, const State& y) const {
    const auto q = Group::rotation(y);
    return {q * top_.axis, q.transpose() * top_.kappa};
  }
  /// The fixed point and the centre of mass, Q X (models/configuration.hpp).
  Eigen::Matrix3Xd configuration_points(double /*t*/, const State& y) const {
    Eigen::Matrix3Xd points(3, 2);
    points << Eigen::Vector3d::Zero(), Group::rotation(y) * top_.axis;
    return points;
  }

  // ---- The model contract (models/model_contract.hpp) -----------------------------------
  const StateLayout& state_layout() const { return layout_; }
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& y, double* out) const {
    const auto q = Group::rotation(y);
    out[0] = energy(y);
    out[1] = y[11];  // pi . e3
    out[2] = (q.transpose() * y.tail<3>()).dot(top_.axis);
  }

 private:

  HeavyTopParameters top_;
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
