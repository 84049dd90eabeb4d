#pragma once
// The ConstrainedLagrangian view (models/views.hpp) of n point masses, each on a sphere of
// radius r about its own fixed pivot p_i, DuToit's formulation (Sections 3, 6.3): the positions
// x = (x_1..x_n) in R^{3n}, x_i = p_i + r q_i, M = diag(m_i I3), the n constraints
//   g_i(x) = |x_i - p_i|^2 - r^2 = 0,
// and the potential V(x) = V_S((x_1 - p_1)/r, .., (x_n - p_n)/r), where V_S is the sphere model's
// own formula for V(q_1..q_n) read with the q_i in R^3 rather than on the unit sphere. Off the
// constraint set that extension is a choice; the constrained flow does not see it (only the
// gradient's part tangent to the spheres moves the bodies, the rest is taken up by the
// multipliers), but the midpoint rule evaluates grad V at chord midpoints, inside the spheres,
// so each model says where its extension is smooth. A model on (S^2)^n whose state is
// (q_1..q_n, w_1..w_n), q_i' = w_i x q_i with w_i . q_i = 0 (models/sphere_model.hpp), offers the
// view by deriving from BodiesOnSpheres<Model, n> and calling set_bodies in its constructor
// once its inertia is set (M_ii = m_i r^2, diagonal: the masses are read from it); it supplies
//   - potential(q) and potential_gradient(q, grad) of V_S (its SphereLagrangian view), the
//     gradient the plain one of the formula in R^{3n}, not projected onto the spheres, and
//   - ambient_potential_hessian(q, hess): that formula's 3n x 3n Hessian in the q_i,
// from which grad V(x) = grad V_S(q) / r and Hess V(x) = Hess V_S(q) / r^2. The bodies on the
// sphere, the spring pendula, the molecules and the charges offer it. Both forms are the same
// Lagrangian, so the constrained methods' flows are comparable with the sphere methods' state
// for state. The evaluations allocate nothing: the directions q_i and the gradient in them are
// scratch of set_bodies' size (one object is thus not usable by two threads at once, like
// SphereModel's scratch), and the outputs are written at the size they must have.

#include <Eigen/Core>

namespace geomint {

template <class Model, int N>
class BodiesOnSpheres {
 public:
  static constexpr int kPositions = N == Eigen::Dynamic ? Eigen::Dynamic : 3 * N;
  using Positions = Eigen::Matrix<double, kPositions, 1>;
  using Constraints = Eigen::Matrix<double, N, 1>;
  using ConstraintJacobian = Eigen::Matrix<double, N, kPositions>;
  using PositionMatrix = Eigen::Matrix<double, kPositions, kPositions>;
  using Directions = Eigen::Matrix<double, 3, N>;
  static constexpr bool kConstantPotentialGradient = false;

  Eigen::Index positions_dimension() const { return mass_.size(); }
  Eigen::Index constraint_count() const { return pivot_.cols(); }
  /// The diagonal of M: m_i three times per body.
  const Positions& mass() const { return mass_; }
  /// The radius r of every body's sphere.
  double radius() const { return radius_; }

  /// x_i = p_i + r q_i, x_i' = r w_i x q_i.
  template <class State>
  void configuration(double /*t*/, const State& y, Positions& x, Positions& v) const {
    const Eigen::Index n = constraint_count();
    x.resize(3 * n);
    v.resize(3 * n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::Vector3d q = y.template segment<3>(3 * i), w = y.template segment<3>(3 * (n + i));
      x.template segment<3>(3 * i) = pivot_.col(i) + radius_ * q;
      v.template segment<3>(3 * i) = radius_ * w.cross(q);
    }
  }

  /// q_i = (x_i - p_i) / r, w_i = q_i x x_i' / r: the inverse of configuration() where
  /// |q_i| = 1 and x_i' . q_i = 0 (then (q_i x x_i') x q_i = x_i').
  template <class State>
  void set_configuration(double /*t*/, const Positions& x, const Positions& v, State& y) const {
    const Eigen::Index n = constraint_count();
    y.resize(6 * n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::Vector3d q = (x.template segment<3>(3 * i) - pivot_.col(i)) / radius_;
      y.template segment<3>(3 * i) = q;
      y.template segment<3>(3 * (n + i)) = q.cross(v.template segment<3>(3 * i)) / radius_;
    }
  }

  double constrained_potential(const Positions& x) const { return model().potential(directions(x)); }
  void constrained_gradient(const Positions& x, Positions& grad) const {
    model().potential_gradient(directions(x), direction_gradient_);
    grad = direction_gradient_.reshaped() / radius_;
  }
  void potential_hessian(const Positions& x, PositionMatrix& hess) const {
    model().ambient_potential_hessian(directions(x), hess);
    hess /= radius_ * radius_;
  }

  void constraints(double /*t*/, const Positions& x, Constraints& g) const {
    g.resize(constraint_count());
    for (Eigen::Index i = 0; i < constraint_count(); ++i)
      g(i) = offset(x, i).squaredNorm() - radius_ * radius_;
  }
  /// Dg = blockdiag(2 (x_1 - p_1)^T, .., 2 (x_n - p_n)^T).
  void constraint_jacobian(double /*t*/, const Positions& x, ConstraintJacobian& dg) const {
    dg.setZero(constraint_count(), positions_dimension());
    for (Eigen::Index i = 0; i < constraint_count(); ++i)
      dg.template block<1, 3>(i, 3 * i) = 2.0 * offset(x, i).transpose();
  }
  /// dg/dt = 0: the pivots do not move.
  void constraint_rate(double /*t*/, const Positions& /*x*/, Constraints& rate) const {
    rate.setZero(constraint_count());
  }
  /// g_i'' = 2 (x_i - p_i) . x_i'' + 2 |x_i'|^2.
  void constraint_curvature(double /*t*/, const Positions& /*x*/, const Positions& v,
                            Constraints& curvature) const {
    curvature.resize(constraint_count());
    for (Eigen::Index i = 0; i < constraint_count(); ++i)
      curvature(i) = 2.0 * v.template segment<3>(3 * i).squaredNorm();
  }

 protected:
  /// Body i on the sphere of radius r about pivots.col(i), of mass M_ii / r^2 (the model's
  /// diagonal inertia).
  void set_bodies(double radius, const Directions& pivots) {
    mass_ = (model().inertia().diagonal() / (radius * radius)).transpose().replicate(3, 1).reshaped();
    radius_ = radius;
    pivot_ = pivots;
    direction_ = pivots;
    direction_gradient_ = pivots;
  }
  /// Adds to hess the Hessian of a term f(q_i - q_j) whose Hessian in d = q_i - q_j is b:
  /// b at (i, i) and (j, j), -b at (i, j) and (j, i).
  static void add_difference_hessian(Eigen::Index i, Eigen::Index j, const Eigen::Matrix3d& b,
                                     PositionMatrix& hess) {
    hess.template block<3, 3>(3 * i, 3 * i) += b;
    hess.template block<3, 3>(3 * j, 3 * j) += b;
    hess.template block<3, 3>(3 * i, 3 * j) -= b;
    hess.template block<3, 3>(3 * j, 3 * i) -= b;
  }

 private:
  const Model& model() const { return static_cast<const Model&>(*this); }
  Eigen::Vector3d offset(const Positions& x, Eigen::Index i) const {
    return x.template segment<3>(3 * i) - pivot_.col(i);
  }
  /// q_i = (x_i - p_i) / r, as the columns of the scratch.
  const Directions& directions(const Positions& x) const {
    direction_ = (x.reshaped(3, constraint_count()) - pivot_) / radius_;
    return direction_;
  }

  Positions mass_;
  Directions pivot_;
  double radius_ = 1.0;
  mutable Directions direction_, direction_gradient_;
};

}  // namespace geomint
