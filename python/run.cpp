// geomint.run: one model, one integrator, one run through the study engine's case runner, as
// `geomint run` (cli/run_command.cpp); the series it writes as CSV come back as NumPy arrays.
#include <pybind11/pybind11.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "python/arrays.hpp"
#include "python/errors.hpp"
#include "python/model_object.hpp"
#include "python/module_parts.hpp"
#include "python/run_series.hpp"
#include "studies/run_limits.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace geomint::python {

namespace {

struct RunResult {
  std::string model, preset, integrator, status, notes;
  py::array_t<double> t, state, final_state;
  py::list columns;
  py::dict invariants, outputs, work, metrics;
  double cpu_s = 0.0;
};

/// A setting given as a number, or None (NaN: the engine says which settings a method needs).
double optional_number(const py::handle& value, const char* name) {
  if (value.is_none()) return std::nan("");
  try {
    const double v = value.cast<double>();
    if (std::isfinite(v)) return v;
  } catch (const py::cast_error&) {
  }
  throw InputError(std::string(name) + " must be a finite number");
}

/// geomint.run's arguments.
struct RunArguments {
  py::handle model, preset, params, initial, h, rtol, atol;
  std::string integrator;
  double T, max_steps, max_output;
  bool project, compensated;
  long long every;
};

/// The case: the model (a name, or a geomint.Model with its preset and parameters), the
/// initial-state blocks, the integrator and its settings, checked as `geomint run` checks them.
CaseSpec case_spec(const RunArguments& a) {
  CaseSpec c;
  c.study = "python";
  c.experiment = "run";
  if (py::isinstance<ModelObject>(a.model)) {
    if (!a.preset.is_none() || !a.params.is_none())
      throw InputError(
          "the Model given has its preset and parameters: preset= and params= do not apply");
    const auto& m = a.model.cast<const ModelObject&>();
    c.model = m.face->name();
    c.preset = m.preset;
    c.parameters = m.overrides;
  } else if (py::isinstance<py::str>(a.model)) {
    c.model = a.model.cast<std::string>();
    const ModelFace& face = find_model(c.model);
    c.preset = preset_argument(face, a.preset);
    c.parameters = parameter_arguments(a.params);
    face.parameters_for(c.preset, c.parameters);  // every value against its domain, before running
  } else {
    throw InputError("model: expected a name (str) or a geomint.Model");
  }
  if (!a.initial.is_none()) {
    if (!py::isinstance<py::dict>(a.initial))
      throw InputError("initial: expected a dict of block names to arrays");
    for (const auto& [block, values] : a.initial.cast<py::dict>()) {
      const std::string name = py::str(block);
      c.initial.emplace_back(name, to_vector(values, ("initial " + name).c_str()));
    }
  }
  c.project_initial = a.project;
  c.compensated = a.compensated;
  c.integrator = a.integrator;
  c.h = optional_number(a.h, "h");
  c.rtol = optional_number(a.rtol, "rtol");
  c.atol = optional_number(a.atol, "atol");
  if (!(a.T > 0.0 && std::isfinite(a.T))) throw InputError("T must be a positive finite number");
  c.T = a.T;
  if (const auto why = step_cap_problem(a.max_steps)) throw InputError("max_steps " + *why);
  c.max_steps = a.max_steps;
  if (a.every < 1) throw InputError("every must be a whole number from 1");
  if (!(a.max_output > 0.0)) throw InputError("max_output must be a positive number of bytes");
  // The CPU time of the observed run itself: a repetition to time it apart would double the cost
  // of a long run (CaseSpec::timed_seconds).
  c.timed_seconds = -1.0;
  return c;
}

py::dict columns_of(const std::vector<std::string>& names,
                    const std::vector<std::vector<double>>& values) {
  py::dict out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& v = values[i];
    out[py::str(names[i])] =
        to_array(Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size())));
  }
  return out;
}

RunResult result_of(const CaseSpec& spec, const CaseResult& r, const RunSeries& series) {
  RunResult out;
  out.model = spec.model;
  out.preset = spec.preset;
  out.integrator = spec.integrator;
  out.status = r.status;
  out.notes = r.notes;
  const auto rows = static_cast<Eigen::Index>(series.t.size());
  const auto columns = static_cast<Eigen::Index>(series.state_names.size());
  out.t = to_array(Eigen::Map<const Eigen::VectorXd>(series.t.data(), rows));
  out.state = to_array(series.state, rows, columns);
  // The states held row after row are the columns of a column-major columns x rows matrix.
  const Eigen::Map<const Eigen::MatrixXd> states(series.state.data(), columns, rows);
  out.final_state = rows == 0 ? to_array(Eigen::VectorXd()) : to_array(states.col(rows - 1));
  for (const auto& name : series.state_names) out.columns.append(py::str(name));
  out.invariants = columns_of(series.invariant_names, series.invariants);
  out.outputs = columns_of(series.output_names, series.outputs);
  out.work = py::dict("steps"_a = r.work.steps, "rejected"_a = r.work.rejected,
                      "f_evals"_a = r.work.f_evals, "exponentials"_a = r.work.exponentials,
                      "nonlinear_iterations"_a = r.work.nonlinear_iterations);
  const Metrics& m = r.metrics;
  out.metrics = py::dict(
      "energy_err_max"_a = m.energy_err_max, "energy_err_mean"_a = m.energy_err_mean,
      "energy_rel_err_max"_a = m.energy_rel_err_max,
      "energy_drift_per_time"_a = m.energy_drift_per_time,
      "momentum_err_max"_a = m.momentum_err_max, "momentum_rel_err_max"_a = m.momentum_rel_err_max,
      "casimir_err_max"_a = m.casimir_err_max, "manifold_defect_max"_a = m.manifold_defect_max,
      "constraint_err_max"_a = m.constraint_err_max);
  out.cpu_s = r.cpu_s;
  return out;
}

py::object run(const RunArguments& a) {
  const CaseSpec spec = case_spec(a);
  RunSeries series(a.every, a.max_output);
  CaseHooks hooks;
  hooks.on_start = [&](const std::vector<std::string>& state, const std::vector<std::string>& inv,
                       const std::vector<std::string>& outputs) {
    series.start(state, inv, outputs);
    if (std::isnan(spec.h)) return;  // an adaptive run stops at the cap (TooMuchWork)
    const double rows =
        std::ceil(fixed_step_count(spec.T, spec.h) / static_cast<double>(a.every)) + 1.0;
    if (series.bytes(rows) <= a.max_output) return;
    char text[200];
    std::snprintf(text, sizeof text,
                  "the result of %.3g points is %.3g bytes, more than max_output = %.0f "
                  "(give every= or max_output=)",
                  rows, series.bytes(rows), a.max_output);
    throw InputError(text);
  };
  hooks.on_output = [&](double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
                        const std::vector<double>& outputs) { series.add(t, y, inv, outputs); };
  CaseResult r;
  try {
    py::gil_scoped_release release;
    r = run_case(spec, hooks);
    if (r.status != "n/a") series.finish();
  } catch (const Interrupted&) {
    throw py::error_already_set();  // the signal's exception, KeyboardInterrupt
  } catch (const TooMuchWork& e) {  // the held last point passed the cap
    r.status = std::string(to_string(e.kind()));
    r.detail = e.what();
    r.fail_time = e.time();
  }
  if (r.status == "n/a") throw InputError(r.detail);
  py::object result = py::cast(result_of(spec, r, series));
  if (r.status != "ok")
    raise_integration_failure(r.status, r.fail_time, static_cast<long long>(r.work.steps) + 1,
                              r.detail, result);
  return result;
}

}  // namespace

void bind_run(py::module_& m) {
  py::class_<RunResult>(m, "RunResult", "What geomint.run computed, at every kept output point.")
      .def_readonly("model", &RunResult::model)
      .def_readonly("preset", &RunResult::preset)
      .def_readonly("integrator", &RunResult::integrator)
      .def_readonly("status", &RunResult::status,
                    "ok, or the kind of failure (in an IntegrationFailure's partial)")
      .def_readonly("notes", &RunResult::notes, "e.g. that the initial state was projected")
      .def_readonly("t", &RunResult::t, "the output times")
      .def_readonly("state", &RunResult::state, "the states, one row per output time")
      .def_readonly("columns", &RunResult::columns,
                    "the state's column names, as `geomint run` writes them")
      .def_readonly("final_state", &RunResult::final_state, "the last row of state")
      .def_readonly("invariants", &RunResult::invariants, "every invariant's values, by name")
      .def_readonly("outputs", &RunResult::outputs,
                    "the model's named outputs' values, by name (few models have any)")
      .def_readonly("work", &RunResult::work,
                    "steps, rejected, f_evals, exponentials, nonlinear_iterations")
      .def_readonly("metrics", &RunResult::metrics,
                    "the case's metrics over every output point (cases.csv's columns)")
      .def_readonly("cpu_s", &RunResult::cpu_s, "the run's CPU time, its output included")
      .def("__repr__", [](const RunResult& r) {
        return "geomint.RunResult(" + r.model + ", " + r.integrator + ": " +
               std::to_string(r.t.size()) + " points, " + r.status + ")";
      });

  m.def(
      "run",
      [](const py::object& model, const std::string& integrator, const py::object& h, double T,
         const py::object& preset, const py::object& params, const py::object& initial,
         bool project, const py::object& rtol, const py::object& atol, bool compensated,
         double max_steps, long long every, double max_output) {
        return run({model, preset, params, initial, h, rtol, atol, integrator, T, max_steps,
                    max_output, project, compensated, every});
      },
      "model"_a, "integrator"_a, py::kw_only(), "h"_a = py::none(), "T"_a = 1.0,
      "preset"_a = py::none(), "params"_a = py::none(), "initial"_a = py::none(),
      "project"_a = false, "rtol"_a = py::none(), "atol"_a = py::none(), "compensated"_a = false,
      "max_steps"_a = RunLimits{}.max_steps, "every"_a = 1,
      "max_output"_a = RunLimits{}.max_output_bytes,
      "Integrate one model (a name, or a geomint.Model) with one integrator from 0 to T, as "
      "`geomint run`:\n"
      "h for a fixed-step method, rtol/atol for an adaptive one; preset= and params={name: value} "
      "as\n"
      "Model; initial={block: array} sets blocks of the initial state (refused off the manifold "
      "unless\n"
      "project=True); compensated=True sums a fixed-step update compensated. Keeps every output "
      "point,\n"
      "or every Nth and the last (every=N), up to max_output bytes; refuses more than max_steps "
      "steps.\n"
      "Returns a RunResult; a failure raises a subclass of IntegrationFailure whose partial holds "
      "the\n"
      "points up to it.");
}

}  // namespace geomint::python
