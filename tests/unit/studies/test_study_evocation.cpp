// Label `unit`: pattern evocation as part of a study (an experiment's `evoke`; studies/case_job.cpp,
// studies/case_evocation.hpp, studies/evocation_positions.hpp).
//  - On the conical pendulum (an exact relative equilibrium of rate W = sqrt(g / (l cos 60deg)),
//    models/conical_pendulum.hpp), the best frame of a fixed-step case is W and so is the
//    critical frequency, to the integrator's O(h^2); the frame file holds every step, seen from
//    that frame (a fixed point); the adaptive case of the experiment is not evoked.
//  - Resuming: changing the evoke range redoes the evoked case only; a damaged evocation file
//    redoes its case.
//  - A run of more steps than the positions kept is thinned to an even stride; bodies that
//    never leave the axis record a failed evocation, not a failed study; the output estimate
//    counts the evocation's frame files.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors/exit_status_errors.hpp"
#include "models/conical_pendulum.hpp"
#include "studies/engine.hpp"
#include "studies/evocation_positions.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;

const double kW = ConicalPendulum(ConicalPendulum::kPresetAngle, 1.0, 9.81).rate();

/// A conical-pendulum study: a fixed-step and an adaptive case, `evoke` as given.
std::string conical_spec(const std::string& evoke, const std::string& initial = "",
                         const std::string& fixed = "{integrators: [vi_explicit], h: 0.01}") {
  return "name: evoked\n"
         "experiments:\n"
         "  - name: cone\n"
         "    model: spherical_pendulum\n"
         "    preset: conical\n" +
         initial +
         "    T: 10\n"
         "    series: false\n"
         "    evoke: " + evoke + "\n"
         "    runs:\n"
         "      - " + fixed + "\n"
         "      - {integrators: [dopri45], rtol: 1e-6}\n";
}

// Circles seen from xi != W close after 2 pi / |W - xi| > 2.4 s, outside the lags: the one
// closing frame is W's.
const std::string kScan = "{xi: [2, 7], count: 51, best: 3, lag: [0.5, 1]}";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

nlohmann::json manifest(const fs::path& dir) { return nlohmann::json::parse(read(dir / "manifest.json")); }

/// The manifest's evocations of the experiment.
nlohmann::json evocations(const fs::path& dir) { return manifest(dir)["experiments"][0]["evocations"]; }

class StudyEvocation : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("geomint_evocation_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  StudySummary run(const std::string& text) {
    StudyOptions options;
    options.out_dir = dir_.string();
    options.jobs = 1;
    options.progress = false;
    return run_study(parse_study_spec(text, "evoked.yaml"), options);
  }
  /// evocation.json of the experiment's one evoked case.
  nlohmann::json evocation() {
    const auto list = evocations(dir_);
    EXPECT_EQ(list.size(), 1u);
    return nlohmann::json::parse(read(dir_ / list[0]["dir"].get<std::string>() / "evocation.json"));
  }
  fs::path dir_;
};

TEST_F(StudyEvocation, TheConicalPendulumsBestFrameAndCriticalFrequencyAreItsRate) {
  run(conical_spec(kScan));
  const auto list = evocations(dir_);
  ASSERT_EQ(list.size(), 1u);  // the fixed-step case; the adaptive one is not evenly spaced
  EXPECT_EQ(list[0]["integrator"], "vi_explicit");
  EXPECT_EQ(list[0]["status"], "ok");
  EXPECT_EQ(manifest(dir_)["experiments"][0]["evoke"]["count"], 51);

  const auto e = evocation();
  EXPECT_EQ(e["samples"], 1001);  // every step of 0.01 over T = 10
  ASSERT_EQ(e["best"].size(), 1u);
  const auto& best = e["best"][0];
  const double xi = best["xi"], score = best["score"], critical = e["critical_frequency"];
  std::printf("W = %.6f: best frame xi - W = %.3e (score %.3e, lag %.3f), critical frequency - W = %.3e\n",
              kW, xi - kW, score, best["lag"].get<double>(), critical - kW);
  // vi_explicit at h = 0.01 turns the cone at W + O(h^2): 1e-3 is some 10 times its error
  // (docs/pattern-evocation.md: score 1.17e-3 at h = 0.01 over 20 s).
  EXPECT_NEAR(xi, kW, 1e-3);
  EXPECT_NEAR(critical, kW, 1e-3);
  EXPECT_LT(score, 2e-3);

  // The frame file: every step, the bob nearly still in the frame turning at the best rate.
  std::ifstream frame(dir_ / list[0]["dir"].get<std::string>() / best["frame"].get<std::string>());
  std::string line;
  std::getline(frame, line);
  EXPECT_EQ(line, "t,q1_x,q1_y,q1_z");
  double x0 = NAN, y0 = NAN, drift = 0.0;
  int rows = 0;
  while (std::getline(frame, line)) {
    double t, x, y, z;
    ASSERT_EQ(std::sscanf(line.c_str(), "%lf,%lf,%lf,%lf", &t, &x, &y, &z), 4) << line;
    if (rows++ == 0) x0 = x, y0 = y;
    drift = std::max(drift, std::hypot(x - x0, y - y0));
  }
  EXPECT_EQ(rows, 1001);
  EXPECT_LT(drift, 1e-2);  // |xi - W| T sin 60deg plus the O(h^2) shape error
}

TEST_F(StudyEvocation, ChangingTheEvokeRangeRedoesOnlyTheEvokedCase) {
  EXPECT_EQ(run(conical_spec(kScan)).resumed, 0);
  EXPECT_EQ(run(conical_spec(kScan)).resumed, 2);
  const std::string first_dir = evocations(dir_)[0]["dir"];

  const StudySummary changed = run(conical_spec("{xi: [3, 6], count: 51, best: 3, lag: [0.5, 1]}"));
  EXPECT_EQ(changed.resumed, 1);  // the adaptive case; the evoked one is redone
  const auto e = evocation();
  EXPECT_EQ(e["scan"]["xi_min"], 3.0);
  EXPECT_NE(evocations(dir_)[0]["dir"], first_dir);
  EXPECT_NEAR(e["best"][0]["xi"].get<double>(), kW, 1e-3);

  // A damaged evocation file: its case is redone, the adaptive one resumed.
  const fs::path scores = dir_ / evocations(dir_)[0]["dir"].get<std::string>() / "scores.csv";
  std::ofstream(scores, std::ios::app) << "1,2,3\n";
  EXPECT_EQ(run(conical_spec("{xi: [3, 6], count: 51, best: 3, lag: [0.5, 1]}")).resumed, 1);
  EXPECT_EQ(run(conical_spec("{xi: [3, 6], count: 51, best: 3, lag: [0.5, 1]}")).resumed, 2);
}

TEST_F(StudyEvocation, ALongRunKeepsEvenlySpacedPositionsWithinTheBound) {
  // 200000 steps of one body: every 3rd step (at most kMaxEvocationPositions = 100000 kept).
  run(conical_spec(kScan, "", "{integrators: [rk4], h: 0.00005}"));
  ASSERT_EQ(evocation_stride(200000.0, 1), 3u);
  const auto list = evocations(dir_);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["status"], "ok");
  const auto e = evocation();
  EXPECT_EQ(e["samples"], 66667);
  EXPECT_NEAR(e["best"][0]["xi"].get<double>(), kW, 1e-3);
}

TEST_F(StudyEvocation, BodiesOnTheAxisRecordAFailedEvocationNotAFailedStudy) {
  run(conical_spec(kScan, "    initial: {q1: [0, 0, 1], w1: [0, 0, 0]}\n"));
  const auto list = evocations(dir_);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["status"], "failed");
  EXPECT_NE(list[0]["detail"].get<std::string>().find("never leave the e3 axis"), std::string::npos)
      << list[0]["detail"];
  EXPECT_FALSE(fs::exists(dir_ / list[0]["dir"].get<std::string>()));
  EXPECT_EQ(run(conical_spec(kScan, "    initial: {q1: [0, 0, 1], w1: [0, 0, 0]}\n")).resumed, 2);
}

TEST_F(StudyEvocation, TheOutputEstimateCountsTheFrameFiles) {
  // 100 best frames of 66667 samples, 4 numbers each: some 670 MB, beyond a 100 MiB cap.
  const std::string big = "{xi: [2, 7], count: 51, best: 100, lag: [0.5, 1]}";
  const std::string fixed = "{integrators: [rk4], h: 0.00005}";
  const auto capped = [&](const std::string& text) { return "max_output: 100 MiB\n" + text; };
  try {
    run(capped(conical_spec(big, "", fixed)));
    ADD_FAILURE() << "the study was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("evocations, more than max_output"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir_));
}

}  // namespace
}  // namespace geomint
