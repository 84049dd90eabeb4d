// geomint.verify: an integrator's declared promises verified on chosen models by the study
// engine (studies/verification.hpp), as `geomint verify` (cli/verify_command.cpp). The integrator
// is a built-in one's name, a command template (docs/external-integrators.md), or a Python
// step function step(model, t, y, h) -> y_next defined in a file: geomint then runs that file's
// function in a Python process of its own per case, through the same command path (the
// file's content keys the results, a timeout and the output limit hold, a failure is typed).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <Eigen/Core>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "models/parameter_domain.hpp"
#include "python/arrays.hpp"
#include "python/module_parts.hpp"
#include "studies/engine.hpp"
#include "studies/verification.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace geomint::python {

namespace {

/// Text for a command template: braces doubled, so that they are not placeholders.
std::string template_literal(const std::string& text) {
  std::string out;
  for (const char c : text) {
    out += c;
    if (c == '{' || c == '}') out += c;
  }
  return out;
}

/// The command that runs `step`, a function defined at the top level of a file, in a Python
/// process of its own on each case (_step_runner below).
std::string step_function_command(const py::object& step) {
  const py::object inspect = py::module_::import("inspect");
  const py::object file = inspect.attr("getsourcefile")(step);
  const std::string qualname = py::str(step.attr("__qualname__"));
  if (file.is_none() || qualname.find('<') != std::string::npos)
    throw InputError("verify: the step function " + qualname +
                     " must be defined at the top level of a file (a lambda or a function typed at the prompt "
                     "cannot be run in a process of its own)");
  const std::string path = std::filesystem::absolute(file.cast<std::string>()).string();
  const std::string python = py::module_::import("sys").attr("executable").cast<std::string>();
  const std::string module_dir =
      std::filesystem::path(py::module_::import("geomint").attr("__file__").cast<std::string>()).parent_path().string();
  return template_literal("PYTHONPATH=" + shell_quoted(module_dir) + "${PYTHONPATH:+:$PYTHONPATH} " +
                          shell_quoted(python) + " -c " +
                          shell_quoted("import sys, geomint; geomint._step_runner(*sys.argv[1:])") + " " +
                          shell_quoted(path) + " " + shell_quoted(qualname)) +
         " {init} {out} {work}";
}

py::dict verdict_dict(const Verdict& v) {
  return py::dict("experiment"_a = v.experiment, "model"_a = v.model, "integrator"_a = v.integrator,
                  "promise"_a = v.promise, "state"_a = std::string(to_string(v.state)), "why"_a = v.why,
                  "value"_a = v.value, "bound"_a = v.bound, "reason"_a = v.reason);
}

py::dict verify(const py::object& integrator, const std::vector<std::string>& models, const std::string& out, int order,
                bool adaptive, bool symplectic, bool symmetric, bool stays_on_manifold, bool momentum,
                const std::string& name, const std::string& preset, const py::object& T, const std::vector<double>& h,
                const std::vector<double>& rtol, bool long_run, double timeout, int jobs, bool progress) {
  VerificationRequest r;
  r.models = models;
  r.preset = preset;
  if (!T.is_none()) r.T = T.cast<double>();
  r.h = h;
  r.rtol = rtol;
  r.long_run = long_run;
  const bool builtin = py::isinstance<py::str>(integrator) && integrator.cast<std::string>().find('{') == std::string::npos;
  if (builtin) {
    if (order != 0 || adaptive || symplectic || symmetric || stays_on_manifold || momentum)
      throw InputError("verify: the built-in " + integrator.cast<std::string>() + " declares its own promises");
    r.name = integrator.cast<std::string>();
  } else {
    if (order < 1) throw InputError("verify: give order, the order the integrator promises (1 to 20)");
    std::string command;
    if (py::isinstance<py::str>(integrator)) {
      command = integrator.cast<std::string>();
    } else if (PyCallable_Check(integrator.ptr())) {
      if (adaptive) throw InputError("verify: a step function takes fixed steps h (adaptive=False)");
      command = step_function_command(integrator);
    } else {
      throw InputError("verify: the integrator is a built-in's name, a command template or a step function");
    }
    if (!name.empty()) r.name = name;
    else if (py::isinstance<py::str>(integrator)) r.name = "external";
    else r.name = py::str(integrator.attr("__name__")).cast<std::string>();
    r.command = command_in_current_folder(
        std::move(command), {order, adaptive, symplectic, symmetric, stays_on_manifold, momentum}, timeout);
  }
  const StudyOptions options{.out_dir = out, .jobs = jobs, .progress = progress};
  VerificationResult result;
  {
    py::gil_scoped_release release;
    result = run_verification(r, options);
  }
  py::list verdicts, broken;
  int kept = 0, not_checked = 0;
  for (const Verdict& v : result.verdicts) {
    verdicts.append(verdict_dict(v));
    if (v.state == VerdictState::Broken) broken.append(verdict_dict(v));
    kept += v.state == VerdictState::Kept;
    not_checked += v.state == VerdictState::NotChecked;
  }
  return py::dict("folder"_a = out, "integrator"_a = r.name, "verdicts"_a = verdicts, "broken"_a = broken,
                  "kept"_a = kept, "not_checked"_a = not_checked, "cases"_a = result.summary.cases,
                  "failed"_a = result.summary.failed, "first_failure"_a = result.summary.first_failure);
}

/// The process geomint runs per case for a step function (step_function_command): the
/// function loaded from its file (as a module of its own name, so that the file's
/// `if __name__ == "__main__":` part does not run again), stepped over the case as the
/// initial-state file says, the trajectory and the work written as the contract says.
void step_runner(const std::string& file, const std::string& qualname, const std::string& init_path,
                 const std::string& out, const std::string& work) {
  const py::module_ util = py::module_::import("importlib.util");
  const py::object spec = util.attr("spec_from_file_location")("geomint_step_function", file);
  const py::object module = util.attr("module_from_spec")(spec);
  spec.attr("loader").attr("exec_module")(module);
  py::object step = module;
  for (const auto& part : py::str(qualname).attr("split")(".")) step = step.attr(part);

  const py::dict init = py::module_::import("json").attr("load")(
      py::module_::import("builtins").attr("open")(init_path));
  const py::object model = py::module_::import("geomint").attr("Model")(init["model"], "preset"_a = init["preset"],
                                                                        "params"_a = init["parameters"]);
  const auto columns = init["columns"].cast<std::vector<std::string>>();
  const double t0 = init["t0"].cast<double>(), T = init["T"].cast<double>(), h = init["h"].cast<double>();
  const auto steps = init["steps"].cast<std::int64_t>();
  Eigen::VectorXd y = to_vector(init["state"], "the initial state");
  std::ofstream csv(out);
  for (std::size_t j = 0; j < columns.size(); ++j) csv << (j ? "," : "") << columns[j];
  const auto row = [&](double t) {
    csv << '\n' << number_text(t);
    for (Eigen::Index i = 0; i < y.size(); ++i) csv << ',' << number_text(y[i]);
  };
  row(t0);
  const std::clock_t start = std::clock();
  double t = t0;
  for (std::int64_t k = 0; k < steps; ++k) {  // all steps h but the last, which ends at T
    const double t_next = k == steps - 1 ? T : t0 + static_cast<double>(k + 1) * h;
    y = to_vector(step(model, t, to_array(y), t_next - t), "the step function's result");
    t = t_next;
    row(t);
  }
  csv << '\n';
  const double cpu_s = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  std::ofstream(work) << "{\"steps\": " << steps << ", \"cpu_s\": " << number_text(cpu_s) << "}\n";
  if (!csv) throw IoError("cannot write " + out);
}

}  // namespace

void bind_verify(py::module_& m) {
  m.def("verify", &verify, "integrator"_a, py::kw_only(), "models"_a, "out"_a, "order"_a = 0, "adaptive"_a = false,
        "symplectic"_a = false, "symmetric"_a = false, "stays_on_manifold"_a = false, "momentum"_a = false,
        "name"_a = "", "preset"_a = "", "T"_a = py::none(), "h"_a = std::vector<double>{},
        "rtol"_a = std::vector<double>{}, "long"_a = false, "timeout"_a = 600.0, "jobs"_a = 0, "progress"_a = false,
        "Verify an integrator's declared promises on models, as `geomint verify`: a generated study\n"
        "(out/verify.yaml) per model's exercise, its order against the model's exact solution or\n"
        "Fehlberg 7(8), and what else it declares (docs/external-integrators.md).\n\n"
        "integrator: a built-in's name; a command template (\"python3 rk.py --init {init} --out {out}\");\n"
        "or a step function step(model, t, y, h) -> y_next, defined at the top level of a file\n"
        "(each case runs it in a Python process of its own, so call verify under\n"
        "`if __name__ == \"__main__\":`), model a geomint.Model, y a NumPy array.\n"
        "order, adaptive, symplectic, symmetric, stays_on_manifold, momentum: its promises.\n"
        "Returns a dict: folder, integrator, verdicts (a dict each: model, promise, state, value,\n"
        "bound, reason, ...), broken (those broken), kept, not_checked, cases, failed, first_failure.");
  m.def("_step_runner", &step_runner, "file"_a, "qualname"_a, "init"_a, "out"_a, "work"_a,
        "What geomint runs per case of a step function given to verify (not for direct use).");
}

}  // namespace geomint::python
