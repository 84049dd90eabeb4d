#pragma once
// What a fixed-step integrator declares, kept over 10^5 steps, judged on the streamed long-time
// statistics (studies/long_time_statistics.hpp) with the bounds of the long-time verdicts
// (studies/verdicts.hpp, studies/long_time_bounds.hpp):
//   symplectic, energy conserved  the energy error bounded: alpha <= kLongAlphaBound or within
//                                 round-off's kRoundOffUlps eps max(1, |E0|) sqrt(N); no
//                                 significant drift (beyond 4 standard errors and half the band)
//   symplectic, a symmetry        every conserved momentum map <= kRoundOffUlps eps max(1, |J0|) sqrt(N)
//   stays on the manifold         every manifold defect <= kRoundOffUlps eps sqrt(N)
//   symmetric                     forward over the model's Exercise horizon and back: the model's
//                                 distance from y(0) <= kReversibilityUlps eps max(1, |y0|) sqrt(N)
// The run goes through the case runner (studies/model_catalogue.hpp), as a study's long-time
// experiment does. Deviations the bench has measured and understood are listed with the reason
// (long_time_promises.cpp: kKnown); a known momentum drift still fails if it passes kBiasUlps eps
// a nonlinear solve. The suite (tests/conservation/test_long_time_promises.cpp) holds every
// fixed-step integrator to them; the controls (tests/conservation/test_long_time_runs.cpp) show
// each check failing on methods that do not make its promise.

#include <string>
#include <string_view>
#include <vector>

#include "studies/case.hpp"
#include "studies/long_time_statistics.hpp"

namespace geomint::testing {

/// The models the long-time promises are held on, the cheap ones of the three classes (TS^2,
/// so(3)*, SO(3) x so(3)*), with the step and horizon of their 10^5 steps.
struct LongTimeModel {
  const char* model;
  double h;
  double T;
};
inline constexpr LongTimeModel kLongTimeModels[] = {
    {"spherical_pendulum", 0.01, 1000.0}, {"free_rigid_body", 0.01, 1000.0}, {"heavy_top", 0.001, 100.0}};

struct LongRun {
  CaseResult result;
  std::vector<LongTimeSummary> summaries;
  double steps = 0.0;
};

/// `integrator` on `model` from its exercise preset at step h to T, with the long-time statistics
/// and, for a symmetric method, the reversibility run over the model's Exercise horizon.
LongRun long_run(const std::string& model, const std::string& integrator, double h, double T,
                 bool compensated = false);

/// Holds `integrator` (fixed-step) on `model` to the promises it declares over a long run of step
/// h (4 h for order 5 and up) to T: each kept, or a known deviation within its bias bound. Returns
/// the promises the run broke that the integrator does not make ("energy", "momentum",
/// "manifold", "reversibility", or "finished" for a run that failed), for the controls.
std::vector<std::string> expect_long_time_promises(const std::string& model,
                                                   std::string_view integrator, double h, double T);

}  // namespace geomint::testing
