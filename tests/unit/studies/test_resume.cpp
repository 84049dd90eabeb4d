// Label `unit`: resuming a study into its result folder (studies/case_resume.cpp,
// studies/result_folder.hpp, studies/result_records.hpp).
//  - A case's key covers everything its numbers depend on: changing any one input of the spec
//    redoes the case; an unchanged spec redoes nothing.
//  - A damaged folder (records of the wrong shape, truncated, edited or misplaced; a file where
//    a folder belongs; temporary files of dead processes) is repaired: the damage is set aside
//    and recomputed, and the results equal a fresh run's.
//  - A second process on the same folder is refused while the first holds it.
//  - References are checkpointed one by one.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "studies/engine.hpp"
#include "studies/result_folder.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;

// Each entry of the spec a test may change, by name, with its value in the base spec.
std::map<std::string, std::string> base_inputs() {
  return {{"parameters", "{g: 9.81}"},
          {"initial", "{q1: [0, 0.6, 0.8], w1: [1, 0, 0]}"},
          {"project_initial", "false"},
          {"T", "0.1"},
          {"reference", "{integrator: dopri45, rtol: 1e-9, atol: 1e-11}"},
          {"series", "true"},
          {"snapshots", "[]"},
          {"fixed", "rk4"},
          {"h", "[0.01, 0.02]"},
          {"adaptive", "dopri45"},
          {"rtol", "1e-5"},
          {"atol", "1e-7"}};
}

std::string spec_text(const std::map<std::string, std::string>& in) {
  return "name: resume\n"
         "experiments:\n"
         "  - name: e\n"
         "    model: spherical_pendulum\n"
         "    preset: swing\n"
         "    parameters: " + in.at("parameters") + "\n"
         "    initial: " + in.at("initial") + "\n"
         "    project_initial: " + in.at("project_initial") + "\n"
         "    T: " + in.at("T") + "\n"
         "    reference: " + in.at("reference") + "\n"
         "    series: " + in.at("series") + "\n"
         "    snapshots: " + in.at("snapshots") + "\n"
         "    runs:\n"
         "      - {integrators: [" + in.at("fixed") + "], h: " + in.at("h") + "}\n"
         "      - {integrators: [" + in.at("adaptive") + "], rtol: " + in.at("rtol") +
         ", atol: " + in.at("atol") + "}\n";
}

StudySummary run(const std::string& text, const fs::path& dir) {
  StudyOptions options;
  options.out_dir = dir.string();
  options.jobs = 1;
  options.progress = false;
  return run_study(parse_study_spec(text, "resume.yaml"), options);
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// cases.csv without its timing columns, cpu_s, cpu_repetitions and cpu_timed_s (they differ
/// between runs).
std::string cases_without_timing(const fs::path& dir) {
  std::stringstream in(read(dir / "cases.csv")), out;
  std::vector<std::size_t> timing_columns;
  bool header = true;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (header)
      for (std::size_t i = 0; i < cells.size(); ++i)
        if (cells[i] == "cpu_s" || cells[i] == "cpu_repetitions" || cells[i] == "cpu_timed_s") timing_columns.push_back(i);
    header = false;
    for (std::size_t i = 0; i < cells.size(); ++i)
      if (std::find(timing_columns.begin(), timing_columns.end(), i) == timing_columns.end()) out << cells[i] << ',';
    out << '\n';
  }
  return out.str();
}

class Resume : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("geomint_resume_" + std::to_string(getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(Resume, AnUnchangedSpecRedoesNothing) {
  const std::string text = spec_text(base_inputs());
  const StudySummary first = run(text, dir_);
  ASSERT_EQ(first.cases, 3);
  EXPECT_EQ(first.resumed, 0);
  const std::string before = cases_without_timing(dir_);
  EXPECT_EQ(run(text, dir_).resumed, 3);
  EXPECT_EQ(cases_without_timing(dir_), before);
}

TEST_F(Resume, ChangingAnyInputRedoesTheCases) {
  const std::map<std::string, std::string> changes = {
      {"parameters", "{g: 5}"},
      {"initial", "{q1: [0, 0.8, 0.6], w1: [1, 0, 0]}"},
      {"project_initial", "true"},
      {"T", "0.12"},
      {"reference", "{integrator: dopri45, rtol: 1e-10, atol: 1e-11}"},
      {"series", "false"},
      {"snapshots", "[0.05]"}};
  for (const auto& [key, value] : changes) {
    fs::remove_all(dir_);
    run(spec_text(base_inputs()), dir_);
    auto changed = base_inputs();
    changed[key] = value;
    EXPECT_EQ(run(spec_text(changed), dir_).resumed, 0) << "changed " << key << " to " << value;
  }
  // The integrator's settings: each redoes the cases it changes, and only those.
  const std::map<std::string, std::pair<std::string, int>> settings = {
      {"fixed", {"rk2", 1}}, {"h", {"[0.01, 0.025]", 2}}, {"adaptive", {"odeint_dopri5", 2}},
      {"rtol", {"1e-6", 2}}, {"atol", {"1e-8", 2}}};
  for (const auto& [key, change] : settings) {
    fs::remove_all(dir_);
    run(spec_text(base_inputs()), dir_);
    auto changed = base_inputs();
    changed[key] = change.first;
    EXPECT_EQ(run(spec_text(changed), dir_).resumed, change.second) << "changed " << key;
  }
}

/// Runs the base study fresh, damages its folder with `damage`, reruns it: the damaged cases
/// are recomputed, the rest resumed, and cases.csv equals the fresh run's.
void expect_repaired(const fs::path& dir, const std::function<void(const fs::path&)>& damage,
                     int expect_resumed, const std::string& what) {
  fs::remove_all(dir);
  const std::string text = spec_text(base_inputs());
  run(text, dir);
  const std::string fresh = cases_without_timing(dir);
  damage(dir);
  StudySummary again;
  ASSERT_NO_THROW(again = run(text, dir)) << what;
  EXPECT_EQ(again.resumed, expect_resumed) << what;
  EXPECT_EQ(cases_without_timing(dir), fresh) << what;
}

std::vector<fs::path> files_in(const fs::path& dir, const std::string& suffix = ".json") {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().string().ends_with(suffix)) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST_F(Resume, DamagedCaseRecordsAreSetAsideAndRecomputed) {
  const std::vector<std::pair<std::string, std::string>> contents = {
      {"an array", "[]"},
      {"a string", "\"str\""},
      {"an empty object", "{}"},
      {"nothing", ""},
      {"non-UTF-8 bytes", "{\"case_id\": \"\xff\xfe\"}"},
  };
  for (const auto& [what, text] : contents) {
    const std::string& content = text;  // Clang 14 cannot capture a structured binding
    expect_repaired(dir_, [&](const fs::path& d) { std::ofstream(files_in(d / "cases").front()) << content; },
                    2, what);
  }
  expect_repaired(dir_, [](const fs::path& d) {
        const auto f = files_in(d / "cases").front();
        const std::string whole = read(f);
        std::ofstream(f) << whole.substr(0, whole.size() / 2);
      }, 2, "a truncated record");
  expect_repaired(dir_, [](const fs::path& d) {
        const auto f = files_in(d / "cases").front();
        std::string whole = read(f);
        const auto at = whole.find("\"global_err\": ");
        whole.replace(at, 15, "\"global_err\": 7");
        std::ofstream(f) << whole;
      }, 2, "an edited number");
  expect_repaired(dir_, [](const fs::path& d) {
        const auto f = files_in(d / "cases").front();
        fs::remove(f);
        fs::create_directory(f);
      }, 2, "a folder in place of a record");
  expect_repaired(dir_, [](const fs::path& d) {
        const auto records = files_in(d / "cases");
        fs::copy_file(records[0], records[1], fs::copy_options::overwrite_existing);
      }, 2, "another case's record");
  expect_repaired(dir_, [](const fs::path& d) {
        const auto f = files_in(d / "series", ".csv").front();
        const std::string whole = read(f);
        std::ofstream(f) << whole.substr(0, whole.size() - 10);
      }, 2, "a truncated series");
  EXPECT_TRUE(fs::exists(dir_ / "damaged" / files_in(dir_ / "series", ".csv").front().filename().string().insert(0, "series_")));
  expect_repaired(dir_, [](const fs::path& d) { fs::remove(files_in(d / "series", ".csv").front()); },
                  2, "a missing series");
}

TEST_F(Resume, DamagedReferencesAndFoldersAreRepaired) {
  expect_repaired(dir_, [](const fs::path& d) {
        const auto f = files_in(d / "references").front();
        std::string whole = read(f);
        whole.replace(whole.find("\"final_state\": ["), 16, "\"final_state\": [0.5,");
        std::ofstream(f) << whole;
        fs::remove_all(d / "cases");
      }, 0, "a reference of the wrong length");
  expect_repaired(dir_, [](const fs::path& d) {
        std::ofstream(files_in(d / "references").front()) << "[]";
        fs::remove_all(d / "cases");
      }, 0, "a reference that is an array");
  expect_repaired(dir_, [](const fs::path& d) {
        fs::remove_all(d / "cases");
        std::ofstream(d / "cases") << "not a folder";
      }, 0, "a file where cases/ belongs");
  expect_repaired(dir_, [](const fs::path& d) {
        fs::remove_all(d / "series");
        std::ofstream(d / "series") << "not a folder";
      }, 0, "a file where series/ belongs");
}

TEST_F(Resume, TemporaryFilesOfDeadProcessesAreRemoved) {
  const std::string text = spec_text(base_inputs());
  run(text, dir_);
  // A pid above the kernel's largest (pid_max is at most 2^22) belongs to no process.
  std::ofstream(dir_ / "manifest.json.tmp.99999999") << "{";
  std::ofstream(dir_ / "cases" / "deadbeef.json.tmp.99999999") << "{";
  const auto alive = dir_ / ("cases.csv.tmp." + std::to_string(getppid()));
  std::ofstream(alive) << "a live process's";
  run(text, dir_);
  EXPECT_FALSE(fs::exists(dir_ / "manifest.json.tmp.99999999"));
  EXPECT_FALSE(fs::exists(dir_ / "cases" / "deadbeef.json.tmp.99999999"));
  EXPECT_TRUE(fs::exists(alive));
}

TEST_F(Resume, ASecondProcessOnTheFolderIsRefused) {
  const std::string text = spec_text(base_inputs());
  {
    const ResultFolder held(dir_);  // as another process holding it would
    EXPECT_THROW(
        {
          try {
            // flock locks belong to the open file description: a second open in this process
            // conflicts as a second process's would.
            run(text, dir_);
          } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("in use by another geomint process"), std::string::npos);
            throw;
          }
        },
        InputError);
  }
  EXPECT_EQ(run(text, dir_).cases, 3);  // released with its holder
}

TEST_F(Resume, ReferencesAreCheckpointedOneByOne) {
  // Two experiments; a kill during the second's reference leaves the first's on disk, which a
  // rerun reads instead of recomputing.
  std::string text = spec_text(base_inputs());
  const std::string experiment = text.substr(text.find("  - name: e"));
  std::string second = experiment;
  second.replace(second.find("name: e"), 7, "name: f");
  second.replace(second.find("T: 0.1"), 6, "T: 0.2");
  text += second;
  run(text, dir_);
  auto references = files_in(dir_ / "references");
  ASSERT_EQ(references.size(), 2u);
  const auto kept = fs::last_write_time(references[0]);
  fs::remove(references[1]);
  fs::remove_all(dir_ / "cases");
  run(text, dir_);
  EXPECT_EQ(fs::last_write_time(references[0]), kept);
  EXPECT_EQ(files_in(dir_ / "references").size(), 2u);
}

}  // namespace
}  // namespace geomint
