#pragma once
// The order in which a study starts its cases: longest expected first, so that on P workers
// the last case to start is a short one and the run ends within about one short case of
// (total CPU time) / P (Graham's LPT rule; the manifest records both figures).
//
// The expected cost is the step count: T / h for a fixed-step case; for an adaptive one
// (T / s) (1e-6 / rtol)^(1 / (p + 1)), with p its declared order (a step of local error
// h^(p+1) is held at rtol) and s the experiment's step scale, the median h of its fixed-step
// cases (their h follows the model's time scale, which sets an adaptive method's steps too);
// T / 100 when it has none. On the matrix this starts the rod's CVODE Adams at rtol 1e-9
// (order 1 with its projection, about 3e6 steps) first. Costs recorded by earlier runs into
// the same result folder (DIR/costs.json, CPU seconds per case) replace the estimate: the
// estimates of the cases without one are scaled to seconds by the median ratio of the cases
// with both.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "studies/case.hpp"

namespace geomint {

class ResultFolder;

/// The experiment's step scale s (see above) from its cases.
double step_scale(const std::vector<CaseSpec>& cases);

/// The expected step count of a case (see above); `order` is its integrator's declared order.
double expected_steps(const CaseSpec& c, double scale, int order);

/// CPU seconds per case, keyed by the case's inputs without the code revision, as earlier
/// runs recorded them in DIR/costs.json.
class RecordedCosts {
 public:
  /// Reads DIR/costs.json; a damaged one is set aside and none are recorded.
  explicit RecordedCosts(const ResultFolder& folder);

  std::optional<double> find(const std::string& key) const;
  void record(const std::string& key, double cpu_s) { costs_[key] = cpu_s; }
  /// Writes DIR/costs.json: the costs read, updated with those of this run.
  void write(const ResultFolder& folder) const;

 private:
  std::map<std::string, double> costs_;
};

/// The expected cost of each case: its recorded seconds where `recorded` (same length as
/// `expected`, the step counts) has them, else its step count in seconds (see above).
std::vector<double> expected_costs(const std::vector<double>& expected,
                                   const std::vector<std::optional<double>>& recorded);

/// The indices of `costs`, largest first; ties keep their order.
std::vector<std::size_t> longest_first(const std::vector<double>& costs);

}  // namespace geomint
