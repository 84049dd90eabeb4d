// Label `longtime`: what each fixed-step integrator declares, kept over 10^5 steps on the cheap
// models of the three classes (the spherical pendulum on TS^2, the free rigid body on so(3)*,
// the heavy top on SO(3) x so(3)*), judged on the streamed long-time statistics
// (studies/long_time_statistics.hpp) with the bounds of the long-time verdicts (studies/verdicts.hpp):
//   symplectic, energy conserved  the energy error bounded: alpha <= kLongAlphaBound or within
//                                 round-off's kRoundOffUlps eps max(1, |E0|) sqrt(N); no
//                                 significant drift (beyond 4 standard errors and half the band)
//   symplectic, a symmetry        every conserved momentum map <= kRoundOffUlps eps max(1, |J0|) sqrt(N)
//   stays on the manifold         every manifold defect <= kRoundOffUlps eps sqrt(N)
//   symmetric                     forward over the model's Exercise horizon and back: the model's
//                                 distance from y(0) <= kReversibilityUlps eps max(1, |y0|) sqrt(N)
// Each check is shown to fail on methods that do not make the promise (the negative controls
// below), so that it cannot pass by being unable to fail. Deviations the bench has measured and
// understood are listed with the reason (kKnown); a known momentum drift still fails if it passes
// kBiasUlps eps a nonlinear solve.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "catalogue/integrator_declarations.hpp"
#include "studies/long_time_statistics.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/long_time_bounds.hpp"

namespace geomint {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

struct LongRun {
  CaseResult result;
  std::vector<LongTimeSummary> summaries;
  double steps = 0.0;
};

LongRun long_run(const std::string& model, const std::string& integrator, double h, double T,
                 bool compensated = false) {
  CaseSpec spec;
  spec.compensated = compensated;
  spec.study = spec.experiment = "longtime";
  spec.model = model;
  spec.preset = std::string(find_model(model).exercise().preset);
  spec.integrator = integrator;
  spec.h = h;
  spec.T = T;
  spec.timed_seconds = -1.0;  // no timing repetitions
  spec.reversibility_T = find_model(model).exercise().T;
  LongTimeStatistics stats;
  CaseHooks hooks;
  hooks.long_time = &stats;
  LongRun run{run_case(spec, hooks), {}, T / h};
  run.summaries = stats.summaries();
  return run;
}

/// Why each promise failed on this run (empty: kept), the way verdicts.cpp judges it.
struct Failures {
  std::string energy, momentum, manifold, reversibility;
};

Failures judge(const LongRun& run, double T) {
  Failures f;
  for (const LongTimeSummary& s : run.summaries) {
    char what[160];
    std::snprintf(what, sizeof what, "%s: max |err| %.3g, alpha %.3g; ", s.quantity.name.c_str(), s.abs_max, s.alpha);
    if (s.quantity.kind == InvariantKind::Energy) {
      const bool kept = energy_bounded(s.alpha, s.abs_max, s.initial, run.steps) &&
                        !drifts(s.drift, s.drift_se, T, s.abs_max) && std::isfinite(s.abs_max);
      if (!kept) f.energy += what;
    }
    if (s.quantity.kind == InvariantKind::Momentum && !(s.abs_max <= round_off_bound(s.initial, run.steps)))
      f.momentum += what;
    if (s.quantity.kind == InvariantKind::ManifoldDefect && !(s.abs_max <= round_off_bound(1.0, run.steps)))
      f.manifold += what;
  }
  const double rev = ulps_per_root_step(run.result.reversibility_miss, run.result.reversibility_scale,
                                        static_cast<double>(run.result.reversibility_steps));
  if (!(rev <= kReversibilityUlps)) f.reversibility = "missed y(0) by " + std::to_string(rev) + " ULPs per sqrt(N)";
  return f;
}

/// A measured, understood deviation: the method, the promise, the nonlinear solves a step (its
/// Yoshida composition's stages), and why. A momentum map's must stay within kBiasUlps eps per
/// solve (a bias of round-off grows like N, not sqrt(N)).
struct Known {
  const char* model;
  const char* integrator;
  const char* promise;
  int solves;
  const char* reason;
};
// Measured 2026-11-28 (2-core VM).
constexpr double kBiasUlps = 4.0;
const Known kKnown[] = {
    {"spherical_pendulum", "vi_implicit", "momentum", 1,
     "Lz drifts by ~0.9 ulp a step (alpha 1.0): the fixed-point/Newton solve of (3.16) stops at round-off, "
     "with a bias that does not cancel (1.9e-11 after 10^5 steps)"},
    {"spherical_pendulum", "vi_implicit_y4", "momentum", 3, "the same bias, three solves a step (9e-11 after 10^5 steps)"},
    {"spherical_pendulum", "vi_implicit_y6", "momentum", 7, "the same bias, seven solves a step (5e-11 after 2.5 10^4 steps)"},
    {"spherical_pendulum", "vi_implicit_y4", "reversibility", 3, "each solve stops within a few ulps of d, not at Phi_h^-1"},
    {"spherical_pendulum", "vi_implicit_y6", "reversibility", 7, "each solve stops within a few ulps of d, not at Phi_h^-1"},
    {"heavy_top", "slgi_theta_half_y4", "momentum", 3,
     "Pi.X drifts (alpha 0.93): Newton with a finite-difference Jacobian stops at round-off with a bias, 3 solves a step"},
};

const Known* known(const std::string& model, const std::string& integrator, const std::string& promise) {
  for (const Known& k : kKnown)
    if (model == k.model && integrator == k.integrator && promise == k.promise) return &k;
  return nullptr;
}

/// Every fixed-step integrator on `model` at h over T: each declared promise kept (or a known
/// deviation within its bias bound); and the names of the undeclaring methods each check
/// caught, for the negative controls.
std::map<std::string, std::vector<std::string>> check_model(const std::string& model, double h, double T) {
  std::map<std::string, std::vector<std::string>> caught;
  for (std::string_view name : find_model(model).integrators()) {
    const Declaration* d = find_integrator_declaration(name);
    if (!d || d->adaptive || d->family == Family::Reference) continue;
    const double step = d->order >= 5 ? 4.0 * h : h;
    const LongRun run = long_run(model, std::string(name), step, T);
    if (run.result.status != "ok") {
      caught["finished"].push_back(std::string(name));
      EXPECT_FALSE(run.result.symplectic || run.result.stays_on_manifold)
          << name << " on " << model << " did not finish: " << run.result.detail;
      continue;
    }
    const Failures f = judge(run, T);
    const auto expect = [&](bool promised, const std::string& promise, const std::string& failure) {
      if (!promised) {
        if (!failure.empty()) caught[promise].push_back(std::string(name));
        return;
      }
      if (const Known* k = known(model, std::string(name), promise)) {
        SCOPED_TRACE(k->reason);
        for (const LongTimeSummary& s : run.summaries) {
          if (promise != "momentum" || s.quantity.kind != InvariantKind::Momentum) continue;
          EXPECT_LE(s.abs_max, kBiasUlps * kEps * std::max(1.0, std::abs(s.initial)) * run.steps * k->solves)
              << name << " " << s.quantity.name;
        }
        return;
      }
      EXPECT_EQ(failure, "") << name << " on " << model << " breaks its " << promise << " promise over " << run.steps << " steps";
    };
    expect(run.result.symplectic && run.result.energy_conserved, "energy", f.energy);
    expect(run.result.symplectic, "momentum", f.momentum);
    expect(run.result.stays_on_manifold, "manifold", f.manifold);
    expect(run.result.symmetric, "reversibility", f.reversibility);
  }
  return caught;
}

bool contains(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

TEST(LongTimePromises, OnTheSphericalPendulum) {
  const auto caught = check_model("spherical_pendulum", 0.01, 1000.0);
  // Negative controls: each check fails on methods that do not promise it.
  ASSERT_TRUE(caught.contains("energy"));
  EXPECT_TRUE(contains(caught.at("energy"), "rk2")) << "the energy check cannot catch RK2's drift";
  ASSERT_TRUE(caught.contains("manifold"));
  EXPECT_TRUE(contains(caught.at("manifold"), "rk4")) << "the manifold check cannot catch RK4 leaving TS^2";
  ASSERT_TRUE(caught.contains("reversibility"));
  EXPECT_TRUE(contains(caught.at("reversibility"), "rk4")) << "the reversibility check cannot catch RK4";
  ASSERT_TRUE(caught.contains("momentum"));
  EXPECT_TRUE(contains(caught.at("momentum"), "rk2")) << "the momentum check cannot catch RK2";
}

TEST(LongTimePromises, OnTheFreeRigidBody) {
  const auto caught = check_model("free_rigid_body", 0.01, 1000.0);
  ASSERT_TRUE(caught.contains("energy"));
  EXPECT_TRUE(contains(caught.at("energy"), "rk2"));
  ASSERT_TRUE(caught.contains("manifold"));
  EXPECT_TRUE(contains(caught.at("manifold"), "rk4"));
}

TEST(LongTimePromises, OnTheHeavyTop) {
  const auto caught = check_model("heavy_top", 0.001, 100.0);
  ASSERT_TRUE(caught.contains("manifold"));
  EXPECT_TRUE(contains(caught.at("manifold"), "rk4"));
}

/// The max |err| of the quantity of this name over the run.
double largest(const LongRun& run, const std::string& name) {
  for (const LongTimeSummary& s : run.summaries)
    if (s.quantity.name == name) return s.abs_max;
  return std::nan("");
}

/// The energy at t = 0 of the run.
double initial_energy(const LongRun& run) {
  for (const LongTimeSummary& s : run.summaries)
    if (s.quantity.kind == InvariantKind::Energy) return s.initial;
  return std::nan("");
}

/// The same run plain and with compensated summation; both must finish.
std::pair<LongRun, LongRun> plain_and_compensated(const char* model, const char* integrator, double h, double T) {
  std::pair<LongRun, LongRun> runs{long_run(model, integrator, h, T), long_run(model, integrator, h, T, true)};
  EXPECT_EQ(runs.first.result.status, "ok") << integrator << " on " << model;
  EXPECT_EQ(runs.second.result.status, "ok") << integrator << " on " << model << ": " << runs.second.result.detail;
  return runs;
}

TEST(LongTimePromises, CompensatedSummationRemovesTheUpdatesRoundOff) {
  // 10^5 steps of the spherical pendulum (h = 0.01), plain and with compensated summation
  // (integrators/compensated_sum.hpp). Measured 2026-11-28: the Yoshida-4 explicit VI's L_z
  // 7.2e-14 -> 4.7e-15 and |q| - 1 2.0e-14 -> 1.1e-15; the implicit VI's |q| - 1 1.1e-14 ->
  // 6.7e-16 (its q update is the sum), while its L_z, whose error is the bias of the solve of
  // (3.16) (kKnown above), not of a sum, stays 1.9e-11. The plain runs are the negative
  // control: with the option ignored the ratios are 1.
  const auto both = [](const char* integrator) {
    auto runs = plain_and_compensated("spherical_pendulum", integrator, 0.01, 1000.0);
    // The option changes no step by more than rounding: the O(h^2) energy error is the same.
    EXPECT_NEAR(largest(runs.second, "energy"), largest(runs.first, "energy"), 1e-6 * largest(runs.first, "energy"));
    return runs;
  };
  const auto [y4, y4_compensated] = both("vi_explicit_y4");
  for (const char* q : {"Lz", "unit_1"})
    EXPECT_LT(largest(y4_compensated, q), largest(y4, q) / 4.0) << "vi_explicit_y4 " << q;
  const auto [implicit, implicit_compensated] = both("vi_implicit");
  EXPECT_LT(largest(implicit_compensated, "unit_1"), largest(implicit, "unit_1") / 4.0);
  EXPECT_NEAR(largest(implicit_compensated, "Lz"), largest(implicit, "Lz"), 0.2 * largest(implicit, "Lz"));
}

TEST(LongTimePromises, CompensatedSummationOfAGroupAction) {
  // 10^5 steps, plain and with the update exp(sigma) . y summed as y + (exp(sigma) . y - y)
  // (integrators/rkmk.hpp, integrators/symplectic_lie_group.hpp). Measured 2026-11-28, the
  // largest error plain -> compensated: RKMK4 on the free rigid body, |Pi|^2 3.96e-13 -> 3.55e-15
  // and the orbit 6.3e-14 -> 8.9e-16; on the heavy top, Q's orthogonality 1.26e-13 -> 1.66e-15;
  // on the spherical pendulum, |q| - 1 4.4e-14 -> 8.9e-16; SLGI theta = 1/2 on the heavy top,
  // Pi . X 3.5e-12 -> 6.5e-14 and Q's orthogonality 8.5e-14 -> 1.6e-15. Not asserted: SLGI's
  // Casimirs (the free body's |Pi|^2 6.6e-13 -> 2.8e-13, the top's pi . e3 1.8e-13 -> 1.7e-13),
  // whose error is the bias of Newton's solve of (16), which no summation touches (alpha 0.9 with
  // the option). The plain runs are the negative control.
  const auto gains = [](const char* model, const char* integrator, double h, double T,
                        std::initializer_list<const char*> quantities) {
    const auto [plain, compensated] = plain_and_compensated(model, integrator, h, T);
    // The option changes no step by more than rounding; on the heavy top, where RKMK4's energy
    // error drifts, the two runs' errors then part by a few ulps of E a step (3.5e-5 of the
    // error, 2.6e-12, after 10^5 steps), not by a fixed fraction: bounded by 4 eps |E0| N.
    EXPECT_NEAR(largest(compensated, "energy"), largest(plain, "energy"),
                4.0 * kEps * std::max(1.0, std::abs(initial_energy(plain))) * plain.steps)
        << integrator << " on " << model;
    for (const char* q : quantities)
      EXPECT_LT(largest(compensated, q), largest(plain, q) / 10.0) << integrator << " on " << model << ": " << q;
  };
  gains("free_rigid_body", "rkmk4", 0.01, 1000.0, {"casimir", "orbit"});
  gains("heavy_top", "rkmk4", 0.001, 100.0, {"orthogonality_Q"});
  gains("spherical_pendulum", "rkmk4", 0.01, 1000.0, {"unit_1"});
  gains("heavy_top", "slgi_theta_half", 0.001, 100.0, {"Pi_dot_X", "orthogonality_Q"});
}

TEST(LongTimePromises, CompensatedSummationIsNotApplicableToAProductOfExponentials) {
  const LongRun run = long_run("spherical_pendulum", "cf4", 0.01, 1.0, true);
  EXPECT_EQ(run.result.status, "n/a");
  EXPECT_NE(run.result.detail.find("compensated"), std::string::npos) << run.result.detail;
}

}  // namespace
}  // namespace geomint
