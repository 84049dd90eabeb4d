// Label `unit`: a study's `curves`, `formation` and `outputs` plots (models/curves.hpp,
// models/formation.hpp, models/outputs.hpp, studies/engine.cpp, studies/case_job.cpp).
//   - A heavy-top study writes series/<case_id>-curves.csv with the model's curves, t then x, y,
//     z of each, in at most 2000 time bins; its points are what the geometry says,
//     independently of the code that wrote them: Q X stays on the unit sphere (Q in SO(3), X a
//     unit vector) and M l Q^{-1} Gamma0 on the sphere of radius M g l (Q^{-1} a rotation).
//   - A quadrotors_payload study with `formation` writes the curves at the rows' times: the
//     quadrotors at the links' lengths L_i from the load (y_i = y - L_i q_i, |q_i| = 1) and the
//     desired load on the parabola y_d(t) = (t - 2.5, 0, (t - 2.5)^2 - 7) of the row's t; the
//     manifest carries the formation times and the model's links.
//   - Its `outputs` file is t and the model's outputs in 2000 bins, each row the bin's last
//     output time and per output the sample of largest magnitude, as computed here from every
//     output point of the same run (the output hook of `geomint run`).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/quadrotors_payload.hpp"
#include "studies/engine.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/spec.hpp"
#include "support/series_files.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;

/// The rows of a CSV file (numbers), its header apart.
std::vector<std::vector<double>> csv_rows(const fs::path& file, std::string& header) {
  std::ifstream in(file);
  std::getline(in, header);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::stringstream row(line);
    rows.emplace_back();
    for (std::string cell; std::getline(row, cell, ',');) rows.back().push_back(std::stod(cell));
  }
  return rows;
}

using testing::series_file;

TEST(StudyCurves, TheHeavyTopsCurvesAreWrittenOnTheirSpheres) {
  const fs::path dir = fs::temp_directory_path() / ("geomint-curves-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const std::string text =
      "name: curves\n"
      "experiments:\n"
      "  - name: e\n"
      "    model: heavy_top\n"
      "    preset: celledoni2021\n"
      "    T: 0.5\n"
      "    plots: [curves]\n"
      "    series: false\n"
      "    runs:\n"
      "      - {integrators: [slgi_theta_half], h: 0.0001}\n";
  StudyOptions options;
  options.out_dir = dir.string();
  options.jobs = 1;
  options.progress = false;
  run_study(parse_study_spec(text, "curves.yaml"), options);

  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir / "series"))
    if (e.path().string().ends_with("-curves.csv")) files.push_back(e.path());
  ASSERT_EQ(files.size(), 1u);
  std::ifstream in(files[0]);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "t,Q X_x,Q X_y,Q X_z,M l Q^-1 Gamma0_x,M l Q^-1 Gamma0_y,M l Q^-1 Gamma0_z");
  const double mgl = 15.0 * 9.81 * 2.0;  // the preset's M, g and l
  int rows = 0;
  double last_t = -1.0;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::vector<double> v;
    for (std::string cell; std::getline(row, cell, ',');) v.push_back(std::stod(cell));
    ASSERT_EQ(v.size(), 7u) << line;
    EXPECT_GT(v[0], last_t);
    last_t = v[0];
    EXPECT_NEAR(std::hypot(v[1], v[2], v[3]), 1.0, 1e-13) << "t = " << v[0];
    EXPECT_NEAR(std::hypot(v[4], v[5], v[6]), mgl, 1e-13 * mgl) << "t = " << v[0];
    ++rows;
  }
  EXPECT_EQ(rows, 2000);  // 5000 steps into 2000 bins: one point in each
  EXPECT_GT(last_t, 0.499);
  fs::remove_all(dir);
}

class QuadrotorsStudy : public ::testing::Test {
 protected:
  static constexpr double kT = 5.0, kH = 0.001;  // 5000 steps: two or three in each of 2000 bins

  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("geomint-formation-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    const std::string text =
        "name: formation\n"
        "experiments:\n"
        "  - name: e\n"
        "    model: quadrotors_payload\n"
        "    preset: celledoni2021\n"
        "    T: 5\n"
        "    plots: [outputs, formation]\n"
        "    formation_times: [0, 1.25, 3, 5]\n"
        "    series: false\n"
        "    runs:\n"
        "      - {integrators: [rk4], h: 0.001}\n";
    StudyOptions options;
    options.out_dir = dir_.string();
    options.jobs = 1;
    options.progress = false;
    run_study(parse_study_spec(text, "formation.yaml"), options);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static inline fs::path dir_;
};

TEST_F(QuadrotorsStudy, TheFormationsCurvesAreAtTheirRowsTimes) {
  std::string header;
  const auto rows = csv_rows(series_file(dir_, "-curves.csv"), header);
  EXPECT_EQ(header,
            "t,load_x,load_y,load_z,quadrotor 1_x,quadrotor 1_y,quadrotor 1_z,quadrotor 2_x,"
            "quadrotor 2_y,quadrotor 2_z,desired load_x,desired load_y,desired load_z");
  const ParameterSet p = find_model("quadrotors_payload").parameters_for("celledoni2021", {});
  ASSERT_EQ(rows.size(), 2000u);
  for (const auto& v : rows) {
    ASSERT_EQ(v.size(), 13u);
    const Eigen::Vector3d load(v[1], v[2], v[3]), desired(v[10], v[11], v[12]);
    EXPECT_NEAR((load - Eigen::Vector3d(v[4], v[5], v[6])).norm(), p["L1"], 1e-9) << "t = " << v[0];
    EXPECT_NEAR((load - Eigen::Vector3d(v[7], v[8], v[9])).norm(), p["L2"], 1e-9) << "t = " << v[0];
    const double s = v[0] - 2.5;
    EXPECT_NEAR((desired - Eigen::Vector3d(s, 0.0, s * s - 7.0)).norm(), 0.0, 1e-12) << "t = " << v[0];
  }

  std::ifstream in(dir_ / "manifest.json");
  const auto experiment = nlohmann::json::parse(in)["experiments"][0];
  EXPECT_EQ(experiment["formation_times"], nlohmann::json({0.0, 1.25, 3.0, 5.0}));
  EXPECT_EQ(experiment["curve_links"], nlohmann::json::parse("[[0, 1], [0, 2]]"));
}

TEST_F(QuadrotorsStudy, TheOutputsAreTheLargestOfEachBin) {
  // Every output point of the same run, as `geomint run` sees them.
  CaseSpec spec;
  spec.model = "quadrotors_payload";
  spec.preset = "celledoni2021";
  spec.integrator = "rk4";
  spec.h = kH;
  spec.T = kT;
  std::vector<std::string> names;
  std::vector<std::pair<double, std::vector<double>>> points;
  CaseHooks hooks;
  hooks.on_start = [&](const auto&, const auto&, const std::vector<std::string>& outputs) { names = outputs; };
  hooks.on_output = [&](double t, const Eigen::VectorXd&, const auto&, const std::vector<double>& outputs) {
    points.emplace_back(t, outputs);
  };
  ASSERT_EQ(run_case(spec, hooks).status, "ok");
  ASSERT_EQ(names.size(), QuadrotorsPayload::kOutputs.size());
  ASSERT_GT(points.size(), 4000u);
  std::vector<std::vector<double>> expected;  // per bin: its last t, then the largest |value|s
  long open = -1;
  for (const auto& [t, values] : points) {
    const long bin = std::min(1999L, static_cast<long>(std::floor(2000.0 * t / kT)));
    if (bin != open) expected.emplace_back(values.size() + 1, 0.0);
    open = bin;
    expected.back()[0] = t;
    for (std::size_t k = 0; k < values.size(); ++k)
      if (std::abs(values[k]) > std::abs(expected.back()[k + 1])) expected.back()[k + 1] = values[k];
  }

  std::string header;
  const auto rows = csv_rows(series_file(dir_, "-outputs.csv"), header);
  std::string expected_header = "t";
  for (const auto& name : names) expected_header += "," + name;
  EXPECT_EQ(header, expected_header);
  ASSERT_EQ(rows.size(), 2000u);
  ASSERT_EQ(rows.size(), expected.size());
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i], expected[i]) << "row " << i + 1;
}

}  // namespace
}  // namespace geomint
