// Label `reproduction`: DuToit Section 5.5, pattern evocation on the high angular momentum
// Astrojax, as studies/dutoit2005.yaml runs it (its experiments astrojax_pattern_evocation,
// _plus and _minus, read from the spec itself):
//   - aliases are merged: every best frame's aliases lie a whole number of turns per lag from
//     it (xi + 2 pi k / lag), and no two best frames are aliases of each other;
//   - no frame closes (the best score is above kClosingScore), and evocation.json says so
//     first among its warnings, as the study's description reports;
//   - the resonant frequencies are stable under a 1e-10 change of the initial state: each of
//     the nominal run's three best frames is found in both perturbed runs, at the same lag to
//     1 % and at a rate within 1e-3 rad/s (a twentieth of the scan's spacing); the spread of
//     the rates and of the critical frequency over the three runs is printed.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/build_info.hpp"
#include "studies/engine.hpp"
#include "studies/pattern_evocation.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json read_json(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str());
}

/// Turns of 2 pi / lag between two rates.
double turns(double xi_a, double xi_b, double lag) { return (xi_b - xi_a) * lag / (2.0 * std::numbers::pi); }

bool whole(double x, double tolerance) { return std::abs(x - std::round(x)) <= tolerance; }

class AstrojaxEvocation : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("geomint-astrojax-evocation-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    StudySpec spec = load_study_spec((fs::path(build_info::kSourceDir) / "studies" / "dutoit2005.yaml").string());
    std::erase_if(spec.experiments,
                  [](const ExperimentSpec& ex) { return !ex.base_name.starts_with("astrojax_pattern_evocation"); });
    ASSERT_EQ(spec.experiments.size(), 3u) << "the spec's astrojax_pattern_evocation experiments";
    StudyOptions options;
    options.out_dir = dir_.string();
    options.jobs = 2;
    options.progress = false;
    run_study(spec, options);
    const json manifest = read_json(dir_ / "manifest.json");
    for (const auto& experiment : manifest["experiments"]) {
      const auto& evoked = experiment["evocations"];
      ASSERT_EQ(evoked.size(), 1u);
      ASSERT_EQ(evoked[0]["status"], "ok") << evoked[0]["detail"];
      runs_.push_back(read_json(dir_ / evoked[0]["dir"].get<std::string>() / "evocation.json"));
    }
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static inline fs::path dir_;
  static inline std::vector<json> runs_;  // nominal, plus, minus: the spec's order
};

TEST_F(AstrojaxEvocation, AliasesAreMergedIntoOneFrame) {
  ASSERT_EQ(runs_.size(), 3u);
  for (const auto& e : runs_) {
    const auto& best = e["best"];
    ASSERT_GE(best.size(), 3u);
    for (std::size_t a = 0; a < best.size(); ++a) {
      const double xi = best[a]["xi"], lag = best[a]["lag"];
      for (double alias : best[a]["aliases"]) {
        EXPECT_TRUE(whole(turns(xi, alias, lag), 0.01)) << "xi " << xi << ", alias " << alias << ", lag " << lag;
        // The one nearest the critical frequency stands for them.
        EXPECT_LE(std::abs(xi - e["critical_frequency"].get<double>()),
                  std::abs(alias - e["critical_frequency"].get<double>()));
      }
      for (std::size_t b = a + 1; b < best.size(); ++b) {
        const double other_lag = best[b]["lag"];
        if (std::abs(lag - other_lag) <= 0.01 * lag) {
          EXPECT_FALSE(whole(turns(xi, best[b]["xi"], lag), 0.01)) << "frames " << a + 1 << " and " << b + 1;
        }
      }
    }
    EXPECT_GE(best[0]["aliases"].size(), 1u);  // the scan holds the best frame's alias 2 pi / lag away
  }
}

TEST_F(AstrojaxEvocation, NoFrameClosesAndTheEvocationSaysSo) {
  ASSERT_EQ(runs_.size(), 3u);
  for (const auto& e : runs_) {
    EXPECT_GT(e["best"][0]["score"].get<double>(), kClosingScore);
    EXPECT_FALSE(e["closes"].get<bool>());
    ASSERT_FALSE(e["warnings"].empty());
    EXPECT_TRUE(e["warnings"][0].get<std::string>().starts_with("no frame closes")) << e["warnings"][0];
  }
}

TEST_F(AstrojaxEvocation, TheResonantFrequenciesAreStableUnderA1e10Change) {
  ASSERT_EQ(runs_.size(), 3u);
  const auto& nominal = runs_[0]["best"];
  for (std::size_t r = 0; r < 3; ++r) {
    const double xi = nominal[r]["xi"], lag = nominal[r]["lag"];
    double lowest = xi, highest = xi;
    for (std::size_t run = 1; run < 3; ++run) {
      const auto& best = runs_[run]["best"];
      const auto match = std::find_if(best.begin(), best.end(), [&](const json& b) {
        return std::abs(b["lag"].get<double>() - lag) <= 0.01 * lag && std::abs(b["xi"].get<double>() - xi) <= 1e-3;
      });
      ASSERT_NE(match, best.end()) << "frame " << r + 1 << " (xi " << xi << ", lag " << lag << ") is not in run " << run;
      lowest = std::min(lowest, (*match)["xi"].get<double>());
      highest = std::max(highest, (*match)["xi"].get<double>());
    }
    std::printf("resonant frequency %zu: xi = %.6f rad/s (lag %.4f s, score %.3f), spread over the three runs %.2e\n",
                r + 1, xi, lag, nominal[r]["score"].get<double>(), highest - lowest);
  }
  double lowest = runs_[0]["critical_frequency"], highest = lowest;
  for (const auto& e : runs_) {
    lowest = std::min(lowest, e["critical_frequency"].get<double>());
    highest = std::max(highest, e["critical_frequency"].get<double>());
  }
  std::printf("critical frequency %.6f rad/s, spread %.2e\n", runs_[0]["critical_frequency"].get<double>(),
              highest - lowest);
  EXPECT_LT(highest - lowest, 1e-3);
}

}  // namespace
}  // namespace geomint
