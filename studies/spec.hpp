#pragma once
// A study spec: a YAML file under studies/ (the format is documented in studies/README.md).

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/case.hpp"
#include "studies/pattern_evocation.hpp"
#include "studies/run_limits.hpp"
#include "studies/user_method.hpp"

namespace geomint {

/// A published figure next to which ours is shown (reproduction.csv). Its note is a template
/// (studies/note_template.hpp): every number in it is computed from the row's case.
struct PublishedRow {
  std::string example, method, role, note, setting;
  std::string integrator;
  double h = std::numeric_limits<double>::quiet_NaN();
  double rtol = std::numeric_limits<double>::quiet_NaN();
  double atol = std::numeric_limits<double>::quiet_NaN();
  std::map<std::string, double> values;  // metric name -> published value
};

/// `reference: exact` (the model's closed-form solution) or a solver at tight tolerances.
struct ReferenceSpec {
  bool exact = false;
  std::string model;  // solved in this other formulation of the experiment's model (else empty)
  std::string integrator = "cvode_bdf";
  double rtol = 1e-12, atol = 1e-14;
};

/// `evoke`: the pattern evocation of each fixed-step case of an experiment (studies/README.md).
struct EvokeSpec {
  EvocationScan scan;
  std::size_t bodies = 0;  // the model's position blocks, for the output estimate
};

/// A checkable claim of a paper about an experiment (claims.csv, studies/claims.hpp): the largest
/// (at_most) or smallest (at_least) value of a case metric over the selected finished cases,
/// against the claim's bound.
struct ClaimSpec {
  std::string claim, where;             // the paper's words, and where it says them
  std::string metric;                   // a numeric column of cases.csv
  std::vector<std::string> integrators;  // the cases it is about (empty: every case)
  double bound = std::numeric_limits<double>::quiet_NaN();
  bool at_most = true;                  // else at_least
};

struct ExperimentSpec {
  std::string name, title, description;
  std::string base_name;  // `name` before a `presets:` list expanded it (else the same)
  std::string model, preset;
  std::map<std::string, double> parameters;
  std::vector<std::pair<std::string, Eigen::VectorXd>> initial;
  bool project_initial = false;
  double T = 1.0;
  std::optional<ReferenceSpec> reference;
  std::vector<std::string> plots;
  bool series = true;
  std::vector<double> snapshots;  // times of per-body snapshots (series/<case_id>-snapshots.csv)
  /// The `curves` and `formation` plots ask for the model's curves (series/<case_id>-curves.csv).
  bool draws_curves() const { return has_plot("curves") || draws_formation(); }
  bool draws_formation() const { return has_plot("formation"); }
  std::vector<double> formation_times;  // of the `formation` plot: increasing, in [0, T]
  /// The `components` plot's columns (studies/component_plan.hpp; series/<case_id>-components.csv)
  /// and its optional zoom window, {start, end} in [0, T].
  std::vector<std::string> components;
  std::optional<std::pair<double, double>> zoom;
  /// The `paths` plot's times at which a model's configuration is drawn (models/configuration.hpp).
  std::vector<double> path_times;
  /// The `outputs` plot asks for the model's named outputs (series/<case_id>-outputs.csv).
  bool draws_outputs() const { return has_plot("outputs"); }
  bool has_plot(const std::string& plot) const { return std::find(plots.begin(), plots.end(), plot) != plots.end(); }
  std::optional<EvokeSpec> evoke;
  /// `long_time`: every case streams its long-time statistics (series/<case_id>-long-time.json),
  /// and each fixed-step case runs forward over reversibility_T and back.
  bool long_time = false;
  double reversibility_T = std::numeric_limits<double>::quiet_NaN();
  /// `compensated`: every fixed-step case sums its update compensated
  /// (integrators/compensated_sum.hpp); a case of a method without it is "n/a".
  bool compensated = false;
  /// Whether the case's patterns are evoked: the experiment asks for it and the case is
  /// fixed-step (an adaptive run's output points are not evenly spaced).
  bool evokes(const CaseSpec& c) const { return evoke && (!std::isnan(c.h) || c.same_steps_as); }
  std::vector<CaseSpec> cases;  // expanded from `runs`
  std::vector<PublishedRow> published;
  std::vector<ClaimSpec> claims;
};

/// `known_deviations`: a promise (studies/verdicts.hpp) the spec expects integrators not to keep
/// in an experiment, and why; such a verdict is "explained" rather than broken or not checked.
struct KnownDeviation {
  std::string experiment;  // an experiment's name (before `presets:` expanded it); empty: every one
  std::string model;       // empty: every model
  std::vector<std::string> integrators;
  std::string promise;     // order, manifold, momentum, energy or a long-time one (studies/verdicts.hpp)
  std::string reason;
};

struct StudySpec {
  std::string file;
  std::string name, title, description;
  std::string kind = "study";  // or "matrix": every integrator on every model
  std::vector<std::shared_ptr<const UserMethod>> methods;  // defined by their coefficients
  std::vector<ExperimentSpec> experiments;
  nlohmann::json figures = nlohmann::json::array();  // study-level figures, for the report
  nlohmann::json as_json;  // the spec as parsed, for the manifest
  RunLimits limits;  // `max_steps`, `max_output` (defaults 10^7, 1 GiB); every case carries max_steps
  /// `window_search`: at most this many step sizes added per integrator and experiment where an
  /// order finds no asymptotic window (studies/order_window.hpp).
  int window_search = 3;
  static constexpr int kMaxWindowSearch = 10;
  std::vector<KnownDeviation> known_deviations;
};

/// What a spec may hold (studies/README.md): larger or deeper ones are refused unread.
struct SpecLimits {
  static constexpr std::size_t kBytes = 1024 * 1024;  // the file's size: 1 MiB
  static constexpr int kDepth = 64;                   // nested lists and maps
  static constexpr std::size_t kNodes = 200000;       // YAML nodes, an alias counted at each use
  static constexpr std::size_t kExperiments = 1000;   // after `presets:` and `every_model:`
  static constexpr std::size_t kCases = 100000;       // over all experiments
};

/// Reads and validates a spec; any problem is an InputError of one line,
/// `PATH:LINE:COLUMN: <where>: <what>` (1-based; the column counts characters).
StudySpec load_study_spec(const std::string& path);
/// The same from the spec's text; `path` names it in messages. Nothing but an InputError
/// leaves it, whatever the text.
StudySpec parse_study_spec(const std::string& content, const std::string& path);

}  // namespace geomint
