// Label `reference`: the reference solvers (Boost.Odeint, SUNDIALS CVODE and ARKODE) and our
// Dormand-Prince agree on the double spherical pendulum (LLM Example 1's preset lee2009) at
// T = 10, each within a bound derived from the tolerance it was given, measured against an
// independent reference: our classical RK4 at h = 1e-4.
//
// Why RK4 and not a reference solver at a tighter tolerance: every adaptive solver here is
// under test, and a test never compares an implementation with itself (Fehlberg 7(8) at rtol
// 1e-14 would judge odeint_rkf78 by odeint_rkf78). RK4 is a fixed-step method with none of
// their code, and its own error is measured: with h = 1e-4 and h = 2e-4 its error is about
// |y_h - y_2h| / 15, plus round-off of the order of |y_h - y_2h|; we require that spread to be a
// hundred times below the tightest bound tested.
//
// Accuracy bounds. Global errors are measured as in the result files (docs/result-files.md):
// ‖y(T) - y_ref(T)‖₂ in the ambient space. Each solver keeps every step's local error estimate
// below 1 in its own norm, so one step's error in the 2-norm is of the order of the tolerance
// scale
//   tau = ‖rtol |y(T)| + atol‖₂
// up to the norms' differences: CVODE and ARKODE bound a weighted RMS norm (weights
// rtol |y_i| + atol), which allows up to sqrt(12) = 3.5 tau in the 2-norm; odeint bounds the
// maximum of |err_i| / (atol + rtol (|x_i| + dt |x'_i|)) and ode45 that of
// |err_i| / max(|y_i|, |ynew_i|, atol / rtol) against rtol, both at most ~2 tau when a step
// changes y by less than y itself. The global error after T = 10 is a sum of some 10^2-10^4
// such local errors (fewer for the high-order methods, whose propagated solution is also one
// order better than their estimate), each amplified by the flow (perturbing one component of
// y0 by d moves this trajectory's y(10) by up to 40 d, measured with RK4 in test_cvode.cpp), so
// it is not bounded by tau itself; as in test_cvode.cpp we allow three decades, 1000 tau, for
// every solver. Between tolerances a factor 100 apart the error must fall by at least 10:
// controlling the error per step at order q makes the global error scale as tol^(q/(q+1)), an
// exponent of at least 1/2.
//
// The reprojection variants are held to the same bound (a projection moves the state by no
// more than its distance from the manifold, itself of the order of the local error), and must
// stay on the manifold to round-off at every output. cvode_adams_proj is the exception it
// declares: CVODE restarts after every projection, so every step is a first-order step and its
// error scales as tol^(1/2) (tested below at looser tolerances, where it stays affordable).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/families/reference.hpp"
#include "integrators/classical_methods.hpp"
#include "integrators/dormand_prince.hpp"
#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "reference/arkode.hpp"
#include "reference/cvode.hpp"
#include "reference/odeint.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using Dsp = DoubleSphericalPendulum;

constexpr double kT = 10.0;
constexpr double kDecades = 1000.0;  // global error / tolerance scale allowed (see top)
// Round-off on the manifold: |‖q_i‖ - 1| and |q_i . w_i| after a projection, with |w_i| of a
// few units, accumulated over nothing (every output is freshly projected).
constexpr double kOnManifold = 1e-14;

const testing::Setup<Dsp>& setup() {
  static const testing::Setup<Dsp> s = testing::make_setup<Dsp>("lee2009");
  return s;
}

IntegratorOptions adaptive(double rtol, double atol, double T) {
  IntegratorOptions opt;
  opt.tolerances.rtol = rtol;
  opt.tolerances.atol = atol;
  opt.T = T;
  return opt;
}

/// tau = ‖rtol |y| + atol‖₂, the size of one step's allowed error (see top).
double tolerance_scale(const Dsp::State& y, double rtol, double atol) {
  return (rtol * y.cwiseAbs().array() + atol).matrix().norm();
}

/// RK4 at h = 1e-4 to T, computed once.
const Dsp::State& reference_state() {
  static const Dsp::State ref = [] {
    const FixedStep step{1e-4};
    return testing::final_state<Rk4<Dsp>>(setup().model, setup().initial, step, kT);
  }();
  return ref;
}

struct Outcome {
  Dsp::State y;
  Work work;
  double manifold_defect = 0.0;  // max over outputs of the unit-length and tangency defects
};

template <class Integrator>
Outcome run(double rtol, double atol, double T) {
  Integrator integrator(setup().model, adaptive(rtol, atol, T));
  Outcome r{setup().initial, {}, 0.0};
  integrate(integrator, r.y, 0.0, T, [&](double, const Dsp::State& y) {
    r.manifold_defect = std::max(
        {r.manifold_defect, Dsp::unit_length_defect(y), Dsp::tangency_defect(y)});
  });
  r.work = integrator.work();
  return r;
}

TEST(ReferenceAgreement, Rk4ReferenceIsAccurateEnough) {
  const FixedStep step{2e-4};
  const Dsp::State coarse = testing::final_state<Rk4<Dsp>>(setup().model, setup().initial, step, kT);
  const double spread = (reference_state() - coarse).norm();
  const double tightest = kDecades * tolerance_scale(reference_state(), 1e-10, 1e-12);
  std::printf("  RK4 |y(h = 1e-4) - y(h = 2e-4)| = %.3e, tightest bound %.3e\n", spread,
              tightest);
  EXPECT_LE(spread, tightest / 100.0);
}

/// Each solver at rtol 1e-8 and 1e-10 (atol = rtol / 100) within 1000 tau of RK4, and 10 times
/// better at the tighter tolerance.
template <class Integrator>
void expect_within_tolerance(std::vector<Dsp::State>* finals = nullptr) {
  const std::string_view name = Integrator::declaration.name;
  std::vector<double> errs;
  for (const double rtol : {1e-8, 1e-10}) {
    const double atol = rtol / 100.0;
    const Outcome r = run<Integrator>(rtol, atol, kT);
    const double err = (r.y - reference_state()).norm();
    const double tau = tolerance_scale(reference_state(), rtol, atol);
    std::printf("  %-26s rtol %.0e: error %.3e = %6.1f tau (bound %.0f tau), %lld steps, "
                "%lld rejected, %lld f evals, manifold defect %.1e\n",
                std::string(name).c_str(), rtol, err, err / tau, kDecades,
                static_cast<long long>(r.work.steps), static_cast<long long>(r.work.rejected),
                static_cast<long long>(r.work.f_evals), r.manifold_defect);
    EXPECT_LE(err, kDecades * tau) << name << " at rtol " << rtol;
    if constexpr (Integrator::declaration.stays_on_manifold) {
      EXPECT_LE(r.manifold_defect, kOnManifold) << name << " at rtol " << rtol;
    }
    errs.push_back(err);
    if (finals != nullptr && rtol == 1e-10) finals->push_back(r.y);
  }
  EXPECT_GE(errs[0], 10.0 * errs[1]) << name << ": rtol 1e-8 -> 1e-10";
}

TEST(ReferenceAgreement, AllSolversAgreeWithinTheirTolerance) {
  std::vector<Dsp::State> finals;
  expect_within_tolerance<OdeintDopri5<Dsp>>(&finals);
  expect_within_tolerance<OdeintDopri5Dense<Dsp>>(&finals);
  expect_within_tolerance<OdeintRkf78<Dsp>>(&finals);
  expect_within_tolerance<OdeintBulirschStoer<Dsp>>(&finals);
  expect_within_tolerance<Cvode<Dsp>>(&finals);
  expect_within_tolerance<CvodeAdams<Dsp>>(&finals);
  expect_within_tolerance<ArkodeErk<Dsp>>(&finals);
  expect_within_tolerance<Dopri45<Dsp>>(&finals);
  // Pairwise, then, within twice the bound; the largest disagreement, for the record.
  double widest = 0.0;
  for (const auto& a : finals)
    for (const auto& b : finals) widest = std::max(widest, (a - b).norm());
  std::printf("  largest pairwise difference at rtol 1e-10: %.3e = %.1f tau\n", widest,
              widest / tolerance_scale(reference_state(), 1e-10, 1e-12));
}

TEST(ReferenceAgreement, ReprojectionVariantsStayOnTheManifoldAndAgree) {
  expect_within_tolerance<OdeintDopri5Projected<Dsp>>();
  expect_within_tolerance<OdeintDopri5DenseProjected<Dsp>>();
  expect_within_tolerance<OdeintRkf78Projected<Dsp>>();
  expect_within_tolerance<OdeintBulirschStoerProjected<Dsp>>();
  expect_within_tolerance<CvodeBdfProjected<Dsp>>();
  expect_within_tolerance<ArkodeErkProjected<Dsp>>();
}

TEST(ReferenceAgreement, RestartedAdamsIsFirstOrderAsDeclared) {
  // Every step of cvode_adams_proj follows a restart, so it is a first-order step whose size
  // the error test keeps near (tol / |y''|)^(1/2): N ~ tol^(-1/2) steps of local error ~ tol
  // give a global error ~ tol^(1/2). Tolerances a factor 100 apart must therefore change the
  // error by a factor near 10, far from the factor 100^(q/(q+1)) >= 50 of the unrestarted
  // Adams method at its usual orders q >= 4. Short horizon (T = 1), loose tolerances: the
  // first-order steps are many.
  static_assert(CvodeAdamsProjected<Dsp>::declaration.order == 1);
  constexpr double T = 1.0;
  const FixedStep tight_step{1e-4};
  const Dsp::State ref = testing::final_state<Rk4<Dsp>>(setup().model, setup().initial, tight_step, T);
  std::vector<double> errs;
  for (const double rtol : {1e-4, 1e-6}) {
    const Outcome r = run<CvodeAdamsProjected<Dsp>>(rtol, rtol / 100.0, T);
    errs.push_back((r.y - ref).norm());
    std::printf("  cvode_adams_proj rtol %.0e: error %.3e, %lld steps, manifold defect %.1e\n",
                rtol, errs.back(), static_cast<long long>(r.work.steps), r.manifold_defect);
    EXPECT_LE(r.manifold_defect, kOnManifold);
  }
  const double ratio = errs[0] / errs[1];
  std::printf("  error ratio for a factor 100 in tolerance: %.1f (first order: ~10)\n", ratio);
  EXPECT_GE(ratio, 3.0);
  EXPECT_LE(ratio, 30.0);
}

// ---- declarations ----------------------------------------------------------------------------

TEST(ReferenceDeclarations, CatalogueEntriesMatchTheirIntegrators) {
  std::vector<std::string_view> names;
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using Entry = std::tuple_element_t<I, ReferenceEntries>;
          using Integrator = typename Entry::template type<Dsp>;
          constexpr const Declaration& d = Entry::declaration;
          EXPECT_EQ(&d, &Integrator::declaration) << d.name;
          EXPECT_EQ(d.family, Family::Reference) << d.name;
          EXPECT_TRUE(d.adaptive) << d.name;
          EXPECT_FALSE(d.symplectic) << d.name;
          EXPECT_EQ(d.stays_on_manifold, d.name.ends_with("_proj")) << d.name;
          names.push_back(d.name);
        }(),
        ...);
  }(std::make_index_sequence<std::tuple_size_v<ReferenceEntries>>{});
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << "duplicate name";
  EXPECT_EQ(names.size(), 15U);
}

TEST(ReferenceDeclarations, ArkodeUsesTheDeclaredDefaultTable) {
  // ERKStep's default at its default order 4: ARKODE_ZONNEVELD_5_3_4.
  ArkodeErk<Dsp> arkode(setup().model, adaptive(1e-8, 1e-10, 1.0));
  double t = 0.0;
  Dsp::State y = setup().initial;
  arkode.advance(t, y, 1.0, [](double, const Dsp::State&) {});
  const ButcherTableShape table = arkode.table();
  EXPECT_EQ(table.stages, 5);
  EXPECT_EQ(table.order, ArkodeErk<Dsp>::declaration.order);
  EXPECT_EQ(table.embedded_order, 3);
}

// ---- the interface contract ------------------------------------------------------------------

/// Forwards to a model and counts the right-hand-side calls.
struct CountingDsp {
  using State = Dsp::State;
  const Dsp& base;
  mutable std::int64_t calls = 0;
  Eigen::Index dimension() const { return base.dimension(); }
  void rhs(double t, const State& y, State& dy) const {
    ++calls;
    base.rhs(t, y, dy);
  }
  void project(State& y) const { base.project(y); }
};

template <class Integrator>
void expect_contract() {
  const std::string_view name = Integrator::declaration.name;
  const CountingDsp counting{setup().model};
  Integrator integrator(counting, adaptive(1e-6, 1e-8, 1.0));
  std::vector<double> times;
  Dsp::State y = setup().initial;
  integrate(integrator, y, 0.0, 1.0, [&](double t, const Dsp::State&) { times.push_back(t); });
  ASSERT_GE(times.size(), 2U) << name;
  EXPECT_EQ(times.back(), 1.0) << name;  // exactly
  for (std::size_t i = 1; i < times.size(); ++i) ASSERT_LT(times[i - 1], times[i]) << name;
  const Work& w = integrator.work();
  EXPECT_EQ(w.steps + 1, static_cast<std::int64_t>(times.size())) << name;  // one output a step
  EXPECT_GE(w.rejected, 0) << name;
  EXPECT_EQ(w.f_evals, counting.calls) << name;
}

TEST(ReferenceContract, OneOutputPerStepEndingAtTAndEveryEvaluationCounted) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (expect_contract<typename std::tuple_element_t<I, ReferenceEntries>::template type<
         CountingDsp>>(),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<ReferenceEntries>>{});
}

/// y_i' = -i y_i (i = 1, 2, 3) on a dynamic-size state, as models with a runtime number of
/// bodies have (odeint then resizes its scratch vectors itself).
struct DynamicDecay {
  using State = Eigen::VectorXd;
  Eigen::Index dimension() const { return 3; }
  void rhs(double, const State& y, State& dy) const {
    dy = -Eigen::Vector3d(1.0, 2.0, 3.0).cwiseProduct(y);
  }
  void project(State&) const {}
};

template <class Integrator>
void expect_exact_decay() {
  // The flow contracts, so the global error is at most the sum of the local ones: at most
  // steps x sqrt(3) tau(y0) in the 2-norm (weighted RMS control; see top) and at most
  // steps x 2 tau(y0) with odeint's maximum norm, |y| never growing.
  constexpr double rtol = 1e-8, atol = 1e-10, T = 1.0;
  const DynamicDecay model;
  Integrator integrator(model, adaptive(rtol, atol, T));
  Eigen::VectorXd y = Eigen::VectorXd::Ones(3);
  const double tau0 = (rtol * y.cwiseAbs().array() + atol).matrix().norm();
  integrate(integrator, y, 0.0, T, [](double, const Eigen::VectorXd&) {});
  const Eigen::Vector3d exact(std::exp(-1.0), std::exp(-2.0), std::exp(-3.0));
  const double err = (y - exact).norm();
  const double bound = 2.0 * static_cast<double>(integrator.work().steps) * tau0;
  EXPECT_LE(err, bound) << Integrator::declaration.name << ": " << integrator.work().steps
                        << " steps";
}

TEST(ReferenceContract, DynamicSizeStateAgainstTheClosedForm) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (expect_exact_decay<typename std::tuple_element_t<I, ReferenceEntries>::template type<
         DynamicDecay>>(),
     ...);
  }(std::make_index_sequence<std::tuple_size_v<ReferenceEntries>>{});
}

TEST(ReferenceContract, ArkodeResumesFromAModifiedStateWithItsStepSize) {
  // ERKStepReset hands over a new state and keeps the step size and the counters: the first
  // step from a projected state is exactly as long as the step the unmodified solver takes.
  constexpr double T = 2.0;
  ArkodeErk<Dsp> modified(setup().model, adaptive(1e-10, 1e-12, T));
  ArkodeErk<Dsp> plain(setup().model, adaptive(1e-10, 1e-12, T));
  double t = 0.0, tp = 0.0;
  Dsp::State y = setup().initial, yp = setup().initial;
  const auto ignore = [](double, const Dsp::State&) {};
  while (t < 1.0) modified.advance(t, y, T, ignore);
  while (tp < 1.0) plain.advance(tp, yp, T, ignore);
  const std::int64_t before = modified.work().steps;
  ASSERT_EQ(t, tp);
  const Dsp::State unprojected = y;
  setup().model.project(y);
  ASSERT_NE(y, unprojected) << "projection left the state bit for bit unchanged";
  const double t_reset = t;
  modified.advance(t, y, T, ignore);
  plain.advance(tp, yp, T, ignore);
  std::printf("  first step after the reset %.17g, without %.17g\n", t - t_reset, tp - t_reset);
  EXPECT_EQ(t - t_reset, tp - t_reset);
  EXPECT_EQ(modified.work().steps, before + 1);
}

}  // namespace
}  // namespace geomint
