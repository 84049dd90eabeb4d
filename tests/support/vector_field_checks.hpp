#pragma once
// The checks every (S^2)^n model's vector field must pass at a state y, written once for the
// model tests: along f = rhs(y),
//   - the energy is conserved: dE/dt by central differences (y +- e f) vanishes to 1e-6 of the
//     power |sum_i dV/dq_i . q_i'| that kinetic and potential energy exchange;
//   - f is tangent to (TS^2)^n: q_i . q_i' = 0 and q_i' . w_i + q_i . w_i' = 0;
//   - the Lie algebra generator reproduces it: psi_*(xi(y))|_y = f(y) (Celledoni Section 5.2).

#include <gtest/gtest.h>

#include <cmath>

#include "support/eigen_matchers.hpp"

namespace geomint::testing {

template <class Model>
struct VectorFieldProbe {
  typename Model::State f, yp, ym;  // f(y) and y +- e f
  double e;                         // the difference step
  double power;                     // sum_i |dV/dq_i . q_i'|
};

/// Runs the checks above at y with difference step e, and returns what a caller needs for
/// checks of its own (a momentum map's rate along f, say).
template <class Model>
VectorFieldProbe<Model> expect_sphere_vector_field(const Model& model,
                                                   const typename Model::State& y, double e) {
  using State = typename Model::State;
  using Vec3 = Eigen::Vector3d;
  const Eigen::Index n = model.bodies();
  VectorFieldProbe<Model> p{State(y.size()), State(y.size()), State(y.size()), e, 0.0};
  model.rhs(0.0, y, p.f);
  p.yp = y + e * p.f;
  p.ym = y - e * p.f;
  typename Model::Points q = Model::positions(y), grad = q;
  model.potential_gradient(q, grad);
  for (Eigen::Index i = 0; i < n; ++i)
    p.power += std::abs(grad.col(i).dot(p.f.template segment<3>(3 * i)));
  EXPECT_NEAR((model.energy(p.yp) - model.energy(p.ym)) / (2 * e), 0.0, 1e-6 * p.power);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 qi = y.template segment<3>(3 * i), wi = y.template segment<3>(3 * (n + i));
    const Vec3 qd = p.f.template segment<3>(3 * i), wd = p.f.template segment<3>(3 * (n + i));
    EXPECT_NEAR(qi.dot(qd), 0.0, 1e-13) << "body " << i + 1;
    EXPECT_NEAR(qd.dot(wi) + qi.dot(wd), 0.0, 1e-12 * (1.0 + wd.norm())) << "body " << i + 1;
  }
  typename Model::Algebra xi(y.size());
  State g(y.size());
  model.generator(0.0, y, xi);
  Model::Group::generator(xi, y, g);
  EXPECT_EIGEN_NEAR(g, p.f, 1e-12 * (1.0 + p.f.norm()));
  return p;
}

}  // namespace geomint::testing
