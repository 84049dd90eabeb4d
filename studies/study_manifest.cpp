#include "studies/study_manifest.hpp"

#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <limits>
#include <thread>

#include "models/manifold_signature.hpp"
#include "models/parameters.hpp"
#include "reference/sundials_build.hpp"
#include "studies/atomic_file.hpp"
#include "studies/build_info.hpp"
#include "studies/case_keys.hpp"
#include "catalogue/integrator_declarations.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/process_group.hpp"
#include "studies/result_files.hpp"

namespace geomint {

namespace {


std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

/// The experiment's model parameters as the cases run with them (defaults, then the preset's,
/// then the experiment's overrides).
nlohmann::json parameter_values(const ExperimentSpec& ex) {
  nlohmann::json j = nlohmann::json::object();
  const ParameterSet parameters = find_model(ex.model).parameters_for(ex.preset, ex.parameters);
  for (const auto& p : parameters.list()) j[p.name] = p.value;
  return j;
}

/// The manifold the model's state lives on (models/manifold_signature.hpp), as its default
/// parameters lay it out: the report groups the matrix's rows by its signature and names the
/// parts of the global error's distance by the blocks' manifolds (reports/manifolds.py).
nlohmann::json state_space_json(std::string_view model) {
  const StateLayout layout = find_model(model).declarations().first;
  auto manifolds = nlohmann::json::array();
  for (const auto& b : layout.blocks())
    if (std::find(manifolds.begin(), manifolds.end(), to_string(b.manifold)) == manifolds.end())
      manifolds.push_back(to_string(b.manifold));
  return {{"signature", manifold_signature(layout)}, {"block_manifolds", manifolds}};
}

/// Every catalogued integrator in catalogue order (families together), so that the report can
/// give each one colour in every figure of every study, whichever of them a figure shows.
nlohmann::json catalogue_json() {
  auto list = nlohmann::json::array();
  for (const auto& info : integrator_infos()) {
    const Declaration& d = info.declaration;
    list.push_back({{"name", d.name}, {"family", to_string(d.family)}, {"order", d.order}, {"adaptive", d.adaptive}});
  }
  return list;
}

/// The build that ran: revision, compiler, flags and the SUNDIALS it linked.
void record_build(nlohmann::json& m) {
  m["git_revision"] = build_info::kGitRevision;
  m["compiler"] = build_info::kCompiler;
  m["build_type"] = build_info::kBuildType;
  m["flags"] = build_info::kCxxFlags;
  const SundialsBuild sundials = sundials_build();
  m["sundials"] = {{"version", sundials_version()},
                   {"build", sundials.description},
                   {"optimised", sundials.optimised}};
}

nlohmann::json machine_json() {
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  return {{"hostname", host}, {"cpu", cpu_model()}, {"cores", std::thread::hardware_concurrency()}};
}

/// The evocations of the experiment's cases, as the report lists them.
nlohmann::json evocations_json(const ExperimentSpec& ex, const std::vector<nlohmann::json>& records) {
  auto evocations = nlohmann::json::array();
  for (const auto& r : records)
    if (r["experiment"] == ex.name && r.contains("evocation") && r["evocation"].is_object()) {
      const auto& e = r["evocation"];
      evocations.push_back({{"case_id", r["case_id"]}, {"integrator", r["integrator"]}, {"h", r["h"]},
                            {"status", e.value("status", "")}, {"detail", e.value("detail", "")},
                            {"dir", e.value("dir", "")}});
    }
  return evocations;
}

nlohmann::json experiment_json(const ExperimentSpec& ex, const ExperimentReference& ref,
                               const std::vector<nlohmann::json>& records) {
  nlohmann::json j = {{"name", ex.name},
                      {"title", ex.title},
                      {"description", ex.description},
                      {"model", ex.model},
                      {"preset", ex.preset},
                      {"parameters", parameter_values(ex)},
                      {"state_space", state_space_json(ex.model)},
                      {"T", ex.T},
                      {"reference", ref.description},
                      {"reference_err", json_number(ref.solution ? ref.solution->error_estimate : kNaN)},
                      {"plots", ex.plots},
                      {"evoke", ex.evoke ? scan_json(ex.evoke->scan) : nlohmann::json(nullptr)},
                      {"evocations", evocations_json(ex, records)}};
  if (ex.draws_formation()) {  // what the report draws at each time (models/formation.hpp)
    j["formation_times"] = ex.formation_times;
    j["curve_links"] = find_model(ex.model).curve_links();
  }
  if (!ex.components.empty()) {  // the columns of series/<case_id>-components.csv
    j["components"] = ex.components;
    if (ex.zoom) j["zoom"] = {ex.zoom->first, ex.zoom->second};
  }
  if (ex.has_plot("paths")) {  // models/configuration.hpp, or the S^2 blocks on the unit sphere
    j["paths"] = find_model(ex.model).draws_configuration() ? "configuration" : "sphere";
    j["path_times"] = ex.path_times;
  }
  return j;
}

}  // namespace

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void write_manifest(const std::filesystem::path& dir, const StudySpec& spec,
                    const std::map<std::string, ExperimentReference>& references,
                    const std::vector<nlohmann::json>& records, const StudySummary& summary,
                    const StudyRunFacts& facts) {
  nlohmann::json m;
  m["study"] = spec.name;
  m["kind"] = spec.kind;
  m["title"] = spec.title;
  m["description"] = spec.description;
  m["spec_file"] = spec.file;
  m["spec"] = spec.as_json;
  record_build(m);
  m["machine"] = machine_json();
  m["started"] = facts.started;
  m["finished"] = utc_now();
  m["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - facts.wall_start).count();
  m["cases"] = summary.cases;
  m["failed"] = summary.failed;
  // The schedule's figures (studies/case_schedule.hpp): the CPU time of the cases this run
  // ran, over the processes and threads that ran them.
  m["cases_cpu_s"] = facts.cases_cpu_s;
  m["references_s"] = facts.references_s;  // the wall time before the first case: rank 0's references
  m["ranks"] = process_count();
  m["threads_per_rank"] = facts.threads_per_rank;
  m["resumed"] = summary.resumed;
  auto experiments = nlohmann::json::array();
  for (const auto& ex : spec.experiments) experiments.push_back(experiment_json(ex, references.at(ex.name), records));
  m["experiments"] = experiments;
  m["figures"] = spec.figures;
  m["catalogue"] = catalogue_json();
  write_file_atomically(dir / "manifest.json", m.dump(2));
}

}  // namespace geomint
