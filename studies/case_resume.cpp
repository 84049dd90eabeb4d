#include "studies/case_resume.hpp"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "studies/result_records.hpp"

namespace geomint {

namespace fs = std::filesystem;

namespace {

bool has_evocation_files(const nlohmann::json& record) {
  const auto evocation = record.find("evocation");
  return evocation != record.end() && evocation->is_object() && evocation->contains("files") &&
         (*evocation)["files"].is_object();
}

/// Why the record's series files and evocation are not the ones the job's experiment writes,
/// or nothing if they are.
std::optional<std::string> files_problem(const Job& job, nlohmann::json& record) {
  const auto files = record.find("series_files");
  if (files == record.end() || !files->is_object()) return "it does not list its series files";
  const bool series_expected = job.experiment->series && record["status"] != "n/a";
  if (series_expected != files->contains(job.id + ".csv")) return "its series files are not the experiment's";
  const bool evocation_expected = job.experiment->evokes(job.spec) && record["status"] != "n/a";
  if (evocation_expected != has_evocation_files(record)) return "its evocation is not the experiment's";
  return std::nullopt;
}

/// Whether every file the record lists is there with its checksum; a file that is there with
/// another is set aside.
bool files_whole(nlohmann::json& record, const ResultFolder& folder) {
  std::vector<std::pair<fs::path, const nlohmann::json*>> checked;  // each file and its checksum
  for (const auto& [name, checksum] : record["series_files"].items())
    checked.emplace_back(fs::path("series") / name, &checksum);
  if (has_evocation_files(record))
    for (const auto& [name, checksum] : record["evocation"]["files"].items()) checked.emplace_back(name, &checksum);
  for (const auto& [name, checksum] : checked) {
    const fs::path path = folder.path() / name;
    const auto content = folder.read(path);
    if (content && checksum->is_string() && hash_hex(*content) == checksum->get<std::string>()) continue;
    if (content) folder.set_aside(path, "its checksum does not match its case record");
    return false;
  }
  return true;
}

}  // namespace

std::optional<nlohmann::json> resumed_record(const Job& job, const ResultFolder& folder) {
  const fs::path file = folder.path() / "cases" / (job.id + ".json");
  const auto text = folder.read(file);
  if (!text) return std::nullopt;
  std::string problem;
  auto record = parse_case_record(*text, job.id, problem);
  if (!record) {
    folder.set_aside(file, problem);
    return std::nullopt;
  }
  if (const auto files = files_problem(job, *record)) {
    folder.set_aside(file, *files);
    return std::nullopt;
  }
  if (!files_whole(*record, folder)) return std::nullopt;
  return record;
}

}  // namespace geomint

