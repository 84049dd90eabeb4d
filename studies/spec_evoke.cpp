// An experiment's `evoke:`: the frames a pattern evocation scans (studies/pattern_evocation.hpp),
// checked against the model and the experiment's cases.

#include <algorithm>
#include <cmath>

#include "studies/evocation_positions.hpp"
#include "studies/spec_reader.hpp"

namespace geomint::spec_reading {

/// `evoke: {xi: [min, max], count, best, lag: [min, max]}` of an experiment whose model
/// (checked in `model`) has bodies and an S^1 symmetry about e3.
EvokeSpec SpecReader::read_evoke(const YAML::Node& v, const Context& ctx, const ExperimentSpec& ex,
                                 const ModelCheck& model) {
  require_map(v, ctx, "'evoke' must be a map {xi: [min, max], count, best, lag: [min, max]}");
  reject_unknown_keys(v, ctx, {"xi", "count", "best", "lag"});
  EvokeSpec e;
  for (const char* key : {"xi", "count"})
    if (!has(v, key)) ctx.fail(v, "missing " + key_text(key));
  const auto [xi_min, xi_max] = rate_range(get(v, "xi"), ctx, "xi", "frame rates [rad/s]");
  e.scan.xi_min = xi_min;
  e.scan.xi_max = xi_max;
  e.scan.count = whole_number(get(v, "count"), ctx, "'count'", 2, 100000);
  if (has(v, "best")) e.scan.best = whole_number(get(v, "best"), ctx, "'best'", 1, 100);
  if (const YAML::Node lag = get(v, "lag"); lag.IsDefined()) {
    const auto [lo, hi] = rate_range(lag, ctx, "lag", "lags [s]");
    if (!(lo > 0.0)) ctx.fail(lag[0], "'lag' = " + number_text(lo) + ": must be a positive number");
    if (!(hi < ex.T))
      ctx.fail(lag[1], "'lag' = " + number_text(hi) + ": the longest lag must be shorter than T = " +
                           number_text(ex.T));
    e.scan.lag_min = lo;
    e.scan.lag_max = hi;
  }
  e.bodies = position_blocks(model.layout).size();
  if (e.bodies == 0)
    ctx.fail(v, "model " + ex.model + " has no position blocks q1, q2, ... (bodies on S^2 or in R^3)");
  if (!turns_about_e3(model.invariants))
    ctx.fail(v, "model " + ex.model + " with these parameters has no S^1 symmetry about e3 (no conserved "
                "Lz or Jz): pattern evocation needs one");
  return e;
}

/// A list [low, high] of two finite numbers, low below high.
std::pair<double, double> SpecReader::rate_range(const YAML::Node& v, const Context& ctx, const std::string& key,
                                                 const std::string& what) {
  if (!v.IsSequence() || v.size() != 2)
    ctx.fail(v, key_text(key) + " must be a list [min, max] of " + what + ", got " + describe(v));
  const double lo = number(v[0], ctx, key_text(key) + " entry 1"), hi = number(v[1], ctx, key_text(key) + " entry 2");
  if (!(lo < hi))
    ctx.fail(v, key_text(key) + " = [" + number_text(lo) + ", " + number_text(hi) + "]: the first must be below the second");
  return {lo, hi};
}

/// An evoked experiment needs a fixed-step case, and its lag range a whole sample spacing of
/// each case whose step is known (the spacing is h, or a multiple when the positions are
/// thinned, studies/evocation_positions.hpp).
void SpecReader::check_evoked_cases(const ExperimentSpec& ex, const YAML::Node& experiment, const Context& ctx) {
  if (std::none_of(ex.cases.begin(), ex.cases.end(), [&](const CaseSpec& c) { return ex.evokes(c); }))
    ctx.fail(key_node(experiment, "evoke"), "no fixed-step case to evoke patterns in (an adaptive run's output points are not evenly spaced)");
  const EvocationScan& scan = ex.evoke->scan;
  if (std::isnan(scan.lag_min)) return;
  for (const CaseSpec& c : ex.cases) {
    if (std::isnan(c.h)) continue;
    const double spacing = c.h * static_cast<double>(evocation_stride(fixed_step_count(c.T, c.h), ex.evoke->bodies));
    if (std::max(1.0, std::ceil(scan.lag_min / spacing - 1e-9)) > std::floor(scan.lag_max / spacing + 1e-9))
      ctx.fail(get(get(experiment, "evoke"), "lag"), "'lag' = [" + number_text(scan.lag_min) + ", " + number_text(scan.lag_max) +
                       "] holds no whole sample spacing of " + c.integrator + " at " + setting_text(c) +
                       " (the positions are kept every " + number_text(spacing) + ")");
  }
}

}  // namespace geomint::spec_reading
