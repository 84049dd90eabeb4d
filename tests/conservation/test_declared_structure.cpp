// Label `conservation`: the structure a one-step map declares, checked on that map itself, for
// every fixed-step integrator of the catalogue on the first registry model of every class it
// runs on (the cases and the rule: tests/support/catalogue_cases.hpp), both ways: what is
// declared holds, and what is not declared is measurably absent, so that each check is seen to
// be able to fail.
//
// Symmetry.<integrator>_on_<model>: Phi_{-H} o Phi_H = id. From the exercise's initial state
// y0, one step of H, then one step of -H from t = H by a fresh integrator (some keep state
// from one step to the next: the VIs' gradient and starting guess); the residual
// |Phi_{-H}(Phi_H(y0)) - y0| / |y0| is below 1e-12 for a method declared symmetric, and above
// 1e-9 for any other, as the integrator declares it on the model (the symplectic Lie group
// integrators' theta = 0 and 1 are symmetric on a left-invariant Hamiltonian:
// integrators/symplectic_lie_group.hpp). Every catalogued fixed-step method takes a negative
// step. A map on T*G
// of its own run on a reduced state (testing::reduced_cotangent_pair) is checked on T*G, with
// g measured by log(g g0^{-1}).
//
// Symplecticity.<integrator>_on_<model>: on (TS^2)^n the phase space is T*(S^2)^n, with the
// momenta p_i = sum_j M_ij (w_j x q_j) = dL/dq_i' in ambient R^{3n} (LLM (2.2)), and its
// symplectic form is the restriction of sum_i dq_i ^ dp_i to the 4n-dimensional submanifold
// the pairs (q, p) fill (the canonical one-form p . dq restricts to that of T*(S^2)^n, since
// dq is tangent). The Jacobian J of one step Phi_H, by central differences of step 1e-6 along
// curves c(e) = project(y0 + e u) on the manifold (so every method starts on it), maps a basis
// U of tangent vectors at y0 (per body: dq along two directions normal to q_i, with dw keeping
// q_i . w_i = 0, and dw along the same two) to tangent vectors at Phi_H(y0); with (dq, dp) the
// linearised momenta of each, the residual
//   max_ab |omega(J u_a, J u_b) - omega(u_a, u_b)| / max_ab |omega(u_a, u_b)|
// is below 1e-7 for a method declared symplectic and above the same 1e-7 for any other.
// On a model offering the CotangentLieGroup view the phase space is T*G with the right-
// trivialised form (13) (geometry/cotangent_so3.hpp), and the same residual is taken in the
// chart (xi, dnu) -> (exp(xi) g, mu + dnu) (expect_cotangent_symplecticity_as_declared): for
// every integrator through the model's state when that is all of T*G (the heavy tops), and for
// the symplectic Lie group integrators through their own map on T*G also when the state is a
// reduced one (the free rigid body's Pi, lifted to T*SO(3)). A model class with no symplectic
// form this test knows (the rigid body's so3* is a Poisson manifold) has no symplecticity case
// for the other integrators; a method declared symplectic that runs on one gets a failing case.
// On a model offering the ConstrainedLagrangian view and not the sphere's (the Astrojax), the
// phase space is T*Q, Q = {g(x, t) = 0} in R^d, with the restriction of sum dx ^ dp, p = M x':
// the same residual on the images of curves project(y0 + e u) (expect_constrained_symplecticity_
// as_declared); for a driven constraint, the map from T*Q at t = 0 to T*Q at t = H.
//
// The step: H = 16 h, h the exercise step (0.16 for the three models today). Declared
// structure holds at any step; what is absent shows as O(H^{p+1}), which at the exercise step
// itself is at round-off for the fifth-order methods (rkmk5 at 4h: symmetry residual 3e-11 on
// the double pendulum, symplecticity residual 5e-9 on the spherical pendulum, below 1e-7).
// Measured at 16 h: see the table the test prints; symmetric methods' residuals are at most
// 5e-15, the others' at least 5e-8 (rkmk5 on the free rigid body); symplectic methods'
// residuals (the differences' rounding, ~eps / 1e-6) at most 2e-9, the others' at least
// 3.7e-7 (rkmk5 on the double pendulum; every other at least 2.5e-5). Why the symplecticity
// check asserts both sides of one bound, not a gap as the symmetry check has (1e-12 / 1e-9):
// what rkmk5 misses is O(H^6), and on the double pendulum its coefficient is small
// (3.7e-7 / 0.16^6 ~ 0.02, against ~3 on the spherical pendulum), so only a factor 185 lies
// between the rounding (2e-9) and rkmk5; 1e-7 sits 50 above the one and 3.7 below the other.
// Every method of the catalogue is on its side of it: a non-symplectic one declared symplectic
// would fail.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "geometry/cotangent_so3.hpp"
#include "catalogue/model_types.hpp"
#include "support/catalogue_cases.hpp"
#include "support/catalogue_suites.hpp"

namespace geomint {
namespace {

constexpr double kStepFactor = 16.0;  // H = 16 h
constexpr double kSymmetricBound = 1e-12, kNotSymmetric = 1e-9;
constexpr double kSymplecticBound = 1e-7, kNotSymplectic = kSymplecticBound;
constexpr double kDifferenceStep = 1e-6;

template <class Model>
constexpr double coarse_step() {
  return kStepFactor * Model::kExercise.h;
}

/// One step of a fresh integrator from (t, y) with step h (negative: backwards).
template <class Model>
typename Model::State one_step(const CompiledIntegrator<Model>& method, const Model& model,
                               typename Model::State y, double t, double h) {
  method.make(model, FixedStep{std::abs(h)}, 0.0, t + std::abs(h))->step(t, y, h);
  return y;
}

/// Whether the cotangent symplecticity check can run the method on Model: through its own map
/// on T*G, or through a model state that is all of T*G (not a reduced one).
template <CotangentLieGroup Model>
bool steps_on_cotangent_bundle(const CompiledIntegrator<Model>& method) {
  return method.has_cotangent_map || !Model::kReducedCotangentState;
}

/// |Phi_{-H}(Phi_H(y0)) - y0| / |y0| on the model's state.
template <class Model>
double state_symmetry_residual(const CompiledIntegrator<Model>& method,
                               const testing::Setup<Model>& s, double H) {
  const auto forward = one_step(method, s.model, s.initial, 0.0, H);
  const auto back = one_step(method, s.model, forward, H, -H);
  return (back - s.initial).norm() / s.initial.norm();
}

/// The same on T*G, through the integrator's own map there: |(g, mu) - (g0, mu0)| / |(g0, mu0)|
/// with g measured by log(g g0^{-1}) (see steps_on_cotangent_bundle).
template <class Model>
double cotangent_symmetry_residual(const CompiledIntegrator<Model>& method,
                                   const testing::Setup<Model>& s, double H) {
  using C = typename Model::Cotangent;
  const auto z0 = s.model.cotangent_point(s.initial);
  auto z = z0;
  const FixedStep step{H};
  method.make(s.model, step, 0.0, H)->cotangent_map()->step_point(0.0, z, H);
  method.make(s.model, step, 0.0, H)->cotangent_map()->step_point(H, z, -H);
  const double change = std::hypot(C::log_right_ratio(z0.g, z.g).norm(), (z.mu - z0.mu).norm());
  return change / std::hypot(std::sqrt(3.0), z0.mu.norm());
}

/// The symmetry residual and where it is taken: on T*G for a map of its own run on a reduced
/// state, else on the model's state.
template <class Model>
std::pair<double, const char*> symmetry_residual(const CompiledIntegrator<Model>& method,
                                                 const testing::Setup<Model>& s, double H) {
  if constexpr (CotangentLieGroup<Model>)
    if (testing::reduced_cotangent_pair(method))
      return {cotangent_symmetry_residual(method, s, H), " on T*G"};
  return {state_symmetry_residual(method, s, H), ""};
}

template <class Model>
void expect_symmetry_as_declared(const CompiledIntegrator<Model>& method) {
  const auto s = testing::exercise_setup<Model>();
  const double H = coarse_step<Model>();
  const bool symmetric = method.on_model->symmetric;  // on this model (see the file comment)
  const auto [residual, where] = symmetry_residual(method, s, H);
  std::printf("%s on %s, H = %g: |Phi_-H(Phi_H(y0)) - y0| / |y0| = %.3e%s (declared %s)\n",
              std::string(method.name()).c_str(), std::string(Model::kName).c_str(), H,
              residual, where, symmetric ? "symmetric" : "not symmetric");
  if (symmetric)
    EXPECT_LT(residual, kSymmetricBound) << "declared symmetric";
  else
    EXPECT_GT(residual, kNotSymmetric) << "not declared symmetric, but Phi_-H inverts Phi_H";
}

/// Prints the symplecticity residual of one step and holds it to the declaration.
template <class Model>
void expect_symplecticity_residual_as_declared(const CompiledIntegrator<Model>& method, double H,
                                               double residual, const char* where) {
  const bool symplectic = method.entry->symplectic;
  std::printf(
      "%s on %s, H = %g: max |omega(JU, JV) - omega(U, V)| / max |omega(U, V)| = %.3e%s "
      "(declared %s)\n",
      std::string(method.name()).c_str(), std::string(Model::kName).c_str(), H, residual,
      where, symplectic ? "symplectic" : "not symplectic");
  if (symplectic)
    EXPECT_LT(residual, kSymplecticBound) << "declared symplectic";
  else
    EXPECT_GT(residual, kNotSymplectic) << "not declared symplectic, but preserves omega";
}

/// (dq, dp) of the tangent vector u = (dq, dw) at y: dp_i = sum_j M_ij (dw_j x q_j + w_j x dq_j).
template <class Model>
Eigen::VectorXd canonical(const Model& model, const typename Model::State& y,
                          const Eigen::VectorXd& u) {
  const Eigen::Index n = model.bodies();
  const auto& m = model.inertia();
  Eigen::VectorXd out = Eigen::VectorXd::Zero(6 * n);
  out.head(3 * n) = u.head(3 * n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = 0; j < n; ++j) {
      if (m(i, j) == 0.0) continue;
      const Eigen::Vector3d qj = y.template segment<3>(3 * j),
                            wj = y.template segment<3>(3 * (n + j));
      const Eigen::Vector3d dqj = u.template segment<3>(3 * j),
                            dwj = u.template segment<3>(3 * (n + j));
      out.template segment<3>(3 * (n + i)) += m(i, j) * (dwj.cross(qj) + wj.cross(dqj));
    }
  return out;
}

/// omega((dq, dp), (dq', dp')) = dq . dp' - dq' . dp.
double omega(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  const Eigen::Index k = a.size() / 2;
  return a.head(k).dot(b.tail(k)) - b.head(k).dot(a.tail(k));
}

/// A basis of the tangent space of (TS^2)^n at y (see the file comment).
template <class Model>
std::vector<Eigen::VectorXd> tangent_basis(const Model& model, const typename Model::State& y) {
  const Eigen::Index n = model.bodies();
  std::vector<Eigen::VectorXd> basis;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Vector3d q = y.template segment<3>(3 * i), w = y.template segment<3>(3 * (n + i));
    const Eigen::Vector3d a = q.unitOrthogonal(), b = q.cross(a).normalized();
    for (const Eigen::Vector3d& e : {a, b}) {
      Eigen::VectorXd u = Eigen::VectorXd::Zero(6 * n);
      u.template segment<3>(3 * i) = e;
      u.template segment<3>(3 * (n + i)) = -e.dot(w) * q;  // d(q . w) = e . w + q . dw = 0
      basis.push_back(u);
      u.setZero();
      u.template segment<3>(3 * (n + i)) = e;
      basis.push_back(u);
    }
  }
  return basis;
}

template <class Model>
void expect_symplecticity_as_declared(const CompiledIntegrator<Model>& method) {
  const auto s = testing::exercise_setup<Model>();
  const double H = coarse_step<Model>();
  const auto& y0 = s.initial;
  const auto y1 = one_step(method, s.model, y0, 0.0, H);
  const auto basis = tangent_basis(s.model, y0);
  std::vector<Eigen::VectorXd> before, after;
  for (const auto& u : basis) {
    typename Model::State plus = y0 + kDifferenceStep * u, minus = y0 - kDifferenceStep * u;
    s.model.project(plus);
    s.model.project(minus);
    const Eigen::VectorXd ju = (one_step(method, s.model, plus, 0.0, H) -
                                one_step(method, s.model, minus, 0.0, H)) /
                               (2.0 * kDifferenceStep);
    before.push_back(canonical(s.model, y0, u));
    after.push_back(canonical(s.model, y1, ju));
  }
  double scale = 0.0, defect = 0.0;
  for (std::size_t a = 0; a < basis.size(); ++a)
    for (std::size_t b = a + 1; b < basis.size(); ++b) {
      scale = std::max(scale, std::abs(omega(before[a], before[b])));
      defect = std::max(defect, std::abs(omega(after[a], after[b]) - omega(before[a], before[b])));
    }
  expect_symplecticity_residual_as_declared(method, H, defect / scale, "");
}

// ---- Symplecticity on T*Q, Q = {g(x, t) = 0} (ConstrainedLagrangian) ---------------------------

/// (x, M x') of the state y at time t, as one vector of R^{2d}.
template <class Model>
Eigen::VectorXd canonical_point(const Model& model, double t, const typename Model::State& y) {
  typename Model::Positions x(model.positions_dimension()), v(model.positions_dimension());
  model.configuration(t, y, x, v);
  Eigen::VectorXd out(2 * x.size());
  out << x, model.mass().cwiseProduct(v);
  return out;
}

/// The symplecticity residual of one step on the constrained phase space T*Q in R^{2d}, whose
/// form is the restriction of sum dx ^ dp, p = M x'. The curves c_a(e) = project(y0 + e u_a),
/// u_a each coordinate direction of the state, lie on the manifold; their tangents at y0 and
/// their images under the step, in (x, p) read through the model's configuration at t = 0 and
/// at t = H (central differences of step 1e-6), give
///   max_ab |omega(J u_a, J u_b) - omega(u_a, u_b)| / max_ab |omega(u_a, u_b)|.
template <class Model>
void expect_constrained_symplecticity_as_declared(const CompiledIntegrator<Model>& method) {
  const auto s = testing::exercise_setup<Model>();
  const double H = coarse_step<Model>();
  const auto& y0 = s.initial;
  std::vector<Eigen::VectorXd> before, after;
  for (Eigen::Index a = 0; a < y0.size(); ++a) {
    typename Model::State plus = y0, minus = y0;
    plus(a) += kDifferenceStep;
    minus(a) -= kDifferenceStep;
    s.model.project(plus);
    s.model.project(minus);
    before.push_back((canonical_point(s.model, 0.0, plus) - canonical_point(s.model, 0.0, minus)) /
                     (2.0 * kDifferenceStep));
    after.push_back((canonical_point(s.model, H, one_step(method, s.model, plus, 0.0, H)) -
                     canonical_point(s.model, H, one_step(method, s.model, minus, 0.0, H))) /
                    (2.0 * kDifferenceStep));
  }
  double scale = 0.0, defect = 0.0;
  for (std::size_t a = 0; a < before.size(); ++a)
    for (std::size_t b = a + 1; b < before.size(); ++b) {
      scale = std::max(scale, std::abs(omega(before[a], before[b])));
      defect = std::max(defect, std::abs(omega(after[a], after[b]) - omega(before[a], before[b])));
    }
  expect_symplecticity_residual_as_declared(method, H, defect / scale, " on T*Q in R^2d");
}

// ---- Symplecticity on T*G (Celledoni (13)) ----------------------------------------------------

/// One step of a fresh integrator on T*G from the point z: through the integrator's own map on
/// T*G where it has one (the symplectic Lie group integrators), else through the model's state
/// (which is then all of T*G), starting from y0's other components.
template <class Model>
typename Model::Cotangent::Point cotangent_step(const CompiledIntegrator<Model>& method,
                                                const Model& model, const typename Model::State& y0,
                                                typename Model::Cotangent::Point z, double h) {
  const auto integrator = method.make(model, FixedStep{h}, 0.0, h);
  if (method.has_cotangent_map) {
    integrator->cotangent_map()->step_point(0.0, z, h);
    return z;
  }
  typename Model::State y = y0;
  model.set_cotangent_point(z, y);
  integrator->step(0.0, y, h);
  return model.cotangent_point(y);
}

/// The symplecticity residual of one step on T*G with respect to (13): the Jacobian J of the
/// step in the chart (xi, dnu) -> (exp(xi) g, mu + dnu), by central differences of step 1e-6
/// along each of the 2d coordinate directions u_a, reading the image points in the same chart
/// around the unperturbed image (log of g1' g1^{-1}); the residual is
///   max_ab |omega_{mu1}(J u_a, J u_b) - omega_{mu0}(u_a, u_b)| / max_ab |omega_{mu0}(u_a, u_b)|.
template <class Model>
void expect_cotangent_symplecticity_as_declared(const CompiledIntegrator<Model>& method) {
  using C = typename Model::Cotangent;
  using Algebra = typename C::Algebra;
  constexpr int d = C::kDim;
  const auto s = testing::exercise_setup<Model>();
  const double H = coarse_step<Model>();
  const auto z0 = s.model.cotangent_point(s.initial);
  const auto z1 = cotangent_step(method, s.model, s.initial, z0, H);
  std::vector<Algebra> xi0(2 * d), nu0(2 * d), xi1(2 * d), nu1(2 * d);
  for (int a = 0; a < 2 * d; ++a) {
    xi0[a] = Algebra::Zero();
    nu0[a] = Algebra::Zero();
    (a < d ? xi0[a][a] : nu0[a][a - d]) = 1.0;
    auto image = [&](double e) {
      auto z = z0;
      C::exp_left(e * xi0[a], z.g);
      z.mu += e * nu0[a];
      return cotangent_step(method, s.model, s.initial, z, H);
    };
    const auto plus = image(kDifferenceStep), minus = image(-kDifferenceStep);
    xi1[a] = (C::log_right_ratio(z1.g, plus.g) - C::log_right_ratio(z1.g, minus.g)) / (2.0 * kDifferenceStep);
    nu1[a] = (plus.mu - minus.mu) / (2.0 * kDifferenceStep);
  }
  double scale = 0.0, defect = 0.0;
  for (int a = 0; a < 2 * d; ++a)
    for (int b = a + 1; b < 2 * d; ++b) {
      const double before = cotangent_symplectic_form<C>(z0.mu, xi0[a], nu0[a], xi0[b], nu0[b]);
      const double after = cotangent_symplectic_form<C>(z1.mu, xi1[a], nu1[a], xi1[b], nu1[b]);
      scale = std::max(scale, std::abs(before));
      defect = std::max(defect, std::abs(after - before));
    }
  expect_symplecticity_residual_as_declared(method, H, defect / scale, " on T*G, form (13)");
}

template <class Model>
void register_structure_cases(testing::Covered covered) {
  testing::for_each_runnable<Model>(covered, [](const CompiledIntegrator<Model>& method) {
    const Declaration& d = *method.entry;
    const std::string name = testing::case_name(method);
    if (d.adaptive) {
      // A step of an adaptive method is not a map of a given H: nothing here could check it.
      if (d.symmetric || d.symplectic)
        testing::register_case("Symmetry", name, [] {
          FAIL() << "an adaptive method declares symmetric or symplectic; no test checks it";
        });
      return;
    }
    if (!testing::first_of_its_class(Model::kName, method.needs)) return;
    testing::register_case("Symmetry", name, [&method] { expect_symmetry_as_declared(method); });
    if constexpr (SphereLagrangian<Model>) {
      testing::register_case("Symplecticity", name,
                             [&method] { expect_symplecticity_as_declared(method); });
      return;
    }
    if constexpr (CotangentLieGroup<Model>)
      if (steps_on_cotangent_bundle(method)) {
        testing::register_case("Symplecticity", name,
                               [&method] { expect_cotangent_symplecticity_as_declared(method); });
        return;
      }
    if constexpr (ConstrainedLagrangian<Model>) {
      testing::register_case("Symplecticity", name,
                             [&method] { expect_constrained_symplecticity_as_declared(method); });
      return;
    }
    if (d.symplectic)
      testing::register_case("Symplecticity", name, [] {
        FAIL() << "declared symplectic on " << testing::manifold_of<Model>()
               << ", where this test knows no symplectic form";
      });
  });
}

}  // namespace

void testing::register_declared_structure_suite(Covered covered) {
  for_each_model_type([&]<class Model>() { register_structure_cases<Model>(covered); });
}

}  // namespace geomint
