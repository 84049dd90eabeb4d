#include "models/sphere_nbody.hpp"

#include <cmath>
#include <string>

#include "models/sphere_state.hpp"

namespace geomint {

ParameterSet SphereNBody::default_parameters() {
  return {{"n", 3.0, "", "number of bodies", ParameterDomain::whole(2, 10000)},
          {"m", 1.0, "", "mass of every body", ParameterDomain::positive()},
          {"gamma", 1.0, "", "strength of the potential, V = -gamma sum_{i<j} cot(theta_ij)"}};
}

SphereNBody::SphereNBody(const ParameterSet& p) {
  const auto n = static_cast<Eigen::Index>(p["n"]);
  inertia_ = Inertia::constant(n, p["m"]);
  set_bodies(1.0, Points::Zero(3, n));
  gamma_ = p["gamma"];
  allocate_scratch(n);
}

// LLM Example 2: V = -gamma/2 sum_{i != j} c_ij / sqrt(1 - c_ij^2), c_ij = q_i.q_j, summed here
// over i < j once. 1 - c^2 is formed as (1 - c)(1 + c), which keeps its relative accuracy near
// a collision (c -> 1) or an antipodal pair (c -> -1).
double SphereNBody::potential(const Points& q) const {
  double v = 0.0;
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j) {
      const double c = q.col(i).dot(q.col(j));
      v -= gamma_ * c / std::sqrt((1.0 - c) * (1.0 + c));
    }
  return v;
}

// LLM (3.21): dV/dq_i = -gamma sum_{j != i} q_j / (1 - c_ij^2)^{3/2}, since
// d/dc [c (1 - c^2)^{-1/2}] = (1 - c^2)^{-3/2}.
void SphereNBody::potential_gradient(const Points& q, Points& grad) const {
  grad.setZero();
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j) {
      const double c = q.col(i).dot(q.col(j));
      const double s = (1.0 - c) * (1.0 + c);
      const double k = -gamma_ / (s * std::sqrt(s));
      grad.col(i) += k * q.col(j);
      grad.col(j) += k * q.col(i);
    }
}

// With f(c) = -gamma c (1 - c^2)^{-1/2}, f' = -gamma (1 - c^2)^{-3/2} (the gradient above) and
// f'' = -3 gamma c (1 - c^2)^{-5/2}, the pair term f(q_i.q_j) has the blocks
//   (i, i): f'' q_j q_j^T,   (j, j): f'' q_i q_i^T,   (i, j): f'' q_j q_i^T + f' I,   (j, i) its transpose.
void SphereNBody::ambient_potential_hessian(const Points& q, PositionMatrix& hess) const {
  hess.setZero(positions_dimension(), positions_dimension());
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j) {
      const Vec3 qi = q.col(i), qj = q.col(j);
      const double c = qi.dot(qj);
      const double s = (1.0 - c) * (1.0 + c);
      const double f1 = -gamma_ / (s * std::sqrt(s));
      const double f2 = 3.0 * c * f1 / s;
      hess.block<3, 3>(3 * i, 3 * i) += f2 * qj * qj.transpose();
      hess.block<3, 3>(3 * j, 3 * j) += f2 * qi * qi.transpose();
      const Eigen::Matrix3d cross = f2 * qj * qi.transpose() + f1 * Eigen::Matrix3d::Identity();
      hess.block<3, 3>(3 * i, 3 * j) += cross;
      hess.block<3, 3>(3 * j, 3 * i) += cross.transpose();
    }
}

const std::vector<Preset<SphereNBody>>& SphereNBody::presets() {
  static const std::vector<Preset<SphereNBody>> list = {
      {"lee2009",
       "LLM Example 2: n = 3, m1 = m2 = m3 = 1, gamma = 1; q1 = (0, -1, 0), q2 = (0, 0, 1), "
       "q3 = (-1, 0, 0), w1 = (0, 0, -1.1), w2 = (1, 0, 0), w3 = (0, 1, 0) (all exact as "
       "printed, and on T(S^2)^3). The paper runs T = 10 with h = 1e-3 and 1e-4. E(0) = 1.605 "
       "(all three bodies start mutually orthogonal, so V(0) = 0).",
       [](ParameterSet& p) {
         p.set("n", 3);
         p.set("m", 1.0);
         p.set("gamma", 1.0);
       },
       [](const SphereNBody& model) {
         if (model.bodies() != 3)
           throw InputError("sphere_nbody: preset lee2009 is for n = 3 bodies, got n = " +
                            std::to_string(model.bodies()));
         return make_sphere_state<State>({{0, -1, 0}, {0, 0, 1}, {-1, 0, 0}},
                                         {{0, 0, -1.1}, {1, 0, 0}, {0, 1, 0}});
       }},
      {"tetrahedron",
       "An equilibrium (our choice, an exact solution): n = 4 bodies at rest at the vertices "
       "of a regular tetrahedron, q = (1, 1, 1)/sqrt3, (1, -1, -1)/sqrt3, (-1, 1, -1)/sqrt3, "
       "(-1, -1, 1)/sqrt3, m = gamma = 1. By symmetry the pull of the other three on each "
       "body is radial, so no tangential force acts and the bodies must stay put.",
       [](ParameterSet& p) {
         p.set("n", 4);
         p.set("m", 1.0);
         p.set("gamma", 1.0);
       },
       [](const SphereNBody& model) {
         if (model.bodies() != 4)
           throw InputError("sphere_nbody: preset tetrahedron is for n = 4 bodies, got n = " +
                            std::to_string(model.bodies()));
         const double c = 1.0 / std::sqrt(3.0);
         return make_sphere_state<State>({{c, c, c}, {c, -c, -c}, {-c, c, -c}, {-c, -c, c}},
                                         {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
       }}};
  return list;
}

}  // namespace geomint
