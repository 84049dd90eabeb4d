#pragma once
// One case of a study: a model with parameters and an initial condition, an integrator with
// its settings, a horizon; and what running it produced.

#include <Eigen/Core>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "integrators/work.hpp"
#include "models/state_blocks.hpp"
#include "studies/binned_csv.hpp"
#include "studies/metrics.hpp"

namespace geomint {

class UserMethod;
class PositionRecorder;  // studies/evocation_positions.hpp
class OutputRecorder;    // studies/output_recorder.hpp
class LongTimeStatistics;  // studies/long_time_statistics.hpp

struct CaseSpec {
  std::string study, experiment;
  std::string model, preset;
  std::map<std::string, double> parameters;                    // overrides of the preset's
  std::vector<std::pair<std::string, Eigen::VectorXd>> initial;  // a state block, e.g. {"q1", (x, y, z)}
  bool project_initial = false;  // project an initial state that is off the manifold
  std::string integrator;
  double h = std::numeric_limits<double>::quiet_NaN();  // fixed-step methods
  double rtol = std::numeric_limits<double>::quiet_NaN();  // adaptive methods
  double atol = std::numeric_limits<double>::quiet_NaN();
  double T = 1.0;
  double max_steps = 1e8;  // the step cap (studies/run_limits.hpp): an adaptive run stops there
  double left_manifold_at = 0.1;  // a manifold defect beyond which a run is a LeftManifold failure
  bool compensated = false;  // compensated summation of a fixed-step update (integrators/compensated_sum.hpp)
  // A fixed-step case of a long-time experiment also runs forward over this horizon and back
  // (CaseResult::reversibility_miss); NaN: not.
  double reversibility_T = std::numeric_limits<double>::quiet_NaN();
  // How long the repetitions that time the integration last together (studies/case_runner.hpp:
  // time_integration); 0 times one run; negative takes the observed run's own CPU time (a long
  // run, whose repetition would double its cost). Not an input of the numbers: not in the key.
  double timed_seconds = 0.01;
  // For a fixed-step method instead of h: take T / (the steps of this adaptive case of the
  // same experiment), e.g. RKMK5 with as many steps as RKMK(5,4) took (Celledoni Fig. 8).
  struct StepsOf {
    std::string integrator;
    double rtol, atol;
  };
  std::optional<StepsOf> same_steps_as;
  // A method the spec defines by its coefficients, named `integrator` (else null: a catalogued
  // integrator); studies/user_method.hpp.
  std::shared_ptr<const UserMethod> user_method;
};

/// The reference solution a case's global error is measured against.
struct ReferenceSolution {
  Eigen::VectorXd final_state;
  double error_estimate = std::numeric_limits<double>::quiet_NaN();  // in the model's distance
};

/// Called at every output point with t, the state, the model's invariants and its named
/// outputs (in the order of CaseResult::invariant_names and output_names; no outputs for a model
/// without them, models/outputs.hpp); used by `geomint run` to write full time series.
using OutputHook = std::function<void(double t, const Eigen::VectorXd& state, const std::vector<double>& inv,
                                      const std::vector<double>& outputs)>;

/// Called once before the integration with the names of the state, invariant and output columns.
using StartHook = std::function<void(const std::vector<std::string>& state_names,
                                     const std::vector<std::string>& invariant_names,
                                     const std::vector<std::string>& output_names)>;

/// Per-body snapshots at given times (at the first output point at or after each): the
/// position q_i and the body's own kinetic energy 1/2 M_ii |q_i'|^2, as CSV text.
struct SnapshotRecorder {
  std::vector<double> times;  // increasing
  std::size_t next = 0;
  std::string csv = "t,body,q_x,q_y,q_z,kinetic_energy\n";
};


struct CaseHooks {
  StartHook on_start;                       // optional
  OutputHook on_output;                     // optional
  const ReferenceSolution* reference = nullptr;  // optional: enables global_err
  SeriesDecimator* series = nullptr;        // optional: the decimated series of the study
  SnapshotRecorder* snapshots = nullptr;    // optional
  BinnedCsv* curves = nullptr;              // optional: the model's named curves (models/curves.hpp)
  ComponentRecorder* components = nullptr;  // optional: the `components` plot's
  BinnedCsv* paths = nullptr;               // optional: the `paths` plot's (models/configuration.hpp)
  OutputRecorder* outputs = nullptr;        // optional: the model's named outputs
  PositionRecorder* positions = nullptr;    // optional: fixed-step runs, for pattern evocation
  LongTimeStatistics* long_time = nullptr;  // optional: streamed, at the output points it samples
};

struct CaseResult {
  std::string status = "ok";  // "ok", a FailureKind name, or "n/a"
  std::string detail;         // one line: the failure or n/a reason, or notes
  double fail_time = std::numeric_limits<double>::quiet_NaN();
  Work work;
  double cpu_s = 0.0;        // the fastest of cpu_repetitions timed runs (case_runner.hpp)
  int cpu_repetitions = 0;
  double cpu_timed_s = 0.0;  // the repetitions' CPU time together (at least 10 ms)
  Metrics metrics;
  double global_err = std::numeric_limits<double>::quiet_NaN();  // the model's distance
  double global_err_ambient = std::numeric_limits<double>::quiet_NaN();  // Euclidean in R^N
  Eigen::VectorXd final_state;
  StateLayout layout;  // the model's, for distances between states of this case
  std::vector<std::string> absent_metrics;  // columns the model declares nothing for
  std::vector<std::string> invariant_names;  // column names of the invariants
  std::vector<std::string> output_names;     // of the model's named outputs (models/outputs.hpp)
  std::string family;
  int nominal_order = 0;
  bool adaptive = false;
  bool symplectic = false;         // the integrator's declared promises, for the matrix
  bool stays_on_manifold = false;
  bool conserves_momentum = false;  // declared: symplectic, or an external command that says so
  bool energy_conserved = false;   // the model's energy is conserved by the exact flow
  std::string notes;  // e.g. "initial state projected onto the manifold (defect 3e-5)"
  bool symmetric = false;  // declared
  // Forward reversibility_steps steps of h and back as many of -h: the model's distance from
  // the initial state, and the initial state's largest entry (its scale in ULPs).
  std::int64_t reversibility_steps = 0;
  double reversibility_miss = std::numeric_limits<double>::quiet_NaN();
  double reversibility_scale = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace geomint
