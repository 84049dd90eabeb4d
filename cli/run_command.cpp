// geomint run: one model, one integrator, one run; writes the full time series as CSV.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "integrators/failure.hpp"
#include "models/parameters.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/result_files.hpp"

namespace geomint::cli {

namespace {

struct RunOptions {
  std::string model, preset, integrator, out;
  std::vector<std::string> params, ics;
  double h = std::nan(""), rtol = std::nan(""), atol = std::nan(""), T = 1.0;
  bool project = false;
};

double parse_number(const std::string& text, const std::string& what) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size()) return v;
  } catch (const std::exception&) {
  }
  throw InputError(what + ": '" + text + "' is not a number");
}

/// "name=value" -> (name, value).
std::pair<std::string, std::string> split_assignment(const std::string& s, const std::string& option) {
  const auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(option + " " + s + ": expected name=value");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

CaseSpec case_from(const RunOptions& o) {
  CaseSpec c;
  c.study = "run";
  c.experiment = "run";
  c.model = o.model;
  c.preset = o.preset;
  if (c.preset.empty()) {
    const auto presets = find_model(o.model).presets();
    if (presets.empty()) throw InputError(o.model + " has no preset: give --preset");
    c.preset = presets.front().first;
  }
  for (const auto& p : o.params) {
    const auto [name, value] = split_assignment(p, "--param");
    c.parameters[name] = parse_number(value, "--param " + name);
  }
  // Every value against its parameter's domain now, before the output file is opened.
  find_model(o.model).parameters_for(c.preset, c.parameters);
  for (const auto& ic : o.ics) {
    const auto [name, value] = split_assignment(ic, "--ic");
    std::vector<double> values;
    std::size_t start = 0;
    for (std::size_t comma = 0; comma != std::string::npos; start = comma + 1) {
      comma = value.find(',', start);
      values.push_back(parse_number(value.substr(start, comma - start), "--ic " + name));
    }
    c.initial.emplace_back(name, Eigen::Map<const Eigen::VectorXd>(
                                     values.data(), static_cast<Eigen::Index>(values.size())));
  }
  c.project_initial = o.project;
  c.integrator = o.integrator;
  c.h = o.h;
  c.rtol = o.rtol;
  c.atol = o.atol;
  c.T = o.T;
  if (!(c.T > 0.0)) throw InputError("--T must be positive");
  return c;
}

int run(const RunOptions& o) {
  const CaseSpec spec = case_from(o);
  std::ofstream file;
  if (!o.out.empty() && o.out != "-") {
    file.open(o.out);
    if (!file) throw InputError("cannot write " + o.out);
  }
  std::ostream& out = file.is_open() ? static_cast<std::ostream&>(file) : std::cout;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  auto last_report = std::chrono::steady_clock::now();
  CaseHooks hooks;
  hooks.on_start = [&](const std::vector<std::string>& state, const std::vector<std::string>& inv) {
    out << "t";
    for (const auto& c : state) out << "," << c;
    for (const auto& c : inv) out << "," << c;
    out << "\n";
  };
  hooks.on_output = [&](double t, const Eigen::VectorXd& y, const std::vector<double>& inv) {
    out << csv_number(t);
    for (Eigen::Index i = 0; i < y.size(); ++i) out << "," << csv_number(y(i));
    for (double v : inv) out << "," << csv_number(v);
    out << "\n";
    if (terminal && std::chrono::steady_clock::now() - last_report > std::chrono::seconds(1)) {
      std::fprintf(stderr, "\rt = %.6g of %.6g (%.0f%%)", t, spec.T, 100.0 * t / spec.T);
      last_report = std::chrono::steady_clock::now();
    }
  };
  const CaseResult r = run_case(spec, hooks);
  out.flush();
  if (terminal) std::fprintf(stderr, "\r%60s\r", "");
  if (!r.notes.empty()) std::fprintf(stderr, "geomint run: %s\n", r.notes.c_str());
  if (r.status == "n/a") throw InputError(r.detail);
  std::fprintf(stderr,
               "geomint run: %s, %lld steps (%lld rejected), %lld evaluations, %.3g s; "
               "max |E - E0| = %.3e, largest manifold defect = %.3e\n",
               r.status.c_str(), static_cast<long long>(r.work.steps),
               static_cast<long long>(r.work.rejected), static_cast<long long>(r.work.f_evals),
               r.cpu_s, r.metrics.energy_err_max, r.metrics.manifold_defect_max);
  if (r.status != "ok") {
    std::fprintf(stderr, "geomint run: %s (the series up to the failure is kept)\n", r.detail.c_str());
    return 3;
  }
  return 0;
}

}  // namespace

Subcommand add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand(
      "run", "Integrate one model with one integrator; write t, the state (q1_x, ..., w1_x, ...) "
             "and the invariants (energy, ...) as CSV");
  cmd->add_option("--model", o->model, "model name (geomint list models)")->required();
  cmd->add_option("--preset", o->preset, "initial-condition preset (default: the model's first)");
  cmd->add_option("--param", o->params, "set a parameter, e.g. --param m1=2 (repeatable)");
  cmd->add_option("--ic", o->ics,
                  "set a block of the initial state, e.g. --ic q1=0,0,1 (repeatable; the blocks "
                  "are the state's column prefixes)");
  cmd->add_flag("--project", o->project,
                "project an initial state that is off the manifold (else it is refused)");
  cmd->add_option("--integrator", o->integrator, "integrator name (geomint list integrators)")
      ->required();
  cmd->add_option("--h", o->h, "step size of a fixed-step integrator");
  cmd->add_option("--rtol", o->rtol, "relative tolerance of an adaptive one (default 1e-3)");
  cmd->add_option("--atol", o->atol, "absolute tolerance of an adaptive one (default 1e-6)");
  cmd->add_option("--T", o->T, "final time (default 1)");
  cmd->add_option("--out", o->out, "CSV file to write (default: standard output)");
  return {cmd, [o] { return run(*o); }};
}

}  // namespace geomint::cli
