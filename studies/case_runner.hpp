#pragma once
// Running one case on a model type: the place where the study level's type erasure meets the
// templates. Explicitly instantiated once per model of the registry (studies/run_<model>.cpp,
// generated from catalogue/model_registry.txt). It knows the model only through the contract
// (models/model_contract.hpp), and the integrators only at run time, as the model's compiled
// catalogue (catalogue/integrator_on_model.hpp), so that its code is compiled once per model.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "catalogue/integrator_adapter.hpp"
#include "errors/exit_status_errors.hpp"
#include "models/configuration.hpp"
#include "models/curves.hpp"
#include "models/model_contract.hpp"
#include "models/outputs.hpp"
#include "studies/case.hpp"
#include "studies/evocation_positions.hpp"
#include "studies/integrator_dispatch.hpp"
#include "studies/long_time_statistics.hpp"
#include "studies/metrics.hpp"
#include "studies/output_recorder.hpp"
#include "studies/thread_cpu_time.hpp"
#include "studies/user_method_runner.hpp"

namespace geomint {

namespace detail {

/// The step size to record at an output point: the spacing of the output points, unless the
/// integrator outputs several points per step (ode45's Refine) and says which step they are in.
template <Model M>
double step_size(const IntegratorOnModel<M>& integrator, double output_spacing) {
  const double last = integrator.last_step();
  return std::isnan(last) ? output_spacing : last;
}

inline std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// Applies the case's initial-block overrides and checks the result lies on the model's
/// manifold: a state whose manifold defects exceed 1e-12 is refused with each defect named,
/// unless the case asks for it to be projected, which is then reported in `notes`.
template <Model M>
void prepare_initial_state(const M& model, const CaseSpec& spec, typename M::State& y,
                           std::string& notes) {
  const StateLayout& layout = model.state_layout();
  for (const auto& [name, value] : spec.initial) {
    const std::size_t k = layout.find(name);
    if (k == layout.blocks().size()) {
      std::string known;
      for (const auto& b : layout.blocks()) known += (known.empty() ? "" : ", ") + b.name;
      throw InputError(std::string(M::kName) + ": unknown initial vector '" + name +
                       "' (the state has " + known + ")");
    }
    const StateBlock& block = layout.blocks()[k];
    if (value.size() != block.size)
      throw InputError(std::string(M::kName) + ": initial " + name + " has " +
                       std::to_string(block.size) + " components, got " +
                       std::to_string(value.size()));
    y.segment(block.offset, block.size) = value;
  }
  if (!y.allFinite()) throw InputError(std::string(M::kName) + ": the initial state is not finite");
  const auto invariants = all_invariants(model);
  std::vector<double> values;
  evaluate_all_invariants(model, y, values);
  std::string defect;
  for (std::size_t i = 0; i < invariants.size(); ++i)
    if (invariants[i].kind == InvariantKind::ManifoldDefect && !(std::abs(values[i]) <= 1e-12))
      defect += (defect.empty() ? "" : ", ") + invariants[i].name + " = " + format_number(values[i]);
  if (defect.empty()) return;
  if (!spec.project_initial)
    throw InputError("the initial state is off the manifold (" + defect +
                     "); pass --project (or project_initial: true) to project it");
  model.project(y);
  evaluate_all_invariants(model, y, values);
  for (std::size_t i = 0; i < invariants.size(); ++i)
    if (invariants[i].kind == InvariantKind::ManifoldDefect && !(std::abs(values[i]) <= 1e-12)) {
      std::string given;
      for (const auto& [name, value] : spec.initial) given += (given.empty() ? "" : ", ") + name;
      throw InputError("the initial state" + (given.empty() ? std::string() : " (" + given + " as given)") +
                       " cannot be projected onto the manifold (" + defect + "; after projecting, " +
                       invariants[i].name + " = " + format_number(values[i]) + ")");
    }
  notes += "initial state projected onto the manifold (" + defect + ")";
}

/// Per-body snapshots need bodies on S^2 (SphereModel's positions and kinetic energies).
template <class M>
concept HasBodies = requires(const M& m, const typename M::State& y) {
  M::positions(y);
  m.body_kinetic_energy(y, Eigen::Index{0});
};

template <HasBodies M>
void record_snapshot(const M& model, double t, const typename M::State& y, SnapshotRecorder& rec) {
  if (rec.next >= rec.times.size() || t < rec.times[rec.next]) return;
  while (rec.next < rec.times.size() && t >= rec.times[rec.next]) ++rec.next;
  const auto q = M::positions(y);
  char line[160];
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    std::snprintf(line, sizeof line, "%.17g,%ld,%.17g,%.17g,%.17g,%.17g\n", t,
                  static_cast<long>(i + 1), q(0, i), q(1, i), q(2, i),
                  model.body_kinetic_energy(y, i));
    rec.csv += line;
  }
}

/// The model's named outputs at (t, y) into `values`; none for a model without them.
template <Model M>
void evaluate_outputs(const M& model, double t, const typename M::State& y, std::vector<double>& values) {
  if constexpr (HasOutputs<M>) {
    const auto o = model.outputs(t, y);
    values.assign(o.begin(), o.end());
  }
}

/// Each name with _x, _y, _z: the columns of points in R^3.
inline std::vector<std::string> xyz_columns(const std::vector<std::string>& names) {
  std::vector<std::string> columns;
  for (const auto& name : names)
    for (const char* axis : {"_x", "_y", "_z"}) columns.push_back(name + axis);
  return columns;
}

template <DrawsCurves M>
void record_curves(const M& model, double t, const typename M::State& y, BinnedCsv& rec) {
  if (!rec.started())  // names without commas (models/curves.hpp)
    rec.start(xyz_columns(std::vector<std::string>(M::kCurves.begin(), M::kCurves.end())));
  if (!rec.take(t)) return;
  const auto points = model.curve_points(t, y);
  Eigen::Matrix3Xd xyz(3, static_cast<Eigen::Index>(points.size()));
  for (std::size_t k = 0; k < points.size(); ++k) xyz.col(static_cast<Eigen::Index>(k)) = points[k];
  rec.row(t, xyz.data(), static_cast<std::size_t>(xyz.size()));
}

/// The values of a components plot's columns at (t, y) (studies/component_plan.hpp); the
/// invariants are those just evaluated at y, in all_invariants' order.
template <Model M>
void record_components(const M& model, double t, const typename M::State& y, const std::vector<double>& invariants,
                       ComponentRecorder& rec) {
  if (!rec.csv.take(t)) return;
  std::vector<double> values, outputs;
  typename M::State rate = y;
  bool rate_known = false;
  evaluate_outputs(model, t, y, outputs);
  for (const ComponentSource& s : rec.sources) {
    const auto k = static_cast<Eigen::Index>(s.index);
    switch (s.kind) {
      case ComponentKind::State: values.push_back(y[k]); break;
      case ComponentKind::Derivative:
        if constexpr (AmbientOde<M>) {
          if (!rate_known) model.rhs(t, y, rate);
          rate_known = true;
          values.push_back(rate[k]);
        } else {
          values.push_back(std::numeric_limits<double>::quiet_NaN());  // never resolved so
        }
        break;
      case ComponentKind::Invariant: values.push_back(invariants[s.index]); break;
      case ComponentKind::Output: values.push_back(outputs[s.index]); break;
      case ComponentKind::Curve:
        if constexpr (DrawsCurves<M>) values.push_back(model.curve_points(t, y)[s.index / 3][k % 3]);
        else values.push_back(std::numeric_limits<double>::quiet_NaN());  // never resolved so
        break;
    }
  }
  rec.csv.row(t, values.data(), values.size());
}

/// The points a `paths` plot draws at (t, y): the model's configuration (models/configuration.hpp)
/// or else its S^2 blocks, as the columns of a 3 x n matrix.
template <Model M>
Eigen::Matrix3Xd path_points(const M& model, double t, const typename M::State& y) {
  if constexpr (DrawsConfiguration<M>) {
    return model.configuration_points(t, y);
  } else {
    std::vector<Eigen::Index> offsets;
    for (const auto& b : model.state_layout().blocks())
      if (b.manifold == Manifold::S2) offsets.push_back(b.offset);
    Eigen::Matrix3Xd points(3, static_cast<Eigen::Index>(offsets.size()));
    for (std::size_t i = 0; i < offsets.size(); ++i) points.col(static_cast<Eigen::Index>(i)) = y.template segment<3>(offsets[i]);
    return points;
  }
}

/// The names of path_points' columns: the configuration's points (the support, then 1, 2, ...)
/// or the S^2 blocks'.
template <Model M>
std::vector<std::string> path_names(const M& model, Eigen::Index count) {
  std::vector<std::string> names;
  if constexpr (DrawsConfiguration<M>) {
    names.push_back("support");
    for (Eigen::Index i = 1; i < count; ++i) names.push_back("point" + std::to_string(i));
  } else {
    for (const auto& b : model.state_layout().blocks())
      if (b.manifold == Manifold::S2) names.push_back(b.name);
  }
  return names;
}

template <Model M>
void record_paths(const M& model, double t, const typename M::State& y, BinnedCsv& rec) {
  if (rec.started() && !rec.take(t)) return;  // the points only for a kept row: not every step
  const Eigen::Matrix3Xd points = path_points(model, t, y);
  if (!rec.started()) {
    rec.start(xyz_columns(path_names(model, points.cols())), path_bins(points.cols()));
    if (!rec.take(t)) return;
  }
  rec.row(t, points.data(), static_cast<std::size_t>(points.size()));
}

/// The columns of cases.csv the model declares nothing for (left empty, not "nan").
inline std::vector<std::string> absent_metrics(const MetricPlan& plan) {
  std::vector<std::string> absent;
  if (plan.energy < 0)
    absent.insert(absent.end(), {"energy_err_max", "energy_err_mean", "energy_drift_per_time",
                                 "energy_rel_err_max"});
  if (plan.momentum.empty()) absent.insert(absent.end(), {"momentum_err_max", "momentum_rel_err_max"});
  if (plan.casimir.empty()) absent.push_back("casimir_err_max");
  if (plan.defects.empty()) absent.push_back("manifold_defect_max");
  if (plan.constraints.empty()) absent.push_back("constraint_err_max");
  if (!plan.has_sphere_blocks())
    absent.insert(absent.end(), {"manifold_err_max", "tangency_err_max", "unit_length_err_mean"});
  return absent;
}

/// Makes the case's integrator, with its step control: a catalogued one
/// (catalogue/integrator_on_model.hpp) or a user method (studies/user_method_runner.hpp).
template <Model M>
using MakeIntegrator = std::function<std::unique_ptr<IntegratorOnModel<M>>()>;

/// The CPU time of `runs` runs of the integration from y0, each on a fresh integrator made
/// before the clock starts (the time is the integration's, not its set-up's).
template <Model M>
double timed_runs(const MakeIntegrator<M>& make, const typename M::State& y0, const CaseSpec& spec,
                  int runs) {
  std::vector<std::unique_ptr<IntegratorOnModel<M>>> integrators;
  for (int i = 0; i < runs; ++i) integrators.push_back(make());
  std::vector<typename M::State> states(static_cast<std::size_t>(runs), y0);
  const double start = thread_cpu_seconds();
  for (int i = 0; i < runs; ++i)
    integrators[static_cast<std::size_t>(i)]->integrate(states[static_cast<std::size_t>(i)], 0.0, spec.T, spec.max_steps);
  return thread_cpu_seconds() - start;
}

/// CPU time of the integration alone, apart from the observed run above (whose metric
/// evaluations can cost as much as a step): repetitions of the same deterministic run until
/// they together last spec.timed_seconds (10 ms), and the fastest repetition, the way Google
/// Benchmark times a short function. A repetition is a batch of runs lasting at least
/// kBatchSeconds, timed as a whole: a single reading of a run of a few microseconds is the timer's and the caches' noise,
/// and on a virtual machine the thread clock can lose microseconds when the thread changes CPU,
/// so that the fastest of thousands of single readings can be half the true time.
template <Model M>
void time_integration(const MakeIntegrator<M>& make, const typename M::State& y0,
                      const CaseSpec& spec, CaseResult& result) {
  constexpr double kBatchSeconds = 0.001;
  const double one = timed_runs(make, y0, spec, 1);
  const int runs = one >= kBatchSeconds ? 1 : static_cast<int>(std::ceil(kBatchSeconds / std::max(one, 1e-7)));
  double total = runs == 1 ? one : 0.0, fastest = runs == 1 ? one : std::numeric_limits<double>::infinity();
  int repetitions = runs == 1 ? 1 : 0;
  while (total < spec.timed_seconds) {
    const double batch = timed_runs(make, y0, spec, runs);
    total += batch;
    fastest = std::min(fastest, batch / runs);
    ++repetitions;
  }
  if (repetitions == 0) {  // timed_seconds 0: the one run
    fastest = total = one;
    repetitions = 1;
  }
  result.cpu_s = fastest;
  result.cpu_repetitions = repetitions;
  result.cpu_timed_s = total;
}

/// Forward N = reversibility_T / h steps of h from y0 and N steps of -h back: a symmetric
/// method (Phi_{-h} = Phi_h^{-1}) comes back to y0 but for round-off, ~ eps sqrt(N)
/// (studies/verdicts.hpp judges it). A failure on the way is recorded as a NaN miss.
template <Model M>
void reverse_run(const MakeIntegrator<M>& make, const M& model, const typename M::State& y0,
                 const CaseSpec& spec, CaseResult& result) {
  const auto steps = static_cast<std::int64_t>(fixed_step_count(spec.reversibility_T, spec.h));
  const auto integrator = make();
  typename M::State y = y0;
  try {
    integrator->steps(0.0, y, spec.h, steps);
    integrator->steps(static_cast<double>(steps) * spec.h, y, -spec.h, steps);
    result.reversibility_miss = model.state_layout().distance(y, y0);
  } catch (const IntegrationFailure&) {
    result.reversibility_miss = std::numeric_limits<double>::quiet_NaN();
  }
  result.reversibility_steps = steps;
  result.reversibility_scale = y0.cwiseAbs().maxCoeff();
}

template <Model M>
void run_integrator(const MakeIntegrator<M>& make, const M& model, typename M::State y,
                    const CaseSpec& spec, const CaseHooks& hooks, CaseResult& result) {
  using State = typename M::State;
  if (hooks.on_start) hooks.on_start(result.layout.column_names(), result.invariant_names, result.output_names);
  const State y0 = y;

  const MetricPlan plan = make_metric_plan(model.declared_invariants(), model.state_layout());
  result.absent_metrics = absent_metrics(plan);
  MetricAccumulator metrics(plan);
  double t_prev = 0.0;
  std::vector<double> invariants, outputs;
  Eigen::VectorXd state_out;
  const auto integrator = make();
  const double observed_start = thread_cpu_seconds();
  try {
    integrator->integrate(y, 0.0, spec.T, [&](double t, const State& s) {
      evaluate_all_invariants(model, s, invariants);
      metrics.add(t, invariants, s);
      if (hooks.series)
        hooks.series->add({t, metrics.energy_error(invariants),
                           metrics.energy_relative_error(invariants),
                           metrics.unit_length_defect(invariants), metrics.tangency_defect(invariants),
                           metrics.momentum_error(invariants), step_size(*integrator, t - t_prev),
                           metrics.casimir_error(invariants), metrics.manifold_defect(invariants)});
      t_prev = t;
      if constexpr (HasBodies<M>)
        if (hooks.snapshots) record_snapshot(model, t, s, *hooks.snapshots);
      if constexpr (DrawsCurves<M>)
        if (hooks.curves) record_curves(model, t, s, *hooks.curves);
      if (hooks.components) record_components(model, t, s, invariants, *hooks.components);
      if (hooks.paths) record_paths(model, t, s, *hooks.paths);
      if (hooks.positions) hooks.positions->add(t, s);
      if (hooks.long_time) {
        if (hooks.long_time->wants(t)) hooks.long_time->add(t, invariants);
        else hooks.long_time->track(t, invariants);
      }
      if (hooks.outputs || hooks.on_output) evaluate_outputs(model, t, s, outputs);
      if (hooks.outputs) hooks.outputs->add(t, outputs);
      if (hooks.on_output) {
        state_out = s;
        hooks.on_output(t, state_out, invariants, outputs);
      }
      const double defect = metrics.manifold_defect(invariants);
      if (defect > spec.left_manifold_at)
        throw LeftManifold(t, "a manifold defect is " + format_number(defect) + ", beyond " +
                                  format_number(spec.left_manifold_at));
    }, spec.max_steps);
    result.final_state = y;
    if (hooks.reference) {
      if (hooks.reference->final_state.size() != y.size())
        throw InputError("the reference solution has " + std::to_string(hooks.reference->final_state.size()) +
                         " entries, the state " + std::to_string(y.size()));
      result.global_err = model.state_layout().distance(y, hooks.reference->final_state);
      result.global_err_ambient = (result.final_state - hooks.reference->final_state).norm();
    }
  } catch (const IntegrationFailure& failure) {
    result.status = std::string(to_string(failure.kind()));
    result.fail_time = failure.time();
    result.detail = failure.what();
  }
  result.work = integrator->work();
  result.metrics = metrics.result();

  if (const double outside = integrator->cpu_seconds_outside(); result.status == "ok" && !std::isnan(outside)) {
    result.cpu_s = result.cpu_timed_s = outside;  // an external command's own: not run again to time it
    result.cpu_repetitions = 1;
  } else if (result.status == "ok" && spec.timed_seconds < 0.0) {
    result.cpu_s = result.cpu_timed_s = thread_cpu_seconds() - observed_start;
    result.cpu_repetitions = 1;
  } else if (result.status == "ok") {
    time_integration(make, y0, spec, result);
  }
  if (result.status == "ok" && !std::isnan(spec.reversibility_T) && !std::isnan(spec.h))
    reverse_run(make, model, y0, spec, result);
}



/// The model of a case and its initial state (preset, overrides, manifold check).
template <Model M>
struct CaseModel {
  M model;
  typename M::State initial;
};
template <Model M>
CaseModel<M> case_model(const CaseSpec& spec, std::string& notes) {
  const auto& preset = find_preset<M>(spec.preset);
  CaseModel<M> c{M(preset_parameters(preset, spec.parameters)), {}};
  c.initial = preset.initial_state(c.model);
  prepare_initial_state(c.model, spec, c.initial, notes);
  return c;
}

}  // namespace detail

template <Model M>
CaseResult run_case_for(const CaseSpec& spec, const CaseHooks& hooks) {
  CaseResult result;
  const auto setup = detail::case_model<M>(spec, result.notes);
  const M& model = setup.model;
  const typename M::State& y = setup.initial;
  if (hooks.snapshots && !detail::HasBodies<M>)
    throw InputError(spec.model + " has no bodies on S^2 to take snapshots of");
  if (hooks.curves && !DrawsCurves<M>) throw InputError(spec.model + " draws no curves");
  if (hooks.outputs && !HasOutputs<M>) throw InputError(spec.model + " has no outputs");
  if (hooks.positions) hooks.positions->start(model.state_layout());
  if (hooks.long_time) hooks.long_time->start(long_time_quantities(all_invariants(model)), 0.0, spec.T);
  result.layout = model.state_layout();
  for (const auto& inv : all_invariants(model)) result.invariant_names.push_back(inv.name);
  for (const auto& inv : model.declared_invariants())
    if (inv.kind == InvariantKind::Energy) {
      result.energy_conserved = inv.conserved;
      break;
    }
  if constexpr (HasOutputs<M>)
    result.output_names.assign(M::kOutputs.begin(), M::kOutputs.end());
  if (hooks.outputs) hooks.outputs->start(result.output_names);

  if (spec.user_method) {  // a method the spec defines by its coefficients
    result.conserves_momentum = spec.user_method->declares_momentum();
    detail::run_user_method<M>(spec, result, [&]<class I>(const auto& coefficients, const StepControl& control) {
      if constexpr (std::is_same_v<I, ExternalIntegrator<M>>) {
        const ParameterSet parameters = preset_parameters(find_preset<M>(spec.preset), spec.parameters);
        const ExternalRunInputs inputs{.model = spec.model, .preset = spec.preset, .parameters = &parameters,
                                       .layout = &result.layout, .max_steps = spec.max_steps};
        detail::run_integrator<M>([&] { return std::make_unique<I>(coefficients, inputs, control); }, model, y, spec,
                                  hooks, result);
      } else {
        detail::run_integrator<M>(
            [&] { return std::make_unique<IntegratorAdapter<I, M>>(model, control, 0.0, spec.T, coefficients); },
            model, y, spec, hooks, result);
      }
    });
    return result;
  }
  const CompiledIntegrator<M>* method = find_compiled_integrator<M>(spec.integrator);
  if (!method) throw InputError("unknown integrator '" + spec.integrator + "' (see geomint list integrators)");
  const StepControl control = detail::checked_step_control(*method->entry, spec);
  if (method->runs && spec.compensated && !method->compensable) {
    detail::record_declaration(*method->on_model, result);
    detail::record_not_compensable(spec, result);
  } else if (method->runs) {
    detail::record_declaration(*method->on_model, result);
    result.conserves_momentum = method->on_model->symplectic;
    detail::run_integrator<M>([&] { return method->make(model, control, 0.0, spec.T); }, model, y,
                              spec, hooks, result);
  } else {
    detail::record_declaration(*method->entry, result);
    detail::record_not_applicable(spec, method->needs, result);
  }
  return result;
}

/// Builds the case's model and initial state as a run would, without running: an InputError
/// names what is wrong with the preset, the parameters or the initial state. Returns the
/// model's state layout and every invariant, with the case's parameters.
template <Model M>
std::pair<StateLayout, std::vector<Invariant>> check_initial_state_for(const CaseSpec& spec) {
  std::string notes;
  const auto setup = detail::case_model<M>(spec, notes);
  return {setup.model.state_layout(), all_invariants(setup.model)};
}

/// Whether the model has bodies on S^2, of which a study can take snapshots.
template <Model M>
bool has_bodies_for() {
  return detail::HasBodies<M>;
}

/// The model's exact state at T from the case's initial state, for a model that has a
/// closed-form solution (`exact_solution(y0, t)`); an InputError for one that has none.
template <Model M>
Eigen::VectorXd exact_final_state_for(const CaseSpec& spec) {
  if constexpr (requires(const M& m, const typename M::State& y) { m.exact_solution(y, 1.0); }) {
    std::string notes;
    const auto setup = detail::case_model<M>(spec, notes);
    return setup.model.exact_solution(setup.initial, spec.T);
  } else {
    throw InputError("model " + spec.model + " has no exact solution to use as the reference");
  }
}

}  // namespace geomint
