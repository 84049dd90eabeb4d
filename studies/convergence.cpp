#include "studies/convergence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "studies/result_files.hpp"

namespace geomint {

namespace {

void add_unique(std::vector<double>& list, double v) {
  if (std::find(list.begin(), list.end(), v) == list.end()) list.push_back(v);
}

/// The slope of log error against log mean step over the points in range, for an adaptive
/// method; NaN with fewer than three.
void fit_mean_step_slope(PairConvergence& pair, const std::vector<std::pair<double, double>>& points,
                         const ErrorScale& scale) {
  std::vector<std::pair<double, double>> kept;
  for (const auto& [x, e] : points)
    if (x > 0.0 && std::isfinite(x) && e > scale.floor && e < scale.ceiling && std::isfinite(e)) kept.emplace_back(x, e);
  pair.mean_step_points = static_cast<int>(kept.size());
  if (kept.size() >= 3) pair.mean_step_slope = log_log_fit(kept, 0, kept.size() - 1).slope;
}

std::string slopes_text(const std::vector<double>& slopes) {
  std::string s;
  char buf[32];
  for (const double v : slopes) {
    std::snprintf(buf, sizeof buf, "%s%.4g", s.empty() ? "" : ";", v);
    s += buf;
  }
  return s;
}

/// What the row's numbers mean, in words.
std::string order_note(const PairConvergence& p) {
  char buf[160];
  std::string note;
  const auto add = [&](const std::string& s) { note += (note.empty() ? "" : "; ") + s; };
  if (p.adaptive) {
    add("adaptive: the slope against the mean step is not an order");
    return note;
  }
  if (!p.measures_order()) {
    std::snprintf(buf, sizeof buf, "the spec lists %zu step size%s: no order measured", p.listed.size(),
                  p.listed.size() == 1 ? "" : "s");
    add(buf);
    return note;
  }
  const OrderWindow& w = p.window;
  if (w.at_floor) add(std::to_string(w.at_floor) + " at the reference's error floor");
  if (w.above_ceiling) add(std::to_string(w.above_ceiling) + " with no accuracy (error above a tenth of |y_ref|)");
  if (p.added) add(std::to_string(p.added) + " step size" + (p.added == 1 ? "" : "s") + " added by the window search");
  if (!w.found()) add("no asymptotic window: " + w.why_none());
  else if (w.above_nominal()) add("converging from above");
  else if (w.below_nominal()) add("below nominal");
  return note;
}

}  // namespace

std::vector<PairConvergence> measure_convergence(const StudySpec& spec,
                                                 const std::vector<nlohmann::json>& records,
                                                 const std::map<std::string, ErrorScale>& scales) {
  std::vector<PairConvergence> pairs;
  for (const auto& ex : spec.experiments) {
    const auto scale = scales.find(ex.name);
    if (scale == scales.end()) continue;
    const std::size_t first = pairs.size();
    for (const auto& c : ex.cases) {  // the pairs in spec order, with the steps the spec lists
      auto it = std::find_if(pairs.begin() + static_cast<std::ptrdiff_t>(first), pairs.end(),
                             [&](const PairConvergence& p) { return p.integrator == c.integrator; });
      if (it == pairs.end()) {
        pairs.push_back({});
        it = pairs.end() - 1;
        it->experiment = &ex;
        it->integrator = c.integrator;
      }
      if (!std::isnan(c.h)) add_unique(it->listed, c.h);
    }
    for (auto p = pairs.begin() + static_cast<std::ptrdiff_t>(first); p != pairs.end(); ++p) {
      std::vector<std::pair<double, double>> points;
      for (const auto& r : records) {
        if (r["experiment"] != ex.name || r["integrator"] != p->integrator) continue;
        ++p->cases;
        p->adaptive = r["adaptive"].get<bool>();
        p->nominal = r["nominal_order"].get<int>();
        const double h = number_from_json(r["h"]);
        if (!std::isnan(h)) add_unique(p->tried, h);
        p->added += r.value("added_step", false);
        if (r["status"] != "ok") continue;
        ++p->finished;
        points.emplace_back(number_from_json(r[p->adaptive ? "mean_step" : "h"]), number_from_json(r["global_err"]));
      }
      if (p->adaptive) fit_mean_step_slope(*p, points, scale->second);
      else p->window = find_order_window(points, scale->second.floor, scale->second.ceiling, p->nominal);
    }
  }
  return pairs;
}

std::string orders_csv(const std::string& study, const std::vector<PairConvergence>& pairs) {
  std::string s =
      "study,experiment,model,integrator,nominal_order,fitted_order,residual,points_used,points_total,"
      "abscissa,note,local_slopes,window_largest,window_smallest,fit_deviation,correlation,"
      "slope_vs_mean_step,added_steps,window_first\n";
  for (const auto& p : pairs) {
    if (p.finished < 2) continue;
    const OrderWindow& w = p.window;
    const bool found = w.found();
    s += csv_text(study) + "," + csv_text(p.experiment->name) + "," + csv_text(p.experiment->model) + "," +
         csv_text(p.integrator) + "," + std::to_string(p.nominal) + "," + csv_number(w.order) + "," +
         csv_number(w.residual) + "," + std::to_string(w.size()) + "," +
         std::to_string(p.adaptive ? p.mean_step_points : w.total) + "," + (p.adaptive ? "mean_step" : "h") + "," +
         csv_text(order_note(p)) + "," + csv_text(slopes_text(w.local_slopes)) + "," +
         csv_number(found ? w.points[static_cast<std::size_t>(w.first)].first : OrderWindow::kNaN, !found) + "," +
         csv_number(found ? w.points[static_cast<std::size_t>(w.last)].first : OrderWindow::kNaN, !found) + "," +
         csv_number(w.relative_deviation(), !found) + "," + csv_number(w.correlation, !found) + "," +
         csv_number(p.mean_step_slope, !p.adaptive) + "," + std::to_string(p.added) + "," +
         (found ? std::to_string(w.first) : "") + "\n";
  }
  return s;
}

}  // namespace geomint
