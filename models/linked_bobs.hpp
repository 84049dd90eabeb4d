#pragma once
// The ConstrainedLagrangian view (models/views.hpp) of N point masses on a chain of massless
// links hanging from a fixed pivot at the origin, DuToit's formulation of a pendulum (Section
// 2.1, App. B; NOTES-dutoit 3): the bobs' positions x = (x_1..x_N) in R^{3N}, M = diag(m_k I3),
// the N constraints
//   g_k(x) = |x_k - x_{k-1}|^2 - l_k^2 = 0,   x_0 = 0,
// and the potential of uniform gravity, V(x) = -sum_k m_k gravity . x_k (its gradient is
// constant: the constrained integrators need no Hessian). A model on (S^2)^N whose state is
// (q_1..q_N, w_1..w_N), q_k the direction of link k and q_k' = w_k x q_k with w_k . q_k = 0
// (models/sphere_model.hpp), offers the view by deriving from LinkedBobs<N> and calling
// set_links in its constructor (its configuration_points, the pivot and the bobs, come with
// it): the spherical pendulum (N = 1) and the double spherical
// pendulum (N = 2). Both forms are the same Lagrangian, so the constrained methods' flows are
// comparable with the sphere methods' state for state.

#include <Eigen/Core>

#include "models/configuration.hpp"

namespace geomint {

template <int N>
class LinkedBobs {
 public:
  using Positions = Eigen::Matrix<double, 3 * N, 1>;
  using Constraints = Eigen::Matrix<double, N, 1>;
  using ConstraintJacobian = Eigen::Matrix<double, N, 3 * N>;
  using PositionMatrix = Eigen::Matrix<double, 3 * N, 3 * N>;
  using Links = Eigen::Matrix<double, N, 1>;
  static constexpr bool kConstantPotentialGradient = true;

  Eigen::Index positions_dimension() const { return 3 * N; }
  Eigen::Index constraint_count() const { return N; }
  /// The diagonal of M: m_k three times per bob.
  const Positions& mass() const { return mass_; }

  /// x_k = x_{k-1} + l_k q_k, x_k' = x_{k-1}' + l_k w_k x q_k.
  template <class State>
  void configuration(double /*t*/, const State& y, Positions& x, Positions& v) const {
    Eigen::Vector3d joint = Eigen::Vector3d::Zero(), rate = Eigen::Vector3d::Zero();
    for (int k = 0; k < N; ++k) {
      const Eigen::Vector3d q = y.template segment<3>(3 * k), w = y.template segment<3>(3 * (N + k));
      joint += length_(k) * q;
      rate += length_(k) * w.cross(q);
      x.template segment<3>(3 * k) = joint;
      v.template segment<3>(3 * k) = rate;
    }
  }

  /// The pivot and the bobs (models/configuration.hpp).
  template <class State>
  Eigen::Matrix3Xd configuration_points(double /*t*/, const State& y) const {
    return chain_joints(Eigen::Vector3d::Zero(), y.template head<3 * N>().reshaped(3, N), length_);
  }

  /// q_k = (x_k - x_{k-1}) / l_k, w_k = q_k x (x_k' - x_{k-1}') / l_k: the inverse of
  /// configuration() where the links have their lengths and x_k' - x_{k-1}' is normal to them.
  template <class State>
  void set_configuration(double /*t*/, const Positions& x, const Positions& v, State& y) const {
    Eigen::Vector3d joint = Eigen::Vector3d::Zero(), rate = Eigen::Vector3d::Zero();
    for (int k = 0; k < N; ++k) {
      const Eigen::Vector3d q = (x.template segment<3>(3 * k) - joint) / length_(k);
      y.template segment<3>(3 * k) = q;
      y.template segment<3>(3 * (N + k)) = q.cross(v.template segment<3>(3 * k) - rate) / length_(k);
      joint = x.template segment<3>(3 * k);
      rate = v.template segment<3>(3 * k);
    }
  }

  double constrained_potential(const Positions& x) const { return gradient_.dot(x); }
  void constrained_gradient(const Positions& /*x*/, Positions& grad) const { grad = gradient_; }

  void constraints(double /*t*/, const Positions& x, Constraints& g) const {
    for (int k = 0; k < N; ++k) g(k) = link(x, k).squaredNorm() - length_(k) * length_(k);
  }
  /// Row k: 2 (x_k - x_{k-1})^T at bob k and its negative at bob k - 1.
  void constraint_jacobian(double /*t*/, const Positions& x, ConstraintJacobian& dg) const {
    dg.setZero();
    for (int k = 0; k < N; ++k) {
      dg.template block<1, 3>(k, 3 * k) = 2.0 * link(x, k).transpose();
      if (k > 0) dg.template block<1, 3>(k, 3 * (k - 1)) = -2.0 * link(x, k).transpose();
    }
  }
  /// dg/dt = 0: the pivot does not move.
  void constraint_rate(double /*t*/, const Positions& /*x*/, Constraints& rate) const { rate.setZero(); }
  /// g_k'' = Dg_k x'' + 2 |x_k' - x_{k-1}'|^2.
  void constraint_curvature(double /*t*/, const Positions& /*x*/, const Positions& v, Constraints& curvature) const {
    for (int k = 0; k < N; ++k) curvature(k) = 2.0 * link(v, k).squaredNorm();
  }

 protected:
  /// The links' lengths l_k, the bobs' masses m_k and the acceleration of gravity.
  void set_links(const Links& lengths, const Links& masses, const Eigen::Vector3d& gravity) {
    length_ = lengths;
    for (int k = 0; k < N; ++k) {
      mass_.template segment<3>(3 * k).setConstant(masses(k));
      gradient_.template segment<3>(3 * k) = -masses(k) * gravity;
    }
  }

 private:
  /// x_k - x_{k-1} (the same difference of velocities for v).
  static Eigen::Vector3d link(const Positions& x, int k) {
    return k == 0 ? Eigen::Vector3d(x.template segment<3>(0))
                  : Eigen::Vector3d(x.template segment<3>(3 * k) - x.template segment<3>(3 * (k - 1)));
  }

  Links length_ = Links::Ones();
  Positions mass_ = Positions::Ones();
  Positions gradient_ = Positions::Zero();  // dV/dx = -m_k gravity per bob
};

}  // namespace geomint
