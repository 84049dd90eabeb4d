// Label `unit`: a study's `curves` plot (models/curves.hpp, studies/engine.cpp). A heavy-top
// study writes series/<case_id>-curves.csv with the model's curves, t then x, y, z of each, in
// at most 2000 time bins; its points are what the geometry says, independently of the code
// that wrote them: Q X stays on the unit sphere (Q in SO(3), X a unit vector) and
// M l Q^{-1} Gamma0 on the sphere of radius M g l (Q^{-1} a rotation).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "studies/engine.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;

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

}  // namespace
}  // namespace geomint
