// Label `conservation`: a symplectic method conserves the momentum maps of the model's symmetry
// (integrators/declaration.hpp: `symplectic` promises it with the absence of energy drift).
// Generated as MomentumMap.<integrator>_on_<model> for every integrator declared symplectic and
// every registry model it runs on that declares conserved invariants of kind Momentum (L_z for
// the pendulums and the chain, the whole angular momentum for bodies and molecules on the
// sphere): over 10^4 steps from the exercise's initial state (tests/support/long_run.hpp), the
// largest |J(t) - J(0)| (Euclidean over the components) stays below 1e-11 of |J(0)|. Where
// J(0) = 0 (Celledoni's chain swings in a vertical plane) the scale is sum_i |q_i x p_i|,
// p_i = sum_k M_ik (w_k x q_k), the bodies' angular momenta one by one.
//
// Every symplectic method of the catalogue is one of LLM's variational integrators or a
// composition of them, derived from a discrete Lagrangian invariant under the rotations, so the
// discrete Noether theorem makes the momentum map exact up to the rounding of the nonlinear
// solve. A symplectic method that is not equivariant would fail here, and would need a
// declaration of its own (conserves_momentum) rather than this implication. Measured: at most
// 7e-12 (vi_implicit_y4 on the spherical pendulum, whose Lz is 1.7; 5e-12 for vi_implicit_y6),
// typically 1e-13 - 1e-12; the test prints every case's.
//
// The controls, MomentumMapControl.<integrator>_on_<model>: the classical fixed-step methods of
// order 2, which are not symplectic (RK2 and its reprojection: the projection keeps |q_i| = 1
// and q_i . w_i = 0, not J), on the first registry model with a momentum map they run on, are
// held to the same run and shown to exceed the bound (measured: 2.4e-6 and 2.4e-7 of |J0| on
// the spherical pendulum), so that the measurement is seen to be able to fail. Not RK4: at the
// run's step (h = 10 T / 10^4 = 1e-3) its truncation error in J is below the rounding the
// bound allows for (5e-13, 7e-13 with the reprojection).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/model_types.hpp"
#include "support/catalogue_cases.hpp"
#include "support/catalogue_suites.hpp"
#include "support/long_run.hpp"
#include "support/momentum_maps.hpp"

namespace geomint {
namespace {

constexpr std::int64_t kSteps = 10000;
constexpr double kBound = 1e-11;

/// sum_i |q_i x p_i|, p_i = sum_k M_ik (w_k x q_k).
template <class Model>
double body_momenta(const Model& model, const typename Model::State& y) {
  const Eigen::Index n = model.bodies();
  const auto& m = model.inertia();
  const auto q = [&](Eigen::Index i) { return Eigen::Vector3d(y.template segment<3>(3 * i)); };
  const auto w = [&](Eigen::Index i) {
    return Eigen::Vector3d(y.template segment<3>(3 * (n + i)));
  };
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    for (Eigen::Index k = 0; k < n; ++k)
      if (m(i, k) != 0.0) p += m(i, k) * w(k).cross(q(k));
    sum += q(i).cross(p).norm();
  }
  return sum;
}

template <class Model>
void expect_momentum_conserved(const CompiledIntegrator<Model>& method) {
  const auto s = testing::exercise_setup<Model>();
  const auto indices = testing::momentum_indices(s.model);
  std::vector<double> initial, values;
  evaluate_all_invariants(s.model, s.initial, initial);
  double j0 = 0.0;
  for (std::size_t i : indices) j0 += initial[i] * initial[i];
  j0 = std::sqrt(j0);
  double scale = j0;
  if constexpr (SphereLagrangian<Model>)
    if (scale == 0.0) scale = body_momenta(s.model, s.initial);
  ASSERT_GT(scale, 0.0) << "J(0) = 0 and no other scale for the momentum error";
  double error = 0.0;
  bool nan = false;
  const auto run = testing::run_steps(
      method, s.model, s.initial, kSteps, [&](double, const typename Model::State& y) {
        evaluate_all_invariants(s.model, y, values);
        double squared = 0.0;
        for (std::size_t i : indices)
          squared += (values[i] - initial[i]) * (values[i] - initial[i]);
        if (std::isnan(squared)) nan = true;  // (std::max would drop a NaN)
        error = std::max(error, std::sqrt(squared));
      });
  std::printf("%s on %s: %lld steps (h = %g): max |J - J0| = %.3e, %.3e of %s %.3g\n",
              std::string(method.name()).c_str(), std::string(Model::kName).c_str(),
              static_cast<long long>(run.steps), run.h, error, error / scale,
              j0 > 0.0 ? "|J0|" : "sum_i |q_i x p_i|", scale);
  ASSERT_EQ(run.steps, kSteps);
  EXPECT_FALSE(nan) << "a momentum map was NaN";
  if (method.entry->symplectic)
    EXPECT_LT(error / scale, kBound) << "max |J - J0| = " << error << " of " << scale;
  else
    EXPECT_GT(error / scale, kBound) << "not declared symplectic, but keeps the momentum map";
}

template <class Model>
void register_momentum_cases(testing::Covered covered) {
  if (testing::momentum_indices(testing::exercise_setup<Model>().model).empty()) return;
  testing::for_each_runnable<Model>(covered, [](const CompiledIntegrator<Model>& method) {
    const Declaration& d = *method.entry;
    if (d.symplectic)
      testing::register_case("MomentumMap", testing::case_name(method),
                             [&method] { expect_momentum_conserved(method); });
    else if (d.family == Family::Classical && !d.adaptive && d.order == 2 &&
             testing::first_with_momentum(Model::kName, d.name))
      testing::register_case("MomentumMapControl", testing::case_name(method),
                             [&method] { expect_momentum_conserved(method); });
  });
}

}  // namespace

void testing::register_momentum_maps_suite(Covered covered) {
  for_each_model_type([&]<class Model>() { register_momentum_cases<Model>(covered); });
}

}  // namespace geomint
