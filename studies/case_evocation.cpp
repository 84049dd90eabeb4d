#include "studies/case_evocation.hpp"

#include "errors/exit_status_errors.hpp"
#include "studies/evocation_files.hpp"
#include "studies/result_files.hpp"

namespace geomint {

std::string evocation_dir(const std::string& case_id) { return "evocation/" + case_id; }

nlohmann::json evoke_case(const std::filesystem::path& dir, const std::string& case_id, const CaseResult& result,
                          const PositionRecorder& positions, const EvocationScan& scan) {
  nlohmann::json j = {{"status", "ok"},         {"detail", ""},
                      {"dir", evocation_dir(case_id)}, {"stride", positions.stride()},
                      {"samples", 0},           {"critical_frequency", nullptr},
                      {"files", nlohmann::json::object()}};
  if (result.status != "ok") {
    j["status"] = "skipped";
    j["detail"] = "the run did not finish (" + result.status + "): no trajectory to evoke patterns in";
    return j;
  }
  const TrajectoryPositions trajectory = positions.trajectory();
  Evocation e;
  try {
    e = evoke_patterns(trajectory.times, trajectory.positions, scan);
  } catch (const InputError& error) {
    j["status"] = "failed";
    j["detail"] = error.what();
    return j;
  }
  const std::string source =
      "case " + case_id + " (the positions at every " +
      (positions.stride() == 1 ? std::string("step") : std::to_string(positions.stride()) + " steps") + ")";
  for (const auto& [name, checksum] : write_evocation(dir / evocation_dir(case_id), source, trajectory, scan, e))
    j["files"][evocation_dir(case_id) + "/" + name] = checksum;
  j["samples"] = e.samples;
  j["critical_frequency"] = json_number(e.critical_frequency);
  j["closes"] = e.closes();
  j["warnings"] = evocation_warnings(e);
  return j;
}

}  // namespace geomint
