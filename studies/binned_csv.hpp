#pragma once
// A plot's CSV of values against t, one row per time bin (studies/time_bins.hpp): the `curves`,
// `components` and `paths` files of series/. Numbers are written to round-trip (%.17g).

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "studies/component_plan.hpp"
#include "studies/time_bins.hpp"

namespace geomint {

class BinnedCsv {
 public:
  explicit BinnedCsv(double T, double zoom_start = std::numeric_limits<double>::quiet_NaN(),
                     double zoom_end = std::numeric_limits<double>::quiet_NaN())
      : T_(T), zoom_start_(zoom_start), zoom_end_(zoom_end) {}

  bool started() const { return bins_.has_value(); }
  /// The header: t, then the columns; `bins` per TimeBins.
  void start(const std::vector<std::string>& columns, int bins = TimeBins::kBins) {
    bins_.emplace(T_, bins, zoom_start_, zoom_end_);
    text_ = "t";
    for (const auto& c : columns) text_ += "," + c;  // names without commas
    text_ += "\n";
  }
  /// Whether a row at t is kept (after start).
  bool take(double t) { return bins_->take(t); }
  void row(double t, const double* values, std::size_t count) {
    number(t, "");
    for (std::size_t i = 0; i < count; ++i) number(values[i], ",");
    text_ += "\n";
  }
  const std::string& text() const { return text_; }

 private:
  void number(double v, const char* before) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%.17g", before, v);
    text_ += buf;
  }

  double T_, zoom_start_, zoom_end_;
  std::optional<TimeBins> bins_;
  std::string text_;
};

/// A `paths` file holds at most kMaxPathNumbers numbers: fewer bins for many points (642
/// molecules get 129), never fewer than kMinPathBins.
constexpr double kMaxPathNumbers = 250000.0;
constexpr int kMinPathBins = 16;
inline int path_bins(long points) {
  const double fit = kMaxPathNumbers / (3.0 * static_cast<double>(std::max(points, 1L)));
  return static_cast<int>(std::clamp(fit, double{kMinPathBins}, double{TimeBins::kBins}));
}

/// The `components` plot's recorder: where each column's value comes from
/// (studies/component_plan.hpp) and the file.
struct ComponentRecorder {
  std::vector<ComponentSource> sources;
  BinnedCsv csv;
};

}  // namespace geomint
