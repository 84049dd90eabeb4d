#pragma once
// DIR/manifest.json: what ran (the spec, its experiments as run, the integrator catalogue),
// with what (git revision, compiler, flags, SUNDIALS, machine) and how long it took.

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/engine.hpp"
#include "studies/study_references.hpp"

namespace geomint {

/// The time now, in UTC, as ISO 8601 text (2024-05-01T12:00:00Z).
std::string utc_now();

/// How the study ran, as the manifest records it.
struct StudyRunFacts {
  std::string started;                                // utc_now() when it started
  std::chrono::steady_clock::time_point wall_start;  // when it started
  double references_s = 0.0;  // the wall time before the first case: rank 0's references
  double cases_cpu_s = 0.0;   // the CPU time of the cases this run ran
  int threads_per_rank = 0;
};

/// Writes DIR/manifest.json, finished now.
void write_manifest(const std::filesystem::path& dir, const StudySpec& spec,
                    const std::map<std::string, ExperimentReference>& references,
                    const std::vector<nlohmann::json>& records, const StudySummary& summary,
                    const StudyRunFacts& facts);

}  // namespace geomint
