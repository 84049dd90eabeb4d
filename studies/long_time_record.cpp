#include "studies/long_time_record.hpp"

#include <cmath>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace geomint {

namespace {
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json long_time_json(const std::vector<LongTimeSummary>& summaries, std::int64_t points,
                              std::int64_t samples) {
  nlohmann::json quantities = nlohmann::json::array();
  for (const LongTimeSummary& s : summaries) {
    nlohmann::json bins = {{"t_lo", nlohmann::json::array()}, {"t_hi", nlohmann::json::array()},
                           {"count", nlohmann::json::array()}, {"min", nlohmann::json::array()},
                           {"max", nlohmann::json::array()}, {"mean", nlohmann::json::array()}};
    for (const LongTimeBin& b : s.bins) {
      bins["t_lo"].push_back(number(b.t_lo));
      bins["t_hi"].push_back(number(b.t_hi));
      bins["count"].push_back(b.count);
      bins["min"].push_back(number(b.min));
      bins["max"].push_back(number(b.max));
      bins["mean"].push_back(number(b.mean));
    }
    quantities.push_back({{"name", s.quantity.name},
                          {"kind", std::string(to_string(s.quantity.kind))},
                          {"initial", number(s.initial)},
                          {"abs_max", number(s.abs_max)},
                          {"alpha", number(s.alpha)},
                          {"alpha_se", number(s.alpha_se)},
                          {"alpha_note", s.alpha_note},
                          {"fit_from", number(s.fit_from)},
                          {"fit_to", number(s.fit_to)},
                          {"fit_bins", s.fit_bins},
                          {"drift", number(s.drift)},
                          {"drift_se", number(s.drift_se)},
                          {"correlation", number(s.correlation)},
                          {"bins", bins}});
  }
  return {{"points", points}, {"samples", samples}, {"quantities", quantities}};
}

std::string long_time_line(const LongTimeSummary& s) {
  char buf[400];
  std::string line = s.quantity.name + ": max |err| ";
  std::snprintf(buf, sizeof buf, "%.3g", s.abs_max);
  line += buf;
  if (std::isnan(s.alpha)) {
    line += ", alpha not measured (" + s.alpha_note + ")";
  } else {
    std::snprintf(buf, sizeof buf, ", alpha %.3f +- %.3f over t in [%.3g, %.3g] (%d bins)", s.alpha, s.alpha_se,
                  s.fit_from, s.fit_to, s.fit_bins);
    line += buf;
  }
  std::snprintf(buf, sizeof buf, ", drift %.3g +- %.3g per unit time, correlation of t and |err| %.3g", s.drift,
                s.drift_se, s.correlation);
  return line + buf;
}

}  // namespace geomint
