#include "studies/evocation_files.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "studies/atomic_file.hpp"
#include "errors/exit_status_errors.hpp"
#include "studies/result_files.hpp"
#include "studies/result_records.hpp"

namespace geomint {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

std::string scores_csv(const Evocation& e) {
  std::string csv = "xi,score,lag\n";
  for (const auto& f : e.frames)
    csv.append(csv_number(f.xi)).append(",").append(csv_number(f.score)).append(",").append(csv_number(f.lag)).append("\n");
  return csv;
}

std::string frame_csv(const TrajectoryPositions& trajectory, double xi) {
  const auto turned = frame_positions(trajectory.times, trajectory.positions, xi);
  std::string csv = "t";
  for (const auto& body : trajectory.bodies) csv += "," + body + "_x," + body + "_y," + body + "_z";
  csv += "\n";
  for (std::size_t k = 0; k < trajectory.times.size(); ++k) {
    csv += csv_number(trajectory.times[k]);
    for (const auto& q : turned)
      for (Eigen::Index a = 0; a < 3; ++a) csv.append(",").append(csv_number(q(a, static_cast<Eigen::Index>(k))));
    csv += "\n";
  }
  return csv;
}

std::string evocation_json(const std::string& source, const TrajectoryPositions& trajectory,
                           const EvocationScan& scan, const Evocation& e) {
  json j;
  j["trajectory"] = source;
  j["bodies"] = trajectory.bodies;
  j["samples"] = e.samples;
  j["scan"] = {{"xi_min", scan.xi_min}, {"xi_max", scan.xi_max}, {"count", scan.count}};
  j["lag_min"] = e.lag_min;
  j["lag_max"] = e.lag_max;
  j["score_definition"] = kClosureScoreDefinition;
  j["critical_frequency"] = number_or_null(e.critical_frequency);
  j["critical_frequency_definition"] =
      "the mean over bodies of the least-squares slope of the unwrapped azimuth atan2(y, x)(t) "
      "(a body that touches the axis is left out); the rate of a relative equilibrium";
  json rates = json::object();
  for (std::size_t i = 0; i < trajectory.bodies.size(); ++i) rates[trajectory.bodies[i]] = number_or_null(e.azimuth_rates[i]);
  j["azimuth_rates"] = rates;
  j["best_definition"] =
      "the local minima of the score over the scan, each refined between its neighbours by parabolic "
      "interpolation, lowest first; frames a whole turn per lag apart (xi + 2 pi k / lag) score the same "
      "and are one pattern: they are listed once, their rates as its aliases";
  json best = json::array();
  for (std::size_t r = 0; r < e.best.size(); ++r)
    best.push_back({{"rank", r + 1}, {"xi", e.best[r].xi}, {"score", e.best[r].score}, {"lag", e.best[r].lag},
                    {"aliases", e.best[r].aliases}, {"lag_on_bound", e.best[r].lag_on_bound},
                    {"frame", evoked_frame_path(r + 1, e.best[r].xi)}});
  j["best"] = best;
  j["closing_score"] = kClosingScore;
  j["closes"] = e.closes();
  j["warnings"] = evocation_warnings(e);
  return j.dump(2) + "\n";
}

/// Removes the frames of an earlier evocation (frames/<rank>-xi<value>.csv) not written now.
void remove_stale_frames(const fs::path& dir, const std::set<std::string>& written) {
  static const std::regex frame(R"([0-9]+-xi.*\.csv)");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir / "frames", ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, frame) && !written.count("frames/" + name) &&
        !fs::remove(entry.path(), ec))
      throw IoError("cannot remove " + entry.path().string() + ": " + ec.message());
  }
}

}  // namespace

std::vector<std::string> evocation_warnings(const Evocation& e) {
  std::vector<std::string> warnings;
  char line[240];
  if (e.best.empty()) {
    warnings.emplace_back("no local minimum of the score in the scan: widen the range of xi");
  } else if (!e.closes()) {
    std::snprintf(line, sizeof line, "no frame closes: the best score %.3g is above %.3g", e.best.front().score,
                  kClosingScore);
    warnings.emplace_back(line);
  }
  for (std::size_t r = 0; r < e.best.size(); ++r)
    if (e.best[r].lag_on_bound) {
      std::snprintf(line, sizeof line,
                    "frame %zu (xi = %.6g rad/s): its lag %.6g s sits on a bound of the lag range [%.6g, %.6g]: "
                    "it may close better outside it",
                    r + 1, e.best[r].xi, e.best[r].lag, e.lag_min, e.lag_max);
      warnings.emplace_back(line);
    }
  return warnings;
}

std::string evoked_frame_path(std::size_t rank, double xi) {
  char name[80];
  std::snprintf(name, sizeof name, "frames/%zu-xi%.6g.csv", rank, xi);
  return name;
}

std::map<std::string, std::string> write_evocation(const fs::path& dir, const std::string& source,
                                                   const TrajectoryPositions& trajectory, const EvocationScan& scan,
                                                   const Evocation& e) {
  std::map<std::string, std::string> written;
  const auto write = [&](const std::string& name, const std::string& content) {
    write_file_atomically(dir / name, content);
    written[name] = hash_hex(content);
  };
  write("scores.csv", scores_csv(e));
  std::set<std::string> frames;
  for (std::size_t r = 0; r < e.best.size(); ++r) {
    const std::string path = evoked_frame_path(r + 1, e.best[r].xi);
    write(path, frame_csv(trajectory, e.best[r].xi));
    frames.insert(path);
  }
  remove_stale_frames(dir, frames);
  write("evocation.json", evocation_json(source, trajectory, scan, e));
  return written;
}

}  // namespace geomint
