// geomint run: one model, one integrator, one run; writes the time series as CSV, every output
// point or every Nth (--every).
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/limit_options.hpp"
#include "cli/series_writer.hpp"
#include "errors/exit_status_errors.hpp"
#include "models/invariant.hpp"
#include "studies/atomic_file.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/result_files.hpp"
#include "studies/run_limits.hpp"

namespace geomint::cli {

namespace {

/// A figure of the run's summary line: the value, or "none declared" where the model declares no
/// invariant of that kind (studies/metrics.cpp reads the same declarations); a NaN measured
/// from a declared one still prints as nan.
std::string summary_figure(const std::vector<Invariant>& declared, InvariantKind kind, double value) {
  const bool any = std::any_of(declared.begin(), declared.end(),
                               [kind](const Invariant& inv) { return inv.kind == kind; });
  if (!any) return "none declared";
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", value);
  return text;
}

struct RunOptions {
  std::string model, preset, integrator, out;
  std::vector<std::string> params, ics;
  std::optional<double> h, rtol, atol;  // only what is given: a method refuses what it does not use
  double T = 1.0;
  double max_steps = RunLimits{}.max_steps;
  std::string max_output;
  std::string every = "1";  // write every Nth output point, and the first and the last
  bool project = false;
};

/// A number, finite unless the caller checks it against a domain that names the problem.
double parse_number(const std::string& text, const std::string& what, bool domain_checked = false) {
  try {
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used == text.size() && (domain_checked || std::isfinite(v))) return v;
  } catch (const std::exception&) {
  }
  throw InputError(what + ": '" + text + "' is not a finite number");
}

/// "name=value" -> (name, value).
std::pair<std::string, std::string> split_assignment(const std::string& s, const std::string& option) {
  const auto eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(option + " " + s + ": expected name=value");
  return {s.substr(0, eq), s.substr(eq + 1)};
}

double given(const std::optional<double>& v) { return v ? *v : std::nan(""); }

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
    c.parameters[name] = parse_number(value, "--param " + name, /*domain_checked=*/true);
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
  for (const auto& [value, option] : {std::pair{o.h, "--h"}, {o.rtol, "--rtol"}, {o.atol, "--atol"}})
    if (value && !std::isfinite(*value)) throw InputError(std::string(option) + " must be a finite number");
  c.h = given(o.h);
  c.rtol = given(o.rtol);
  c.atol = given(o.atol);
  if (!(o.T > 0.0 && std::isfinite(o.T))) throw InputError("--T must be a positive finite number");
  c.T = o.T;
  if (const auto why = step_cap_problem(o.max_steps)) throw InputError("--max-steps " + *why);
  c.max_steps = o.max_steps;
  return c;
}

/// --every N: a whole number from 1 (parsed here: CLI11 would wrap 2^63 around, and its range
/// check names the largest double).
long long every_point(const RunOptions& o) {
  long long n = 0;
  const char* end = o.every.data() + o.every.size();
  const auto [stop, error] = std::from_chars(o.every.data(), end, n);
  if (o.every.empty() || error != std::errc() || stop != end || n < 1)
    throw InputError("--every " + o.every + ": expected a whole number from 1 to " +
                     std::to_string(std::numeric_limits<long long>::max()));
  return n;
}

double output_cap(const RunOptions& o) {
  return o.max_output.empty() ? RunLimits{}.max_output_bytes : max_output_bytes(o.max_output);
}

/// The bytes a CSV row of `columns` numbers can take: 24 characters a number and a separator.
constexpr double kRowBytesPerColumn = 25.0;

/// Refuses a fixed-step run whose output, known before it starts, would pass the cap.
void check_output_estimate(const CaseSpec& spec, long long every, double max_output, std::size_t columns) {
  if (std::isnan(spec.h)) return;
  const double rows = rows_written(fixed_step_count(spec.T, spec.h), every);
  const double estimate = rows * static_cast<double>(columns) * kRowBytesPerColumn;
  if (estimate <= max_output) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "the output of %.3g rows of %zu columns is up to %.3g bytes, more than --max-output %.0f",
                rows, columns, estimate, max_output);
  throw InputError(buf);
}

int run(const RunOptions& o) {
  const CaseSpec spec = case_from(o);
  const double max_output = output_cap(o);
  const long long every = every_point(o);
  AtomicFile out = o.out.empty() || o.out == "-" ? AtomicFile::standard_output() : AtomicFile(o.out);
  SeriesWriter series(out, max_output, every);
  const bool terminal = isatty(STDERR_FILENO) != 0;
  auto last_report = std::chrono::steady_clock::now();
  CaseHooks hooks;
  hooks.on_start = [&](const std::vector<std::string>& state, const std::vector<std::string>& inv,
                       const std::vector<std::string>& outputs) {
    check_output_estimate(spec, every, max_output, 1 + state.size() + inv.size() + outputs.size());
    series.header(state, inv, outputs);
  };
  hooks.on_output = [&](double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
                        const std::vector<double>& outputs) {
    series.point(t, y, inv, outputs);
    if (terminal && std::chrono::steady_clock::now() - last_report > std::chrono::seconds(1)) {
      std::fprintf(stderr, "\rt = %.6g of %.6g (%.0f%%)", t, spec.T, 100.0 * t / spec.T);
      last_report = std::chrono::steady_clock::now();
    }
  };
  CaseResult r = run_case(spec, hooks);
  if (terminal) std::fprintf(stderr, "\r%60s\r", "");
  if (r.status == "n/a") throw InputError(r.detail);
  try {
    series.finish();
  } catch (const TooMuchWork& e) {
    r.status = std::string(to_string(e.kind()));
    r.detail = e.what();
  }
  out.commit();  // the series up to a failure is kept too
  if (r.status != "ok") {
    std::fprintf(stderr, "geomint run: %s (step %lld; the output up to it is kept)\n", r.detail.c_str(),
                 static_cast<long long>(r.work.steps + 1));
    return 3;
  }
  if (!r.notes.empty()) std::fprintf(stderr, "geomint run: %s\n", r.notes.c_str());
  const std::vector<Invariant> declared = find_model(spec.model).declarations().second;
  std::fprintf(stderr,
               "geomint run: ok, %lld steps (%lld rejected), %lld evaluations, %.3g s; "
               "max |E - E0| = %s, largest manifold defect = %s\n",
               static_cast<long long>(r.work.steps), static_cast<long long>(r.work.rejected),
               static_cast<long long>(r.work.f_evals), r.cpu_s,
               summary_figure(declared, InvariantKind::Energy, r.metrics.energy_err_max).c_str(),
               summary_figure(declared, InvariantKind::ManifoldDefect,
                              r.metrics.manifold_defect_max).c_str());
  return 0;
}

}  // namespace

Subcommand add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand(
      "run", "Integrate one model with one integrator; write t, the state (q1_x, ..., w1_x, ...), "
             "the invariants (energy, ...) and the model's named outputs, if it has any, as CSV");
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
  cmd->add_option("--max-steps", o->max_steps,
                  "refuse a fixed-step run of more steps, stop an adaptive one there (default 1e7)");
  cmd->add_option("--max-output", o->max_output,
                  "refuse a run whose CSV would be larger, stop an adaptive one there (bytes, or e.g. "
                  "2GiB; default 1GiB)");
  cmd->add_option("--every", o->every,
                  "write every Nth output point (a fixed-step method's step, an adaptive one's "
                  "output point), and always the first and the last (default 1: all); the "
                  "summary's errors are over every point");
  cmd->add_option("--out", o->out,
                  "CSV file to write (default: standard output); written to OUT.tmp.<pid> and renamed "
                  "when done, so a refused run leaves an existing OUT as it was");
  return {cmd, [o] { return run(*o); }};
}

}  // namespace geomint::cli
