#include "studies/case_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <nlohmann/json.hpp>

#include "studies/atomic_file.hpp"
#include "studies/result_folder.hpp"

namespace geomint {

namespace {

constexpr const char* kCostsFile = "costs.json";

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

double step_scale(const std::vector<CaseSpec>& cases) {
  std::vector<double> h;
  for (const auto& c : cases)
    if (std::isfinite(c.h) && c.h > 0.0) h.push_back(c.h);
  if (h.empty()) return cases.empty() ? 1.0 : cases.front().T / 100.0;
  return median(h);
}

double expected_steps(const CaseSpec& c, double scale, int order) {
  if (std::isfinite(c.h) && c.h > 0.0) return c.T / c.h;
  const double rtol = std::isfinite(c.rtol) && c.rtol > 0.0 ? c.rtol : 1e-6;
  return c.T / scale * std::pow(1e-6 / rtol, 1.0 / (std::max(order, 1) + 1.0));
}

RecordedCosts::RecordedCosts(const ResultFolder& folder) {
  const auto file = folder.path() / kCostsFile;
  const auto text = folder.read(file);
  if (!text) return;
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_object() && j.contains("costs") && j["costs"].is_object()) {
    for (const auto& [key, value] : j["costs"].items())
      if (value.is_number() && value.get<double>() >= 0.0) costs_[key] = value.get<double>();
    return;
  }
  folder.set_aside(file, "it is not a JSON object with \"costs\"");
}

std::optional<double> RecordedCosts::find(const std::string& key) const {
  const auto it = costs_.find(key);
  if (it == costs_.end()) return std::nullopt;
  return it->second;
}

void RecordedCosts::write(const ResultFolder& folder) const {
  nlohmann::json j;
  j["about"] = "CPU seconds of each case of earlier runs, by a hash of its inputs without the "
               "code revision; the next run starts the longest first (studies/case_schedule.hpp)";
  j["costs"] = costs_;
  write_file_atomically(folder.path() / kCostsFile, j.dump(1));
}

std::vector<double> expected_costs(const std::vector<double>& expected,
                                   const std::vector<std::optional<double>>& recorded) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < expected.size(); ++i)
    if (recorded[i] && expected[i] > 0.0) ratios.push_back(*recorded[i] / expected[i]);
  const double seconds_per_step = ratios.empty() ? 1.0 : median(ratios);
  std::vector<double> cost(expected.size());
  for (std::size_t i = 0; i < cost.size(); ++i)
    cost[i] = recorded[i] ? *recorded[i] : expected[i] * seconds_per_step;
  return cost;
}

std::vector<std::size_t> longest_first(const std::vector<double>& costs) {
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  return order;
}

}  // namespace geomint
