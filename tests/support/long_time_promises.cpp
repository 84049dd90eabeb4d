#include "support/long_time_promises.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "catalogue/integrator_declarations.hpp"
#include "studies/long_time_bounds.hpp"
#include "studies/model_catalogue.hpp"

namespace geomint::testing {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

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
    {"spherical_pendulum", "rattle", "momentum", 1,
     "Lz drifts by ~0.09 ulp a step (alpha 0.98 over 10^5 steps, 1.00 over 4 10^5; 3.4e-15 per unit time, "
     "measured 2026-11-29): a rounding bias of the solve for the increment x_1 - x_0 along the periodic swing "
     "(the rounding of x_1 = x_0 + Delta is the candidate, not pinned down). The increment form keeps each "
     "step's momentum error at eps |p| where solving for x_1 left eps M |x| / h (42 molecules, 10^4 steps of "
     "1e-3: 1e-10 before, 3e-15 now)"},
    {"heavy_top", "slgi_theta_half_y4", "momentum", 3,
     "Pi.X drifts (alpha 0.93): Newton with a finite-difference Jacobian stops at round-off with a bias, 3 solves a step"},
};

const Known* known(const std::string& model, const std::string& integrator, const std::string& promise) {
  for (const Known& k : kKnown)
    if (model == k.model && integrator == k.integrator && promise == k.promise) return &k;
  return nullptr;
}

}  // namespace

LongRun long_run(const std::string& model, const std::string& integrator, double h, double T,
                 bool compensated) {
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

std::vector<std::string> expect_long_time_promises(const std::string& model,
                                                   std::string_view integrator, double h, double T) {
  const std::string name(integrator);
  const Declaration* d = find_integrator_declaration(integrator);
  if (!d) throw std::logic_error("no integrator '" + name + "' in the catalogue");
  const double step = d->order >= 5 ? 4.0 * h : h;
  const LongRun run = long_run(model, name, step, T);
  std::vector<std::string> caught;
  if (run.result.status != "ok") {
    caught.push_back("finished");
    EXPECT_FALSE(run.result.symplectic || run.result.stays_on_manifold)
        << name << " on " << model << " did not finish: " << run.result.detail;
    return caught;
  }
  const Failures f = judge(run, T);
  const auto expect = [&](bool promised, const std::string& promise, const std::string& failure) {
    if (!promised) {
      if (!failure.empty()) caught.push_back(promise);
      return;
    }
    if (const Known* k = known(model, name, promise)) {
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
  return caught;
}

}  // namespace geomint::testing
