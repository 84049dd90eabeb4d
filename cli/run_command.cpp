// geomint run: one model, one integrator, one run; writes the time series as CSV, every output
// point, every Nth (--every) or those at chosen times (--output-times); or, for a long run, only
// its long-time statistics (--stats-only, studies/long_time_statistics.hpp) as JSON.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/limit_options.hpp"
#include "cli/series_writer.hpp"
#include "errors/exit_status_errors.hpp"
#include "models/invariant.hpp"
#include "studies/atomic_file.hpp"
#include "studies/long_time_record.hpp"
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
  std::string model, integrator;
  std::optional<std::string> preset;  // else the model's first
  std::optional<std::string> out;     // else standard output
  std::vector<std::string> params, ics;
  std::optional<double> h, rtol, atol;  // only what is given: a method refuses what it does not use
  double T = 1.0;
  double max_steps = RunLimits{}.max_steps;
  std::string max_output;
  std::optional<std::string> every;  // write every Nth output point, and the first and the last
  std::optional<std::string> output_times;  // "a:step:b" or "t1,t2,...": the first point at or after each
  bool stats_only = false;   // the long-time statistics, no series
  bool project = false;
  bool compensated = false;  // compensated summation of a fixed-step update
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
  const auto presets = find_model(o.model).presets();
  if (o.preset && o.preset->empty()) throw InputError("--preset is empty: name one of " + o.model + "'s presets (geomint list presets)");
  if (!o.preset && presets.empty()) throw InputError(o.model + " has no preset: give --preset");
  c.preset = o.preset ? *o.preset : presets.front().first;
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
  c.compensated = o.compensated;
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
long long every_point(const std::string& every) {
  long long n = 0;
  const char* end = every.data() + every.size();
  const auto [stop, error] = std::from_chars(every.data(), end, n);
  if (every.empty() || error != std::errc() || stop != end || n < 1)
    throw InputError("--every " + every + ": expected a whole number from 1 to " +
                     std::to_string(std::numeric_limits<long long>::max()));
  return n;
}

/// --output-times "a:step:b" (uniform) or "t1,t2,..." (increasing), every time in [0, T].
OutputSelection output_times(const RunOptions& o) {
  OutputSelection s;
  const std::string& text = *o.output_times;
  const std::string what = "--output-times " + text;
  const auto in_run = [&](double t) {
    if (!(t >= 0.0 && t <= o.T))
      throw InputError(what + ": " + csv_number(t) + " is not in [0, T = " + csv_number(o.T) + "]");
  };
  if (text.find(':') != std::string::npos) {
    const auto first = text.find(':'), second = text.find(':', first + 1);
    if (second == std::string::npos || text.find(':', second + 1) != std::string::npos)
      throw InputError(what + ": expected start:step:stop or t1,t2,...");
    s.start = parse_number(text.substr(0, first), "--output-times start");
    s.step = parse_number(text.substr(first + 1, second - first - 1), "--output-times step");
    const double stop = parse_number(text.substr(second + 1), "--output-times stop");
    if (!(s.step > 0.0)) throw InputError(what + ": the step must be positive");
    in_run(s.start);
    in_run(stop);
    if (stop < s.start) throw InputError(what + ": stop is before start");
    const double count = std::floor((stop - s.start) / s.step * (1.0 + 1e-12)) + 1.0;
    if (!(count <= kLargestStepCap)) throw InputError(what + ": more than 2^53 output times");
    s.count = static_cast<long long>(count);
    return s;
  }
  std::size_t start = 0;
  for (std::size_t comma = 0; comma != std::string::npos; start = comma + 1) {
    comma = text.find(',', start);
    const double t = parse_number(text.substr(start, comma - start), "--output-times");
    in_run(t);
    if (!s.listed.empty() && !(t > s.listed.back()))
      throw InputError(what + ": the times must increase (" + csv_number(t) + " after " + csv_number(s.listed.back()) + ")");
    s.listed.push_back(t);
  }
  return s;
}

/// Which output points the run writes: --every, --output-times, or (--stats-only) none.
OutputSelection output_selection(const RunOptions& o) {
  if (o.stats_only && (o.every || o.output_times))
    throw InputError("--stats-only writes no series: --every and --output-times do not apply");
  if (o.every && o.output_times) throw InputError("give --every or --output-times, not both");
  if (o.output_times) return output_times(o);
  OutputSelection s;
  if (o.every) s.every = every_point(*o.every);
  return s;
}

double output_cap(const RunOptions& o) {
  return o.max_output.empty() ? RunLimits{}.max_output_bytes : max_output_bytes(o.max_output);
}

/// The bytes a CSV row of `columns` numbers can take: 24 characters a number and a separator.
constexpr double kRowBytesPerColumn = 25.0;

/// Refuses a run whose output, known before it starts (a fixed-step run's, or one at listed
/// times), would pass the cap.
void check_output_estimate(const CaseSpec& spec, const OutputSelection& selection, double max_output,
                           std::size_t columns) {
  if (std::isnan(spec.h) && !selection.by_time()) return;
  const double rows = selection.rows(std::isnan(spec.h) ? 0.0 : fixed_step_count(spec.T, spec.h));
  const double estimate = rows * static_cast<double>(columns) * kRowBytesPerColumn;
  if (estimate <= max_output) return;
  char buf[160];
  std::snprintf(buf, sizeof buf, "the output of %.3g rows of %zu columns is up to %.3g bytes, more than --max-output %.0f",
                rows, columns, estimate, max_output);
  throw InputError(buf);
}

/// The summary line of a finished run.
void print_summary(const CaseSpec& spec, const CaseResult& r) {
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
}

/// The run's output: standard output, or the file --out names in a folder that exists (a run
/// does not make folders: a mistyped path is named, not created).
AtomicFile open_output(const std::optional<std::string>& out) {
  if (!out || *out == "-") return AtomicFile::standard_output();
  if (out->empty()) throw InputError("--out is empty: give a file, or - for standard output");
  const std::filesystem::path folder = std::filesystem::path(*out).parent_path();
  if (!folder.empty() && !std::filesystem::is_directory(folder))
    throw IoError("cannot write " + *out + ": the folder " + folder.string() + " does not exist");
  return AtomicFile(*out);
}

int run(const RunOptions& o) {
  const CaseSpec spec = case_from(o);
  const double max_output = output_cap(o);
  const OutputSelection selection = output_selection(o);
  AtomicFile out = open_output(o.out);
  SeriesWriter series(out, max_output, selection);
  LongTimeStatistics stats;
  const bool terminal = isatty(STDERR_FILENO) != 0;
  auto last_report = std::chrono::steady_clock::now();
  CaseHooks hooks;
  if (o.stats_only) {
    hooks.long_time = &stats;
  } else {
    hooks.on_start = [&](const std::vector<std::string>& state, const std::vector<std::string>& inv,
                         const std::vector<std::string>& outputs) {
      check_output_estimate(spec, selection, max_output, 1 + state.size() + inv.size() + outputs.size());
      series.header(state, inv, outputs);
    };
  }
  if (!o.stats_only || terminal)
    hooks.on_output = [&](double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
                          const std::vector<double>& outputs) {
      if (!o.stats_only) series.point(t, y, inv, outputs);
      if (terminal && std::chrono::steady_clock::now() - last_report > std::chrono::seconds(1)) {
        std::fprintf(stderr, "\rt = %.6g of %.6g (%.0f%%)", t, spec.T, 100.0 * t / spec.T);
        last_report = std::chrono::steady_clock::now();
      }
    };
  CaseResult r = run_case(spec, hooks);
  if (terminal) std::fprintf(stderr, "\r%60s\r", "");
  if (r.status == "n/a") throw InputError(r.detail);
  try {
    if (o.stats_only) out.write(long_time_json(stats.summaries(), stats.points(), stats.samples()).dump(1) + "\n");
    else series.finish();
  } catch (const TooMuchWork& e) {
    r.status = std::string(to_string(e.kind()));
    r.detail = e.what();
  }
  out.commit();  // the series (or the statistics) up to a failure is kept too
  if (r.status != "ok") {
    std::fprintf(stderr, "geomint run: %s (step %lld; the output up to it is kept)\n", r.detail.c_str(),
                 static_cast<long long>(r.work.steps + 1));
    return 3;
  }
  print_summary(spec, r);
  if (o.stats_only)
    for (const LongTimeSummary& s : stats.summaries()) std::fprintf(stderr, "geomint run: %s\n", long_time_line(s).c_str());
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
                  "refuse a fixed-step run of more steps, stop an adaptive one there (default 1e8)");
  cmd->add_option("--max-output", o->max_output,
                  "refuse a run whose CSV would be larger, stop an adaptive one there (bytes, or e.g. "
                  "2GiB; default 1GiB)");
  cmd->add_option("--every", o->every,
                  "write every Nth output point (a fixed-step method's step, an adaptive one's "
                  "output point), and always the first and the last (default 1: all); the "
                  "summary's errors are over every point");
  cmd->add_option("--output-times", o->output_times,
                  "write the first output point at or after each of these times: start:step:stop "
                  "(uniform) or t1,t2,... (increasing), each in [0, T]");
  cmd->add_flag("--stats-only", o->stats_only,
                "write no series: the long-time statistics of every conserved invariant and "
                "manifold defect (per logarithmic time bin, growth exponent, drift) as JSON, and "
                "one line each on standard error");
  cmd->add_flag("--compensated", o->compensated,
                "sum a fixed-step method's update compensated (Kahan-style, "
                "integrators/compensated_sum.hpp): the explicit and implicit VI, RKMK on SO(3) and "
                "SE(3) actions, SLGI on the rigid body and the heavy top, and their compositions "
                "have it; for the others the run is refused");
  cmd->add_option("--out", o->out,
                  "CSV file to write (default: standard output); written to OUT.tmp.<pid> and renamed "
                  "when done, so a refused run leaves an existing OUT as it was");
  return {cmd, [o] { return run(*o); }};
}

}  // namespace geomint::cli
