// Label `unit`: a study's `components` and `paths` plots (studies/component_plan.hpp,
// studies/time_bins.hpp, models/configuration.hpp, studies/case_runner.hpp).
//   - components: each column holds what its name says at the row's state. The state columns
//     of a row, given to the model, give the row's energy and dw1_y/dt columns; and
//     independently of the model's code, dw1_y/dt agrees with the five-point difference of
//     the recorded w1_y over neighbouring rows (RK4 at h = 1e-3, every step a row: O(h^4)).
//   - zoom: outside the window one row per bin of T/2000, inside it one per bin of the
//     window's length/2000, so every step of the window is kept.
//   - paths: a chain's configuration starts at the support (the origin) and its links are L
//     long, each the bob's direction q_i times L (q_i from the components file, same rows);
//     the charges' paths, their S^2 blocks, stay on the unit sphere.
//   - TimeBins: increasing bin numbers across the window's edges.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "studies/engine.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/model_instance.hpp"
#include "studies/spec.hpp"
#include "studies/time_bins.hpp"
#include "support/series_files.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
};

Csv read_csv(const fs::path& file) {
  Csv csv;
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  std::stringstream head(line);
  for (std::string cell; std::getline(head, cell, ',');) csv.header.push_back(cell);
  while (std::getline(in, line)) {
    std::stringstream row(line);
    csv.rows.emplace_back();
    for (std::string cell; std::getline(row, cell, ',');) csv.rows.back().push_back(std::stod(cell));
  }
  return csv;
}

using testing::series_file;

fs::path run(const std::string& name, const std::string& experiment) {
  const fs::path dir = fs::temp_directory_path() / ("geomint-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  StudyOptions options;
  options.out_dir = dir.string();
  options.jobs = 1;
  options.progress = false;
  run_study(parse_study_spec("name: " + name + "\nexperiments:\n" + experiment, name + ".yaml"), options);
  return dir;
}

TEST(ComponentsPlot, EachColumnIsItsNamedQuantityAtTheRowsState) {
  const fs::path dir = run("components",
                           "  - name: e\n"
                           "    model: pendulum_chain\n"
                           "    preset: celledoni2021_N2\n"
                           "    T: 1\n"
                           "    plots: [components]\n"
                           "    components: [q1_x, q1_y, q1_z, q2_x, q2_y, q2_z, w1_x, w1_y, w1_z, w2_x, w2_y,\n"
                           "                 w2_z, dw1_y/dt, energy]\n"
                           "    series: false\n"
                           "    runs:\n"
                           "      - {integrators: [rk4], h: 0.001}\n");
  const Csv csv = read_csv(series_file(dir, "-components.csv"));
  ASSERT_EQ(csv.header.size(), 15u);
  EXPECT_EQ(csv.header[13], "dw1_y/dt");
  ASSERT_EQ(csv.rows.size(), 1001u);  // 1000 steps and t = 0, fewer than the 2000 bins
  const auto model = find_model("pendulum_chain").instance("celledoni2021_N2", {});
  const std::size_t w1y = csv.column("w1_y"), rate = csv.column("dw1_y/dt"), energy = csv.column("energy");
  double worst_difference = 0.0;
  for (std::size_t r = 0; r < csv.rows.size(); ++r) {
    const auto& row = csv.rows[r];
    Eigen::VectorXd y(12);
    for (Eigen::Index k = 0; k < 12; ++k) y[k] = row[static_cast<std::size_t>(k) + 1];
    EXPECT_DOUBLE_EQ(row[rate], model->rhs(row[0], y)[7]) << "t = " << row[0];  // w1_y is entry 7
    EXPECT_DOUBLE_EQ(row[energy], model->invariant_values(y)[0]) << "t = " << row[0];
    if (r >= 2 && r + 2 < csv.rows.size()) {  // the five-point difference, O(h^4)
      const auto w = [&](std::size_t i) { return csv.rows[i][w1y]; };
      const double h = csv.rows[r + 1][0] - row[0];
      const double difference = (-w(r + 2) + 8.0 * w(r + 1) - 8.0 * w(r - 1) + w(r - 2)) / (12.0 * h);
      worst_difference = std::max(worst_difference, std::abs(difference - row[rate]) / (1.0 + std::abs(row[rate])));
    }
  }
  EXPECT_LT(worst_difference, 1e-6);
  fs::remove_all(dir);
}

TEST(ComponentsPlot, AZoomWindowKeepsEveryStepInsideIt) {
  const fs::path dir = run("zoom",
                           "  - name: e\n"
                           "    model: pendulum_chain\n"
                           "    preset: celledoni2021_N2\n"
                           "    T: 1\n"
                           "    plots: [components]\n"
                           "    components: [w2_y]\n"
                           "    zoom: [0.4, 0.5]\n"
                           "    series: false\n"
                           "    runs:\n"
                           "      - {integrators: [rk4], h: 0.0001}\n");
  const Csv csv = read_csv(series_file(dir, "-components.csv"));
  std::size_t inside = 0, outside = 0;
  for (const auto& row : csv.rows) (row[0] >= 0.4 - 1e-12 && row[0] <= 0.5 + 1e-12 ? inside : outside) += 1;
  EXPECT_NEAR(static_cast<double>(inside), 1000.0, 2.0);   // every one of the window's steps
  EXPECT_NEAR(static_cast<double>(outside), 1800.0, 2.0);  // one per 5e-4 in the other 0.9 s
  for (std::size_t r = 1; r < csv.rows.size(); ++r) EXPECT_GT(csv.rows[r][0], csv.rows[r - 1][0]);
  fs::remove_all(dir);
}

TEST(PathsPlot, AChainsConfigurationIsItsLinksFromTheSupport) {
  const fs::path dir = run("chain",
                           "  - name: e\n"
                           "    model: pendulum_chain\n"
                           "    preset: celledoni2021_N3\n"
                           "    T: 1\n"
                           "    plots: [paths, components]\n"
                           "    path_times: [0, 1]\n"
                           "    components: [q1_x, q1_y, q1_z, q2_x, q2_y, q2_z, q3_x, q3_y, q3_z]\n"
                           "    series: false\n"
                           "    runs:\n"
                           "      - {integrators: [rkmk4], h: 0.001}\n");
  const Csv paths = read_csv(series_file(dir, "-paths.csv"));
  const Csv q = read_csv(series_file(dir, "-components.csv"));
  ASSERT_EQ(paths.header.size(), 13u);  // t, the support and three bobs
  EXPECT_EQ(paths.header[1], "support_x");
  ASSERT_EQ(paths.rows.size(), q.rows.size());
  const double L = find_model("pendulum_chain").parameters_for("celledoni2021_N3", {})["L"];
  for (std::size_t r = 0; r < paths.rows.size(); ++r) {
    const auto& p = paths.rows[r];
    ASSERT_EQ(p[0], q.rows[r][0]);
    for (int k = 1; k <= 3; ++k) EXPECT_EQ(p[static_cast<std::size_t>(k)], 0.0);
    for (std::size_t link = 0; link < 3; ++link)
      for (std::size_t axis = 0; axis < 3; ++axis)
        EXPECT_NEAR(p[4 + 3 * link + axis] - p[1 + 3 * link + axis], L * q.rows[r][1 + 3 * link + axis], 1e-14)
            << "t = " << p[0] << ", link " << link + 1;
  }
  fs::remove_all(dir);
}

TEST(PathsPlot, TheChargesPathsStayOnTheUnitSphere) {
  const fs::path dir = run("charges",
                           "  - name: e\n"
                           "    model: sphere_charges\n"
                           "    preset: scalene\n"
                           "    T: 2\n"
                           "    plots: [paths]\n"
                           "    series: false\n"
                           "    runs:\n"
                           "      - {integrators: [vi_explicit], h: 0.01}\n");
  const Csv paths = read_csv(series_file(dir, "-paths.csv"));
  ASSERT_EQ(paths.header.size(), 10u);
  EXPECT_EQ(paths.header[1], "q1_x");
  EXPECT_EQ(paths.rows.size(), 201u);
  for (const auto& p : paths.rows)
    for (std::size_t body = 0; body < 3; ++body)
      EXPECT_NEAR(std::hypot(p[1 + 3 * body], p[2 + 3 * body], p[3 + 3 * body]), 1.0, 1e-14);
  fs::remove_all(dir);
}

TEST(TimeBins, NumbersIncreaseAcrossTheWindowsEdges) {
  TimeBins bins(10.0, 10, 2.5, 3.0);  // whole bins of 1, window bins of 0.05
  std::vector<double> kept;
  for (int i = 0; i <= 1000; ++i)
    if (bins.take(i * 0.01)) kept.push_back(i * 0.01);
  // Before the window, whole bins 0, 1, 2: t = 0, 1, 2. The window's ten bins: t = 2.5, 2.55,
  // ..., 2.95 (3.0 falls in the last). After it, the rest of whole bin 3 (t = 3.01), then
  // bins 4 to 9 (t = 4, ..., 9; t = 10 falls in the last).
  ASSERT_EQ(kept.size(), 3u + 10u + 7u);
  EXPECT_NEAR(kept[2], 2.0, 1e-12);
  EXPECT_NEAR(kept[3], 2.5, 1e-12);
  EXPECT_NEAR(kept[12], 2.95, 0.011);  // the first point at or past 2.95
  EXPECT_NEAR(kept[13], 3.01, 1e-12);
  EXPECT_NEAR(kept.back(), 9.0, 1e-12);
}

}  // namespace
}  // namespace geomint
