#include "studies/output_estimate.hpp"

#include <cmath>
#include <cstdio>

#include "errors/exit_status_errors.hpp"
#include "studies/binned_csv.hpp"
#include "studies/evocation_positions.hpp"
#include "studies/model_catalogue.hpp"

namespace geomint {

namespace {

/// The bytes a case's files can take at most: its record, its series (SeriesDecimator's
/// 2000 bins and the header, nine numbers a row), its curves (2000 bins, the
/// time and three numbers per curve), its outputs (OutputRecorder's 2000 bins, the time and
/// one number per output), its components (twice 2000 bins with a zoom window), its paths (at
/// most kMaxPathNumbers numbers, studies/case_runner.hpp) and its evocation (below); snapshots
/// are left out of the estimate.
constexpr double kRecordBytes = 4096.0, kSeriesBytes = 2001.0 * 9.0 * 25.0, kBinnedColumnBytes = 2001.0 * 25.0;

/// An evoked case's files: scores.csv (three numbers a frame), evocation.json, and a frame
/// file per best frame holding every sample kept (the time and three numbers per body).
double evocation_bytes(const CaseSpec& c, const EvokeSpec& evoke) {
  const auto bodies = static_cast<double>(evoke.bodies);
  // A same_steps_as case's steps are known only once its source has run: the most it keeps.
  const double samples =
      std::isnan(c.h) ? static_cast<double>(kMaxEvocationPositions) / bodies
                      : static_cast<double>(evocation_samples(fixed_step_count(c.T, c.h), evoke.bodies));
  const double scan = (evoke.scan.count + 1.0) * 3.0 * 25.0, json = 4096.0 + 64.0 * bodies + 256.0 * evoke.scan.best;
  return scan + json + evoke.scan.best * (samples + 1.0) * (1.0 + 3.0 * bodies) * 25.0;
}

}  // namespace

void check_output_estimate(const StudySpec& spec) {
  double bytes = 0.0;
  std::size_t cases = 0;
  for (const auto& ex : spec.experiments) {
    cases += ex.cases.size();
    const ModelFace& model = find_model(ex.model);
    const double curves =
        ex.draws_curves() ? (1.0 + 3.0 * static_cast<double>(model.curve_names().size())) * kBinnedColumnBytes : 0.0;
    const double outputs =
        ex.draws_outputs() ? (1.0 + static_cast<double>(model.output_names().size())) * kBinnedColumnBytes : 0.0;
    const double components = ex.components.empty() ? 0.0
        : (ex.zoom ? 2.0 : 1.0) * (1.0 + static_cast<double>(ex.components.size())) * kBinnedColumnBytes;
    const double paths = ex.has_plot("paths") ? kMaxPathNumbers * 25.0 + kBinnedColumnBytes : 0.0;
    bytes += static_cast<double>(ex.cases.size()) *
             (kRecordBytes + (ex.series ? kSeriesBytes : 0.0) + curves + outputs + components + paths);
    for (const auto& c : ex.cases)
      if (ex.evokes(c)) bytes += evocation_bytes(c, *ex.evoke);
  }
  if (bytes <= spec.limits.max_output_bytes) return;
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s: %zu cases write up to %.3g bytes of records, series and evocations, more than max_output = %.0f",
                spec.file.c_str(), cases, bytes, spec.limits.max_output_bytes);
  throw InputError(buf);
}

}  // namespace geomint
