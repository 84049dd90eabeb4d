#pragma once
// The heavy top with a quadratic Hamiltonian on T*S, S = SO(3) x R^3 (Celledoni Section 3.4.3,
// spatial form (29)-(32)): the constant body vector p = -s M g l X is made the momentum
// conjugate to a passive position q in R^3, so that
//   H((Q, q), (pi, p)) = 1/2 pi . omega + 1/2 |p|^2 - p . Q^T Gamma0,   omega = Q I^{-1} Q^T pi,
//   pi' = -Gamma0 x Q p   (29)      Q' = hat(omega) Q   (30)
//   p'  = 0               (31)      q' = p - Q^T Gamma0 (32)
// with Gamma0 = e3 (up). With p = -s M g l X this is heavy_top's H (models/heavy_top.hpp) plus
// the constant |p|^2 / 2, and its (Q, pi) motion is the same. The weight enters through the
// initial momentum p0 = -s M g l X (models/heavy_top_parameters.hpp); q0 = 0. The paper runs the
// theta = 1/2 integrator on this form as "SLGIKK".
//
// Contract: blocks Q (SO3), pi, q, p (R3); invariants the energy, the Casimir pi . e3, Pi . X
// (conserved for a Lagrange top), and p's components (the momentum map of the translations of
// q, on which H does not depend); the defects of Q.
// Views: CotangentLieGroup on T*S (geometry/cotangent_so3.hpp, CotangentSO3xR3) with the field
// of (14), f = (omega, p - Q^T Gamma0; pi x omega - Gamma0 x Q p, 0); AmbientOde in R^18,
// projected by the nearest rotation.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "geometry/cotangent_so3.hpp"
#include "geometry/so3.hpp"
#include "models/exercise.hpp"
#include "models/heavy_top_parameters.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class HeavyTopQuadratic {
 public:
  static constexpr std::string_view kName = "heavy_top_quadratic";
  static constexpr std::string_view kDescription =
      "heavy top with a quadratic Hamiltonian on T*(SO(3) x R^3), Celledoni (29)-(32) (\"SLGIKK\")";
  static constexpr Exercise kExercise{"weak_gravity", 0.001, 1.0, 100.0};
  using State = Eigen::Matrix<double, 18, 1>;  // Q (column-major), pi, q, p
  static constexpr bool kReducedCotangentState = false;
  static constexpr bool kLeftInvariantHamiltonian = false;
  using Cotangent = CotangentSO3xR3;
  using Vec3 = Eigen::Vector3d;
  using Mat3 = Eigen::Matrix3d;

  static ParameterSet default_parameters() { return HeavyTopParameters::defaults(); }
  static const std::vector<Preset<HeavyTopQuadratic>>& presets();

  explicit HeavyTopQuadratic(const ParameterSet& p);

  Eigen::Index dimension() const { return 18; }

  void rhs(double /*t*/, const State& y, State& dy) const {
    const Mat3 q = rotation(y);
    const Vec3 pi = y.segment<3>(9), p = y.tail<3>();
    Eigen::Map<Mat3>(dy.data()) = so3::hat(top_.angular_velocity(q, pi)) * q;
    dy.segment<3>(9) = -kGamma0.cross(q * p);
    dy.segment<3>(12) = p - q.transpose() * kGamma0;
    dy.tail<3>().setZero();
  }
  void project(State& y) const { Eigen::Map<Mat3>(y.data()) = so3::nearest_rotation(rotation(y)); }

  Cotangent::Point cotangent_point(const State& y) const {
    return {{rotation(y), y.segment<3>(12)}, Cotangent::join(y.segment<3>(9), y.tail<3>())};
  }
  void set_cotangent_point(const Cotangent::Point& z, State& y) const {
    Eigen::Map<Mat3>(y.data()) = z.g.rotation;
    y.segment<3>(9) = z.mu.head<3>();
    y.segment<3>(12) = z.g.translation;
    y.tail<3>() = z.mu.tail<3>();
  }
  /// Celledoni (14) for H above (see the file comment).
  void hamiltonian_field(double /*t*/, const Cotangent::Point& z, Cotangent::Algebra& f1,
                         Cotangent::Algebra& f2) const {
    const Mat3& q = z.g.rotation;
    const Vec3 pi = z.mu.head<3>(), p = z.mu.tail<3>();
    const Vec3 omega = top_.angular_velocity(q, pi);
    f1 << omega, p - q.transpose() * kGamma0;
    f2 << pi.cross(omega) - kGamma0.cross(q * p), Vec3::Zero();
  }

  double energy(const State& y) const {
    const Mat3 q = rotation(y);
    const Vec3 pi = y.segment<3>(9), p = y.tail<3>();
    return 0.5 * pi.dot(top_.angular_velocity(q, pi)) + 0.5 * p.squaredNorm() - p.dot(q.transpose() * kGamma0);
  }

  // ---- The model contract (models/model_contract.hpp) -----------------------------------
  const StateLayout& state_layout() const { return layout_; }
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& y, double* out) const {
    out[0] = energy(y);
    out[1] = y[11];  // pi . e3
    out[2] = (rotation(y).transpose() * y.segment<3>(9)).dot(top_.axis);
    out[3] = y[15];
    out[4] = y[16];
    out[5] = y[17];
  }

 private:
  static inline const Vec3 kGamma0 = Vec3::UnitZ();
  static Eigen::Map<const Mat3> rotation(const State& y) { return Eigen::Map<const Mat3>(y.data()); }

  HeavyTopParameters top_;
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
