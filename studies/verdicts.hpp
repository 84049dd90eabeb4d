#pragma once
// What each integrator promised in each experiment, and whether it was measured and held:
// verdicts.csv (docs/result-files.md), which the report's pages and the `study` and `matrix`
// summaries read. A promise is one of
//   order     the nominal order of a fixed-step method, in its asymptotic window
//             (studies/order_window.hpp): lost when the fit is more than kOrderTolerance below
//   manifold  every manifold defect the model declares <= kManifoldBound, when the integrator
//             declares that it stays on the manifold
//   momentum  the conserved momentum maps kept to kMomentumBound relative (absolute where
//             they start at 0), at every step size, when it declares itself symplectic (or, an
//             external command, that it conserves them) and the model has a symmetry
//   energy    max |E - E(0)| / |E(0)| <= kEnergyBound over the run at the finest setting, when
//             it declares itself symplectic and the exact flow conserves the energy (a bound on
//             this run's error, not a test for drift over long times)
// and in a `long_time` experiment (studies/long_time_statistics.hpp), judged at the finest setting:
//   long_energy    symplectic, on a model whose exact flow conserves the energy: the energy
//                  error's envelope bounded, alpha <= kLongAlphaBound (~0 bounded; 1/2 a random
//                  walk; 1 a drift), or within round-off's random walk (Brouwer's law),
//                  <= kRoundOffUlps eps max(1, |E(0)|) sqrt(N) over N steps; and no drift:
//                  broken when the batch-means drift is beyond 4 standard errors and carries the
//                  error by more than half its largest value over the run
//   long_momentum  declared as momentum is, on a model with conserved momentum maps: every one's largest
//                  change at round-off, <= kRoundOffUlps eps max(1, |J(0)|) sqrt(N): a bound
//                  that grows like sqrt(t), which a drift of eps per step passes after
//                  kRoundOffUlps^2 steps (its alpha is shown, not judged: one random walk's
//                  fitted alpha scatters by ~0.1 about 1/2)
//   long_manifold  stays on the manifold: every defect <= kRoundOffUlps eps sqrt(N), the same way
//   reversibility  symmetric, fixed-step: N steps of h and N of -h come back to y(0) within
//                  kReversibilityUlps eps max(1, |y(0)|_inf) sqrt(N) in the model's distance
// and each gets one state:
//   kept         measured, within its bound (an order: why nominal, or from_above)
//   broken       measured, outside it (why: below_nominal for lost order, non_finite for a NaN)
//   not_checked  could not be measured (why names it: n/a, adaptive, no_reference, too_few_steps,
//                failed, no_window, no_scale)
//   explained    not kept, and the spec marks it as a known deviation with its reason
// A NaN measured value is never within a bound.

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/convergence.hpp"
#include "studies/long_time_bounds.hpp"
#include "studies/spec.hpp"

namespace geomint {

inline constexpr double kManifoldBound = 1e-12;
inline constexpr double kMomentumBound = 1e-10;
inline constexpr double kEnergyBound = 1e-2;

enum class VerdictState { Kept, Broken, NotChecked, Explained };
std::string_view to_string(VerdictState s);

struct Verdict {
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  std::string experiment, model, integrator, family, promise;
  VerdictState state = VerdictState::NotChecked;
  std::string why;  // a word for the kind of state (e.g. from_above, no_window), or empty
  double value = kNaN, bound = kNaN;
  std::string relation;  // how value must stand to bound to keep it: ">=" or "<="
  std::string reason;    // one line: what was measured, or why it could not be
};

/// Every promise of every integrator in every experiment of the records, in spec order.
std::vector<Verdict> judge_study(const StudySpec& spec, const std::vector<nlohmann::json>& records,
                                 const std::vector<PairConvergence>& convergence);

std::string verdicts_csv(const std::string& study, const std::vector<Verdict>& verdicts);

/// The number of verdicts in each state, as a result folder's verdicts.csv holds them.
struct VerdictCounts {
  int kept = 0, broken = 0, not_checked = 0, explained = 0;
};
/// Reads DIR/verdicts.csv back (what the CLI's summaries print, so that they say what the file
/// says); an IoError when it cannot be read.
std::vector<Verdict> read_verdicts(const std::filesystem::path& dir);
VerdictCounts read_verdict_counts(const std::filesystem::path& dir);
/// E.g. "verdicts: 40 kept, 1 broken, 12 not checked, 2 explained (DIR/verdicts.csv)".
std::string verdict_summary(const VerdictCounts& counts, const std::filesystem::path& dir);

}  // namespace geomint
