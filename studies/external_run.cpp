#include "studies/external_run.hpp"

#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "errors/exit_status_errors.hpp"
#include "models/parameter_domain.hpp"
#include "studies/command_process.hpp"

namespace geomint {

namespace {

/// A fresh folder of its own under the system's temporary folder, removed with this object.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "geomint-command-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw io_error("create a temporary folder like", pattern);
    path_ = pattern;
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  ~TemporaryFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

/// The initial-state file, {init} (docs/external-integrators.md).
nlohmann::json init_json(const ExternalRunInputs& in) {
  nlohmann::json parameters = nlohmann::json::object();
  for (const auto& p : in.parameters->list()) parameters[p.name] = p.value;
  nlohmann::json blocks = nlohmann::json::array();
  for (const auto& b : in.layout->blocks())
    blocks.push_back({{"name", b.name}, {"manifold", std::string(to_string(b.manifold))}, {"offset", b.offset}, {"size", b.size}});
  std::vector<std::string> columns = {"t"};
  for (const auto& c : in.layout->column_names()) columns.push_back(c);
  nlohmann::json j = {{"format", "geomint external integrator input 1"},
                      {"model", in.model},
                      {"preset", in.preset},
                      {"parameters", parameters},
                      {"blocks", blocks},
                      {"columns", columns},
                      {"state", std::vector<double>(in.initial.data(), in.initial.data() + in.initial.size())},
                      {"t0", in.t0},
                      {"T", in.T}};
  if (in.h) {
    j["h"] = *in.h;
    j["steps"] = in.steps;
  } else {
    j["rtol"] = in.rtol;
    j["atol"] = in.atol;
  }
  return j;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw io_error("write", path.string());
}

/// The placeholders' values (studies/external_command.hpp), unquoted.
std::map<std::string, std::string> placeholder_values(const ExternalRunInputs& in, const std::filesystem::path& folder) {
  std::string state, params;
  for (Eigen::Index i = 0; i < in.initial.size(); ++i) {
    if (i) state += ',';
    state += number_text(in.initial[i]);
  }
  for (const auto& p : in.parameters->list()) {
    if (!params.empty()) params += ',';
    params.append(p.name).append("=").append(number_text(p.value));
  }
  std::map<std::string, std::string> v = {
      {"model", in.model},         {"preset", in.preset},
      {"params", params},          {"state", state},
      {"init", (folder / "init.json").string()},
      {"out", (folder / "trajectory.csv").string()},
      {"work", (folder / "work.json").string()},
      {"t0", number_text(in.t0)},  {"T", number_text(in.T)}};
  if (in.h) {
    v["h"] = number_text(*in.h);
    v["steps"] = std::to_string(in.steps);
  } else {
    v["rtol"] = number_text(in.rtol);
    v["atol"] = number_text(in.atol);
  }
  return v;
}

/// The largest file a run may write: its rows of the state and as many columns again (its own
/// invariants, say) plus 64, at 40 characters a number, and 1 MiB; an adaptive run, whose rows
/// are not known, 1 GiB.
std::uint64_t output_limit(const ExternalRunInputs& in) {
  if (!in.h) return 1ull << 30;
  const double rows = static_cast<double>(in.steps) + 2.0;
  const double bytes = (1 << 20) + rows * (2.0 * static_cast<double>(in.initial.size()) + 65.0) * 40.0;
  return static_cast<std::uint64_t>(std::min(bytes, 4.0 * (1ull << 30)));
}

/// The work the command reported in {work}, over what was counted; MalformedOutput for a
/// file that is not a JSON object of the known counters and cpu_s.
void read_reported_work(const std::filesystem::path& path, double t0, Work& work, double& cpu_s) {
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(path, ec);
  if (!std::filesystem::exists(status)) return;
  // Six numbers: a pipe (which would block), a link (to /dev/zero, say) or anything long is
  // not what the command was asked to write.
  constexpr std::uintmax_t kMaxWorkBytes = 1 << 16;
  if (!std::filesystem::is_regular_file(status))
    throw MalformedOutput(t0, "its work file is not a regular file (a link, a pipe or a device)");
  if (std::filesystem::file_size(path, ec) > kMaxWorkBytes)
    throw MalformedOutput(t0, "its work file is longer than 64 KiB");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (!j.is_object()) throw MalformedOutput(t0, "its work file is not a JSON object");
  for (const auto& [key, value] : j.items()) {
    const bool count = key == "steps" || key == "rejected" || key == "f_evals" || key == "nonlinear_iterations" ||
                       key == "exponentials";
    if (!count && key != "cpu_s")
      throw MalformedOutput(t0, "its work file has an unknown key '" + key.substr(0, 40) +
                                    "' (known: steps, rejected, f_evals, nonlinear_iterations, exponentials, cpu_s)");
    if (count && !(value.is_number_unsigned()))
      throw MalformedOutput(t0, "its work file's " + key + " is not a whole number >= 0");
    if (!count && !(value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() >= 0.0))
      throw MalformedOutput(t0, "its work file's cpu_s is not a finite number >= 0");
  }
  const auto counter = [&](const char* key, std::int64_t& into) {
    if (j.contains(key)) into = static_cast<std::int64_t>(std::min<std::uint64_t>(j[key].get<std::uint64_t>(), INT64_MAX));
  };
  counter("steps", work.steps);
  counter("rejected", work.rejected);
  counter("f_evals", work.f_evals);
  counter("nonlinear_iterations", work.nonlinear_iterations);
  counter("exponentials", work.exponentials);
  if (j.contains("cpu_s")) cpu_s = j["cpu_s"].get<double>();
}

}  // namespace

ExternalRunResult run_external(const ExternalCommand& command, const ExternalRunInputs& in) {
  const TemporaryFolder folder;
  write_file(folder.path() / "init.json", init_json(in).dump(1) + "\n");
  const std::map<std::string, std::string> values = placeholder_values(in, folder.path());
  const CommandLimits limits{command.timeout_s, output_limit(in)};
  const CommandOutcome outcome =
      run_command(expand_command(command.command, values), command.directory, folder.path(), limits);
  if (outcome.timed_out) throw CommandTimeout(in.t0, "the command " + outcome.failure());
  if (!outcome.succeeded()) {
    std::string detail = "the command " + outcome.failure();
    std::error_code ec;
    for (const char* file : {"trajectory.csv", "stdout"})
      if (std::filesystem::file_size(folder.path() / file, ec) >= limits.max_file_bytes && !ec)
        detail += " (its " + std::string(file) + " reached the limit of " + std::to_string(limits.max_file_bytes) +
                  " bytes for a run of this size)";
    throw CommandFailed(in.t0, detail);
  }

  ExternalRunResult result;
  const std::size_t max_rows = in.h ? static_cast<std::size_t>(in.steps) + 1 : static_cast<std::size_t>(in.max_steps) + 1;
  result.trajectory = read_command_trajectory(folder.path() / "trajectory.csv",
                                              {in.layout->column_names(), in.initial, in.t0, in.T, max_rows});
  // Counted where not reported: the steps asked for (a fixed-step run) or the rows after the
  // first (an adaptive one); evaluations unknown (null in cases.csv, not 0).
  const auto rows = static_cast<std::int64_t>(result.trajectory.times.size());
  result.work.steps = in.h ? in.steps : std::max<std::int64_t>(0, rows - 1);
  result.work.f_evals = -1;
  result.cpu_s = outcome.cpu_s;
  read_reported_work(folder.path() / "work.json", in.t0, result.work, result.cpu_s);
  return result;
}

}  // namespace geomint
