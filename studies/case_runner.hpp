#pragma once
// Running one case on a model type: the place where the study level's type erasure meets the
// templates. Explicitly instantiated once per model (studies/run_<model>.cpp).

#include <time.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <string>

#include "integrators/failure.hpp"
#include "integrators/integrate.hpp"
#include "models/parameters.hpp"
#include "studies/case.hpp"
#include "studies/integrator_catalogue.hpp"
#include "studies/metrics.hpp"
#include "studies/user_method_runner.hpp"

namespace geomint {

namespace detail {

/// The step size to record at an output point: the spacing of the output points, unless the
/// integrator outputs several points per step (ode45's Refine) and says which step they are in.
template <class I>
double step_size(const I& integrator, double output_spacing) {
  if constexpr (requires { integrator.last_step(); })
    return integrator.last_step();
  else
    return output_spacing;
}

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

inline std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// Applies the case's initial-vector overrides and checks the result lies on (TS^2)^n:
/// an initial state off the manifold beyond 1e-12 is refused with the defect named, unless
/// the case asks for it to be projected, which is then reported in `notes`.
template <class Model>
void prepare_initial_state(const Model& model, const CaseSpec& spec, typename Model::State& y,
                           std::string& notes) {
  const auto names = model.state_vector_names();
  for (const auto& [name, value] : spec.initial) {
    Eigen::Index k = 0;
    while (k < static_cast<Eigen::Index>(names.size()) && names[static_cast<std::size_t>(k)] != name)
      ++k;
    if (k == static_cast<Eigen::Index>(names.size()))
      throw InputError(std::string(Model::kName) + ": unknown initial vector '" + name +
                       "' (the state has q1..qn and w1..wn)");
    y.template segment<3>(3 * k) = value;
  }
  const double unit = Model::unit_length_defect(y);
  const double tangency = Model::tangency_defect(y);
  if (unit <= 1e-12 && tangency <= 1e-12) return;
  const std::string defect = "max |‖q_i‖ - 1| = " + format_number(unit) +
                             ", max |q_i . w_i| = " + format_number(tangency);
  if (!spec.project_initial)
    throw InputError("the initial state is off the manifold (" + defect +
                     "); pass --project (or project_initial: true) to project it");
  model.project(y);
  notes += "initial state projected onto the manifold (" + defect + ")";
}

template <class Model>
void record_snapshot(const Model& model, double t, const typename Model::State& y,
                     SnapshotRecorder& rec) {
  if (rec.next >= rec.times.size() || t < rec.times[rec.next]) return;
  while (rec.next < rec.times.size() && t >= rec.times[rec.next]) ++rec.next;
  const auto q = Model::positions(y);
  char line[160];
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    std::snprintf(line, sizeof line, "%.17g,%ld,%.17g,%.17g,%.17g,%.17g\n", t,
                  static_cast<long>(i + 1), q(0, i), q(1, i), q(2, i),
                  model.body_kinetic_energy(y, i));
    rec.csv += line;
  }
}

/// `method...` follows the model and the options in I's constructor (a user method's
/// coefficients, studies/user_method_runner.hpp; nothing for a catalogued integrator).
template <class I, class Model, class... Method>
void run_integrator(const Model& model, typename Model::State y, const CaseSpec& spec,
                    const CaseHooks& hooks, CaseResult& result, const Method&... method) {
  using State = typename Model::State;
  IntegratorOptions opt;
  opt.h = spec.h;
  if (!std::isnan(spec.rtol)) opt.rtol = spec.rtol;
  if (!std::isnan(spec.atol)) opt.atol = spec.atol;
  opt.t0 = 0.0;
  opt.T = spec.T;
  const State y0 = y;

  MetricAccumulator metrics;
  double t_prev = 0.0;
  std::vector<double> invariants;
  Eigen::VectorXd state_out;
  I integrator(model, opt, method...);
  try {
    integrate(integrator, y, 0.0, spec.T, [&](double t, const State& s) {
      const Sample sample{t,
                          model.energy(s),
                          model.conserved_momentum(s),
                          model.momentum_count(),
                          Model::unit_length_defect(s),
                          Model::tangency_defect(s),
                          Model::mean_unit_length_error(s)};
      metrics.add(sample);
      if (hooks.series)
        hooks.series->add({t, metrics.energy_error(sample), metrics.energy_relative_error(sample),
                           sample.unit_length_defect, sample.tangency_defect,
                           metrics.momentum_error(sample), step_size(integrator, t - t_prev)});
      t_prev = t;
      if (hooks.snapshots) record_snapshot(model, t, s, *hooks.snapshots);
      if (hooks.on_output) {
        model.invariants(s, invariants);
        state_out = s;
        hooks.on_output(t, state_out, invariants);
      }
      if (sample.unit_length_defect > spec.left_manifold_at)
        throw LeftManifold(t, "max |‖q_i‖ - 1| = " + format_number(sample.unit_length_defect) +
                                  " exceeds " + format_number(spec.left_manifold_at));
    });
    result.final_state = y;
    if (hooks.reference)
      result.global_err = (result.final_state - hooks.reference->final_state).norm();
  } catch (const IntegrationFailure& failure) {
    result.status = std::string(to_string(failure.kind()));
    result.fail_time = failure.time();
    result.detail = failure.what();
  }
  result.work = integrator.work();
  result.metrics = metrics.result();

  // CPU time of the integration alone: the same (deterministic) run again without the
  // observer, whose metric evaluations can cost as much as a step.
  if (result.status == "ok") {
    I timed(model, opt, method...);
    State yt = y0;
    const double start = thread_cpu_seconds();
    integrate(timed, yt, 0.0, spec.T, [](double, const State&) {});
    result.cpu_s = thread_cpu_seconds() - start;
  }
}

}  // namespace detail

template <class Model>
CaseResult run_case_for(const CaseSpec& spec, const CaseHooks& hooks) {
  CaseResult result;
  const auto& preset = find_preset<Model>(spec.preset);
  const Model model(preset_parameters(preset, spec.parameters));
  auto y = preset.initial_state(model);
  detail::prepare_initial_state(model, spec, y, result.notes);
  for (const auto& v : model.state_vector_names())
    for (const char* axis : {"_x", "_y", "_z"}) result.state_names.push_back(v + axis);
  result.invariant_names = model.invariant_names();
  if (hooks.on_start) hooks.on_start(result.state_names, result.invariant_names);

  if (spec.user_method) {  // a method the spec defines by its coefficients
    detail::run_user_method<Model>(spec, result, [&]<class I>(const auto& coefficients) {
      detail::run_integrator<I>(model, y, spec, hooks, result, coefficients);
    });
    return result;
  }
  bool found = false;
  for_each_integrator([&]<class Entry>() {
    if (Entry::declaration.name != spec.integrator) return;
    found = true;
    result.family = std::string(to_string(Entry::declaration.family));
    result.nominal_order = Entry::declaration.order;
    result.adaptive = Entry::declaration.adaptive;
    result.symplectic = Entry::declaration.symplectic;
    result.stays_on_manifold = Entry::declaration.stays_on_manifold;
    if constexpr (Entry::template runs_on<Model>) {
      if (!Entry::declaration.adaptive && std::isnan(spec.h))
        throw InputError(spec.integrator + " is a fixed-step method: give a step size h");
      detail::run_integrator<typename Entry::template type<Model>>(model, y, spec, hooks, result);
    } else {
      result.status = "n/a";
      result.detail = "n/a: " + spec.model + " has no " + std::string(Entry::needs) + " view";
    }
  });
  if (!found) throw InputError("unknown integrator '" + spec.integrator + "' (see geomint list integrators)");
  return result;
}

}  // namespace geomint
