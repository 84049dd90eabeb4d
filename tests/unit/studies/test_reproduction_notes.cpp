// Reproduction notes that cannot drift (studies/note_template.hpp, studies/reproduction.hpp): a
// typed number is refused, every placeholder is filled from the row's case, and a ratio of two
// round-off figures is marked and given no band verdict; a paper's claims (studies/claims.hpp)
// are held, not held or not checked as their cases say.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "studies/claims.hpp"
#include "studies/note_template.hpp"
#include "studies/reproduction.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

const std::set<std::string> kEnergy = {"energy_err_mean"};

TEST(NoteTemplate, ATypedNumberIsRefusedButNamesWithDigitsAreWords) {
  EXPECT_TRUE(note_template_problem("ours is 0.94 of the published one", kEnergy));
  EXPECT_TRUE(note_template_problem("(ours 1.5e-14)", kEnergy));
  EXPECT_TRUE(note_template_problem("see equation (3.17)", kEnergy));
  EXPECT_FALSE(note_template_problem("ode45's defaults with q_i and e3 give {ours.energy_err_mean}", kEnergy));
}

TEST(NoteTemplate, PlaceholdersAreChecked) {
  EXPECT_FALSE(note_template_problem("{ours.steps} steps of {h}, {ratio.energy_err_mean} of {published.energy_err_mean}", kEnergy));
  EXPECT_TRUE(note_template_problem("{ratio.unit_length_err_mean}", kEnergy));  // not published by the row
  EXPECT_TRUE(note_template_problem("{ours.speed}", kEnergy));
  EXPECT_TRUE(note_template_problem("{h", kEnergy));
  EXPECT_TRUE(note_template_problem("h}", kEnergy));
}

TEST(NoteTemplate, ARatioJustOutsideTheBandDoesNotPrintAsItsEdge) {
  const auto ratio = [](double v) { return expand_note("{ratio.energy_err_mean}", [v](const std::string&, const std::string&) { return v; }); };
  EXPECT_EQ(ratio(0.749986), "0.74999");
  EXPECT_EQ(ratio(0.7435), "0.7435");
  EXPECT_EQ(ratio(1.250004), "1.250004");
  EXPECT_EQ(ratio(1.25), "1.25");
}

TEST(NoteTemplate, EveryPlaceholderIsFilled) {
  const std::string note = expand_note("{ours.steps} steps at h = {h}: {ratio.energy_err_mean} of it", [](const std::string& kind, const std::string& name) {
    if (kind == "ours") return 30000.0;
    if (kind == "setting") return name == "h" ? 3e-4 : 9.0;
    return 0.74991;
  });
  EXPECT_EQ(note, "30000 steps at h = 0.0003: 0.7499 of it");
}

const char* kSpec = R"(name: notes
title: notes
experiments:
  - name: e
    model: spherical_pendulum
    preset: swing
    T: 1
    runs:
      - {integrators: [vi_implicit, rk2], h: [0.01]}
    published:
      - example: Ex
        method: VI
        integrator: vi_implicit
        h: 0.01
        role: reproducing
        energy_err_mean: 2e-5
        unit_length_err_mean: 9e-15
        note: ours {ours.energy_err_mean} is {ratio.energy_err_mean} of {published.energy_err_mean} at h = {h}
    claims:
      - {claim: stays on the sphere, where: Sec. 1, metric: manifold_err_max, integrators: [vi_implicit], at_most: 1e-13}
      - {claim: drifts off the sphere, where: Sec. 1, metric: manifold_err_max, integrators: [rk2], at_least: 1e-8}
      - {claim: the energy drifts, where: Sec. 2, metric: energy_err_max, integrators: [rk2], at_least: 1}
)";

nlohmann::json record(const std::string& integrator, double energy_err_mean, double unit, double manifold) {
  return {{"experiment", "e"},       {"integrator", integrator}, {"h", 0.01},  {"rtol", nullptr}, {"atol", nullptr},
          {"T", 1.0},                {"adaptive", false},        {"status", "ok"}, {"case_id", "id-" + integrator},
          {"added_step", false},     {"energy_err_mean", energy_err_mean},  {"unit_length_err_mean", unit},
          {"manifold_err_max", manifold}, {"energy_err_max", 0.5},  {"absent", nlohmann::json::array()}};
}

TEST(Reproduction, NumbersInTheNoteAreTheRowsAndRoundOffHasNoBand) {
  const StudySpec spec = parse_study_spec(kSpec, "notes.yaml");
  const std::string csv = reproduction_csv(spec, {record("vi_implicit", 1.4e-5, 4e-15, 1e-15), record("rk2", 1.0, 1.0, 1e-6)});
  // energy: 1.4e-5 / 2e-5 = 0.7, out of the band; unit length: both at round-off.
  EXPECT_NE(csv.find(",energy_err_mean,2e-05,1.4e-05,0.7,id-vi_implicit,"
                     "ours 1.4e-05 is 0.7 of 2e-05 at h = 0.01,0,0\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",unit_length_err_mean,") , std::string::npos);
  EXPECT_NE(csv.find("h = 0.01,1,\n"), std::string::npos) << "the round-off row: round_off 1, no band verdict\n" << csv;
}

TEST(Claims, HeldNotHeldAndNotChecked) {
  const StudySpec spec = parse_study_spec(kSpec, "notes.yaml");
  std::vector<nlohmann::json> records = {record("vi_implicit", 1e-5, 1e-15, 2e-15), record("rk2", 1.0, 1.0, 3e-6)};
  std::string csv = claims_csv(spec, records);
  EXPECT_NE(csv.find("stays on the sphere,Sec. 1,manifold_err_max,vi_implicit,<=,1e-13,2e-15,held,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("drifts off the sphere,Sec. 1,manifold_err_max,rk2,>=,1e-08,3e-06,held,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("the energy drifts,Sec. 2,energy_err_max,rk2,>=,1,0.5,not_held,"), std::string::npos) << csv;
  records[1]["status"] = "NonFinite";
  csv = claims_csv(spec, records);
  EXPECT_NE(csv.find("rk2,>=,1e-08,,not_checked,"), std::string::npos) << csv;
  records[1]["status"] = "ok";
  records[1]["manifold_err_max"] = nullptr;  // NaN: never held
  csv = claims_csv(spec, records);
  EXPECT_NE(csv.find("rk2,>=,1e-08,,not_held,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace geomint
