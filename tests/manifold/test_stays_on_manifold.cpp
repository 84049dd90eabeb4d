// Label `manifold`: every integrator that declares stays_on_manifold (the Lie group family, the
// variational integrators, every reprojection variant `_proj`, fixed-step and adaptive, the
// reference solvers' included) keeps the state on the model's manifold on every model it runs
// on: over 10^4 steps from the exercise's initial state, every manifold defect of the model
// (max_manifold_defect: the blocks' |q_i| - 1, q_i . w_i, and the model's own, such as the rigid
// body's |Pi| - L) stays below 1e-12 at every step, and is never NaN. Generated as
// StaysOnManifold.<integrator>_on_<model> over the catalogue and the registry
// (tests/support/catalogue_cases.hpp); the run, and why it stays within ten exercise horizons:
// tests/support/long_run.hpp.
//
// Why 1e-12: a method that stays on the manifold moves the defects only by rounding, ~1e-16 per
// step (relative to |q_i| = 1 and to |w_i|), which over 10^4 steps adds up like a random walk
// to ~1e-14; a method that leaves the manifold at its local error (RK4 does) is off by 1e-8 or
// more over such a run. Measured: the largest defect of any case is 3e-13 (cf43 on elastic_rod),
// the projected methods' ~1e-15; the test prints every case's. It caught the explicit VI's
// |q_i| drifting linearly by rounding (2e-12 for vi_explicit_y6 on sphere_lj, now 2e-14: see
// (3.17) in integrators/variational_explicit.hpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "catalogue/model_types.hpp"
#include "support/catalogue_cases.hpp"
#include "support/catalogue_suites.hpp"
#include "support/long_run.hpp"

namespace geomint {
namespace {

constexpr std::int64_t kRunSteps = 10000;
constexpr double kDefectBound = 1e-12;

/// max_manifold_defect with the defects' indices looked up once (it runs at every step).
template <class Model>
class DefectMeter {
 public:
  explicit DefectMeter(const Model& model) : model_(model) {
    const auto all = all_invariants(model);
    for (std::size_t i = 0; i < all.size(); ++i)
      if (all[i].kind == InvariantKind::ManifoldDefect) defects_.push_back(i);
  }
  /// The largest |defect| at y, NaN if any is NaN.
  double operator()(const typename Model::State& y) {
    evaluate_all_invariants(model_, y, values_);
    double worst = 0.0;
    for (std::size_t i : defects_) {
      if (std::isnan(values_[i])) return values_[i];
      worst = std::max(worst, std::abs(values_[i]));
    }
    return worst;
  }
  std::size_t count() const { return defects_.size(); }

 private:
  const Model& model_;
  std::vector<std::size_t> defects_;
  std::vector<double> values_;
};

template <class Model>
void expect_stays_on_manifold(const CompiledIntegrator<Model>& method) {
  const auto s = testing::exercise_setup<Model>();
  DefectMeter<Model> meter(s.model);
  ASSERT_GT(meter.count(), 0u) << "the model declares no manifold defect to check";
  double worst = 0.0, worst_t = 0.0;
  bool nan = false;
  const auto run = testing::run_steps(method, s.model, s.initial, kRunSteps,
                                      [&](double t, const typename Model::State& y) {
                                        const double d = meter(y);
                                        if (std::isnan(d)) nan = true;
                                        if (d > worst) {
                                          worst = d;
                                          worst_t = t;
                                        }
                                      });
  std::printf(
      "%s on %s: %lld steps (h = %g, %d passes to t = %g): largest of %zu defects %.3e "
      "at t = %g\n",
      std::string(method.name()).c_str(), std::string(Model::kName).c_str(),
      static_cast<long long>(run.steps), run.h, run.passes, run.t_end, meter.count(), worst,
      worst_t);
  ASSERT_EQ(run.steps, kRunSteps);
  EXPECT_FALSE(nan) << "a defect was NaN";
  EXPECT_LT(worst, kDefectBound) << "at t = " << worst_t;
}

/// Whether the model has a manifold to stay on: a model on an open set of R^n (the planar
/// Astrojax in (lambda, theta1, theta2)) declares no manifold defect, and has no case here.
template <class Model>
bool declares_a_manifold() {
  const auto s = testing::exercise_setup<Model>();
  const auto all = all_invariants(s.model);
  return std::any_of(all.begin(), all.end(), [](const Invariant& i) {
    return i.kind == InvariantKind::ManifoldDefect;
  });
}

template <class Model>
void register_manifold_cases(testing::Covered covered) {
  if (!declares_a_manifold<Model>()) return;
  testing::for_each_runnable<Model>(covered, [](const CompiledIntegrator<Model>& method) {
    if (method.entry->stays_on_manifold)
      testing::register_case("StaysOnManifold", testing::case_name(method),
                             [&method] { expect_stays_on_manifold(method); });
  });
}

}  // namespace

void testing::register_stays_on_manifold_suite(Covered covered) {
  for_each_model_type([&]<class Model>() { register_manifold_cases<Model>(covered); });
}

}  // namespace geomint
