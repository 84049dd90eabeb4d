#include "studies/order_window.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace geomint {

LogLogFit log_log_fit(const std::vector<std::pair<double, double>>& points, std::size_t first,
                      std::size_t last) {
  const double n = static_cast<double>(last - first + 1);
  double mx = 0.0, my = 0.0;
  for (std::size_t i = first; i <= last; ++i) {
    mx += std::log10(points[i].first);
    my += std::log10(points[i].second);
  }
  mx /= n;
  my /= n;
  double sxy = 0.0, sxx = 0.0, syy = 0.0;
  for (std::size_t i = first; i <= last; ++i) {
    const double dx = std::log10(points[i].first) - mx, dy = std::log10(points[i].second) - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  LogLogFit fit{sxy / sxx, 0.0, sxy / std::sqrt(sxx * syy)};
  double ss = 0.0;
  for (std::size_t i = first; i <= last; ++i) {
    const double r = std::log10(points[i].second) - (my + fit.slope * (std::log10(points[i].first) - mx));
    ss += r * r;
  }
  fit.residual = std::sqrt(ss / n);
  return fit;
}

double OrderWindow::relative_deviation() const {
  return found() && nominal > 0 ? std::abs(order / nominal - 1.0) : kNaN;
}

std::string OrderWindow::why_none() const {
  if (found()) return "";
  std::string why;
  char buf[96];
  if (points.size() < 3) {
    std::snprintf(buf, sizeof buf, "%zu of %d points", points.size(), total);
    why = buf;
    if (at_floor > 0) {
      std::snprintf(buf, sizeof buf, ", %d at the reference's error floor", at_floor);
      why += buf;
    }
    if (above_ceiling > 0) {
      std::snprintf(buf, sizeof buf, ", %d with no accuracy (error above the ceiling)", above_ceiling);
      why += buf;
    }
    return why + ": fewer than three to fit";
  }
  why = "no three consecutive points whose local slopes agree (";
  for (std::size_t i = 0; i < local_slopes.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%.2f", i ? ", " : "", local_slopes[i]);
    why += buf;
  }
  return why + ")";
}

OrderWindow find_order_window(std::vector<std::pair<double, double>> points, double floor,
                              double ceiling, int nominal) {
  OrderWindow w;
  w.nominal = nominal;
  std::erase_if(points, [](const auto& p) {
    return !(p.first > 0.0) || !(p.second > 0.0) || !std::isfinite(p.first) || !std::isfinite(p.second);
  });
  std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  w.total = static_cast<int>(points.size());
  if (!points.empty()) {
    w.smallest_step = points.back().first;
    w.smallest_at_floor = points.back().second <= floor;
  }
  for (const auto& p : points) {
    if (p.second <= floor) ++w.at_floor;
    else if (p.second >= ceiling) ++w.above_ceiling;
    else w.points.push_back(p);
  }
  for (std::size_t i = 0; i + 1 < w.points.size(); ++i) {
    const auto& [h0, e0] = w.points[i];
    const auto& [h1, e1] = w.points[i + 1];
    w.local_slopes.push_back(std::log(e0 / e1) / std::log(h0 / h1));
  }
  const double agreement = kWindowAgreement * std::max(nominal, 3);
  const int n = static_cast<int>(w.points.size());
  // The window reaching the smallest step, and of those the longest: for each last point from
  // the finest back, extend the run of agreeing positive slopes as far towards larger h as it goes.
  for (int last = n - 1; last >= 2 && !w.found(); --last) {
    double lo = w.local_slopes[static_cast<std::size_t>(last - 1)], hi = lo;
    if (!(lo > 0.0)) continue;
    int first = last - 1;
    while (first > 0) {
      const double s = w.local_slopes[static_cast<std::size_t>(first - 1)];
      if (!(s > 0.0) || std::max(hi, s) - std::min(lo, s) > agreement) break;
      lo = std::min(lo, s);
      hi = std::max(hi, s);
      --first;
    }
    if (last - first + 1 >= 3) {
      w.first = first;
      w.last = last;
    }
  }
  if (w.found()) {
    const LogLogFit fit = log_log_fit(w.points, static_cast<std::size_t>(w.first), static_cast<std::size_t>(w.last));
    w.order = fit.slope;
    w.residual = fit.residual;
    w.correlation = fit.correlation;
  }
  return w;
}

double next_window_step(const OrderWindow& window, const std::vector<double>& tried, double finest,
                        double coarsest) {
  constexpr double kNaN = OrderWindow::kNaN;
  if ((window.found() && !window.below_nominal()) || tried.empty()) return kNaN;
  const auto [smallest, largest] = std::minmax_element(tried.begin(), tried.end());
  // The smallest step tried finished (it is the smallest finite point) above the floor.
  const bool finer = window.smallest_step == *smallest && !window.smallest_at_floor;
  if (finer) return *smallest / 2.0 >= finest * (1.0 - 1e-9) ? *smallest / 2.0 : kNaN;
  if (window.points.size() < 3 && window.at_floor > 0 && *largest * 2.0 <= coarsest * (1.0 + 1e-9)) return *largest * 2.0;
  return kNaN;
}

}  // namespace geomint
