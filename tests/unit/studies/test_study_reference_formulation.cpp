// Label `unit`: a study's reference solved in another formulation of the experiment's model
// (`reference: {..., model: NAME}`, models/formulation.hpp, studies/engine.cpp, studies/case_job.cpp). The planar
// Astrojax's run 1, stepped by the constrained VI in Cartesian form, is measured against the
// reduced planar ODE (astrojax_planar) and against Fehlberg 7(8) on the Cartesian index-1 form:
// two references that share no code agree to their error estimates, so the global errors do
// too, and the case keys differ (a reference is part of what a case measures).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "studies/engine.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;

/// column -> value of each row of cases.csv, by experiment.
std::map<std::string, std::map<std::string, std::string>> cases_by_experiment(const fs::path& dir) {
  std::ifstream in(dir / "cases.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  for (std::stringstream h(line); std::getline(h, line, ',');) header.push_back(line);
  std::map<std::string, std::map<std::string, std::string>> out;
  while (std::getline(in, line)) {
    std::map<std::string, std::string> row;
    std::stringstream cells(line);
    for (std::size_t i = 0; i < header.size() && std::getline(cells, line, ','); ++i) row[header[i]] = line;
    out[row["experiment"]] = row;
  }
  return out;
}

TEST(StudyReferenceFormulation, ThePlanarOdeAndTheCartesianFormGiveTheSameErrors) {
  const fs::path dir = fs::temp_directory_path() / ("geomint-formulation-" + std::to_string(getpid()));
  fs::remove_all(dir);
  const auto experiment = [](const char* name, const char* model_key) {
    return std::string("  - name: ") + name +
           "\n    model: astrojax\n    preset: planar1\n    T: 0.3\n    series: false\n"
           "    reference: {integrator: odeint_rkf78, rtol: 1e-13, atol: 1e-15" + model_key + "}\n"
           "    runs:\n      - {integrators: [constrained_vi], h: 0.001}\n";
  };
  const std::string text = "name: formulation\nexperiments:\n" + experiment("planar_ode", ", model: astrojax_planar") +
                           experiment("cartesian", "");
  StudyOptions options;
  options.out_dir = dir.string();
  options.jobs = 1;
  options.progress = false;
  run_study(parse_study_spec(text, "formulation.yaml"), options);
  const auto rows = cases_by_experiment(dir);
  ASSERT_EQ(rows.size(), 2u);
  const auto& planar = rows.at("planar_ode");
  const auto& cartesian = rows.at("cartesian");
  const double e_planar = std::stod(planar.at("global_err")), e_cartesian = std::stod(cartesian.at("global_err"));
  const double ref_error = std::stod(planar.at("reference_err")) + std::stod(cartesian.at("reference_err"));
  std::printf("global error against the planar ODE %.6e, against the Cartesian form %.6e; "
              "reference error estimates %s, %s\n", e_planar, e_cartesian,
              planar.at("reference_err").c_str(), cartesian.at("reference_err").c_str());
  EXPECT_GT(e_planar, 1e-7);  // the VI's own error at h = 0.001 (6.2e-6 by the order test)
  EXPECT_LE(std::abs(e_planar - e_cartesian), 10.0 * ref_error + 1e-12);
  EXPECT_NE(planar.at("case_id"), cartesian.at("case_id"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace geomint
