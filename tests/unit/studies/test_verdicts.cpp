// Verdicts (studies/verdicts.hpp) on planted case records: each kind of false verdict a bench can
// give (errors that do not converge, errors at the reference's floor, a pre-asymptotic order above
// nominal, lost order, a manifold defect, a NaN, a failed or n/a pair, an adaptive method; over the
// long run an energy drift, a momentum map or defect beyond round-off, a method that does not come
// back) gets the
// state it must, and verdicts.csv reads back with the same counts. The records are what the engine
// writes (studies/result_files.hpp), with the errors set by hand.
#include "studies/verdicts.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "studies/atomic_file.hpp"
#include "studies/convergence.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* kSpec = R"(name: planted
title: planted verdicts
known_deviations:
  - {experiment: e, integrators: [rkmk5], promise: order, reason: the planted lost order}
experiments:
  - name: e
    model: spherical_pendulum
    preset: swing
    T: 1
    reference: {integrator: odeint_rkf78, rtol: 1e-13, atol: 1e-15}
    runs:
      - {integrators: [rk4, rkmk4, lie_euler, vi_implicit, rkmk5, rk2], h: [0.04, 0.02, 0.01]}
      - {integrators: [dopri45], rtol: [1e-4, 1e-6, 1e-8]}
)";

struct Planted {
  StudySpec spec = parse_study_spec(kSpec, "planted.yaml");
  std::vector<nlohmann::json> records;

  /// A finished (or failed) case: its declaration and its numbers.
  nlohmann::json& add(const std::string& integrator, double h, double err, const std::string& status = "ok") {
    nlohmann::json r;
    const bool adaptive = integrator == "dopri45";
    r["experiment"] = "e";
    r["integrator"] = integrator;
    r["family"] = integrator.starts_with("rk") && !integrator.starts_with("rkmk") ? "classical" : "lie_group";
    r["adaptive"] = adaptive;
    r["symplectic"] = integrator == "vi_implicit";
    r["stays_on_manifold"] = integrator.starts_with("rkmk") || integrator == "lie_euler" || integrator == "vi_implicit";
    r["energy_conserved"] = true;
    r["nominal_order"] = integrator == "lie_euler" ? 1 : integrator == "rkmk5" ? 5 : integrator == "rk2" || integrator == "vi_implicit" ? 2 : 4;
    r["status"] = status;
    r["status_detail"] = status == "ok" ? "" : status + " at t = 0.5";
    r["h"] = adaptive ? nlohmann::json() : nlohmann::json(h);
    r["rtol"] = adaptive ? nlohmann::json(h) : nlohmann::json();
    r["T"] = 1.0;
    r["mean_step"] = adaptive ? h * 10 : h;
    r["global_err"] = status == "ok" ? nlohmann::json(err) : nlohmann::json();
    r["manifold_defect_max"] = 1e-15;
    r["momentum_rel_err_max"] = 1e-14;
    r["momentum_err_max"] = 1e-14;
    r["energy_rel_err_max"] = 1e-4;
    r["energy_err_max"] = 1e-4;
    r["added_step"] = false;
    r["absent"] = nlohmann::json::array();
    records.push_back(r);
    return records.back();
  }

  std::vector<Verdict> judge(double floor = 1e-13, double ceiling = 1.0) {
    const auto pairs = measure_convergence(spec, records, {{"e", ErrorScale{floor, ceiling}}});
    return judge_study(spec, records, pairs);
  }
};

const Verdict& find(const std::vector<Verdict>& verdicts, const std::string& integrator, const std::string& promise) {
  for (const auto& v : verdicts)
    if (v.integrator == integrator && v.promise == promise) return v;
  throw std::runtime_error("no verdict for " + integrator + " " + promise);
}

TEST(Verdicts, ErrorsThatDoNotConvergeAreNotChecked) {
  Planted p;
  p.add("lie_euler", 0.04, 0.082);
  p.add("lie_euler", 0.02, 0.103);
  p.add("lie_euler", 0.01, 0.05);
  const auto verdicts_v = p.judge();
  const Verdict& v = find(verdicts_v, "lie_euler", "order");
  EXPECT_EQ(v.state, VerdictState::NotChecked);
  EXPECT_EQ(v.why, "no_window");
  EXPECT_TRUE(std::isnan(v.value));
}

TEST(Verdicts, ErrorsAtTheReferencesFloorAreNotChecked) {
  Planted p;
  p.add("rk4", 0.04, 2e-11);
  p.add("rk4", 0.02, 5e-14);  // at or below the floor of 1e-13
  p.add("rk4", 0.01, 3e-14);
  const auto verdicts_v = p.judge();
  const Verdict& v = find(verdicts_v, "rk4", "order");
  EXPECT_EQ(v.state, VerdictState::NotChecked);
  EXPECT_NE(v.reason.find("error floor"), std::string::npos) << v.reason;
}

TEST(Verdicts, AboveNominalInAWindowIsKeptFromAbove) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("rkmk4", h, std::pow(h, 4.5));
  const auto verdicts_v = p.judge();
  const Verdict& v = find(verdicts_v, "rkmk4", "order");
  EXPECT_EQ(v.state, VerdictState::Kept);
  EXPECT_EQ(v.why, "from_above");
  EXPECT_NEAR(v.value, 4.5, 1e-9);
  EXPECT_NE(v.reason.find("local slopes"), std::string::npos) << v.reason;
}

TEST(Verdicts, LostOrderIsBroken) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("rk2", h, std::pow(h, 1.5));
  const auto verdicts_v = p.judge();
  const Verdict& v = find(verdicts_v, "rk2", "order");
  EXPECT_EQ(v.state, VerdictState::Broken);
  EXPECT_EQ(v.why, "below_nominal");
  EXPECT_NEAR(v.value, 1.5, 1e-9);
  EXPECT_DOUBLE_EQ(v.bound, 1.8);
}

TEST(Verdicts, AKnownDeviationIsExplainedAndAKeptPromiseStaysKept) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("rkmk5", h, std::pow(h, 4));
  const auto verdicts_lost = p.judge();
  const Verdict& lost = find(verdicts_lost, "rkmk5", "order");
  EXPECT_EQ(lost.state, VerdictState::Explained);
  EXPECT_NE(lost.reason.find("the planted lost order"), std::string::npos) << lost.reason;
  Planted q;
  for (double h : {0.04, 0.02, 0.01}) q.add("rkmk5", h, std::pow(h, 5));
  EXPECT_EQ(find(q.judge(), "rkmk5", "order").state, VerdictState::Kept);
}

TEST(Verdicts, AManifoldDefectAboveItsBoundOrNotFiniteIsBroken) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("rkmk4", h, std::pow(h, 4));
  p.records[1]["manifold_defect_max"] = 3e-9;
  EXPECT_EQ(find(p.judge(), "rkmk4", "manifold").state, VerdictState::Broken);
  p.records[1]["manifold_defect_max"] = nlohmann::json();  // NaN in the record
  const auto verdicts_v = p.judge();
  const Verdict& v = find(verdicts_v, "rkmk4", "manifold");
  EXPECT_EQ(v.state, VerdictState::Broken);
  EXPECT_EQ(v.why, "non_finite");
}

TEST(Verdicts, MomentumStartingAtZeroIsJudgedOnItsAbsoluteChange) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("vi_implicit", h, std::pow(h, 2));
  for (auto& r : p.records) r["momentum_rel_err_max"] = nlohmann::json();
  EXPECT_EQ(find(p.judge(), "vi_implicit", "momentum").state, VerdictState::Kept);
  p.records[0]["momentum_err_max"] = 1e-6;
  EXPECT_EQ(find(p.judge(), "vi_implicit", "momentum").state, VerdictState::Broken);
}

TEST(Verdicts, TheEnergyIsJudgedAtTheFinestStep) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("vi_implicit", h, std::pow(h, 2));
  p.records[0]["energy_rel_err_max"] = 0.03;  // the largest step
  EXPECT_EQ(find(p.judge(), "vi_implicit", "energy").state, VerdictState::Kept);
  p.records[2]["energy_rel_err_max"] = 0.02;  // the finest
  EXPECT_EQ(find(p.judge(), "vi_implicit", "energy").state, VerdictState::Broken);
}

TEST(Verdicts, AnAdaptiveMethodHasNoOrderAndItsSlopeIsNotCalledOne) {
  Planted p;
  for (double tol : {1e-4, 1e-6, 1e-8}) p.add("dopri45", tol, tol);
  const auto verdicts_v = p.judge();
  const Verdict& v = find(verdicts_v, "dopri45", "order");
  EXPECT_EQ(v.state, VerdictState::NotChecked);
  EXPECT_EQ(v.why, "adaptive");
  EXPECT_NE(v.reason.find("not an order"), std::string::npos) << v.reason;
}

TEST(Verdicts, APairWithNoFinishedCaseOrNotApplicableIsNotChecked) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("rkmk4", h, kNaN, "NonConvergence");
  for (double h : {0.04, 0.02, 0.01}) p.add("vi_implicit", h, kNaN, "n/a")["status_detail"] = "n/a: no view";
  const auto verdicts = p.judge();
  for (const auto& v : verdicts) EXPECT_EQ(v.state, VerdictState::NotChecked) << v.integrator << " " << v.promise;
  EXPECT_EQ(find(verdicts, "rkmk4", "order").why, "failed");
  EXPECT_EQ(find(verdicts, "vi_implicit", "momentum").why, "n/a");
  EXPECT_EQ(find(verdicts, "vi_implicit", "manifold").why, "n/a");
}

const char* kLongSpec = R"(name: planted_long
title: planted long-time verdicts
experiments:
  - name: e
    model: spherical_pendulum
    preset: swing
    T: 1000
    long_time: true
    runs:
      - {integrators: [vi_explicit, rk4], h: [0.01]}
)";

/// A long-time case's summary of one quantity (studies/long_time_record.hpp), as the engine writes it.
nlohmann::json quantity(const std::string& name, const std::string& kind, double initial, double abs_max, double alpha,
                        double drift = 0.0, double drift_se = 1e-12) {
  return {{"name", name}, {"kind", kind}, {"initial", initial}, {"abs_max", abs_max}, {"alpha", alpha},
          {"alpha_se", 0.03}, {"alpha_note", ""}, {"fit_from", 1.0}, {"fit_to", 1000.0}, {"fit_bins", 31},
          {"drift", drift}, {"drift_se", drift_se}, {"correlation", 0.0}};
}

TEST(Verdicts, OverTheLongRunADriftRoundOffExceededOrAMissedReturnIsBroken) {
  const StudySpec spec = parse_study_spec(kLongSpec, "planted_long.yaml");
  const double n = 1e5, eps = 2.220446049250313e-16;
  const auto judge = [&](nlohmann::json energy, nlohmann::json lz, nlohmann::json unit, double miss) {
    Planted p;
    nlohmann::json& r = p.add("vi_explicit", 0.01, kNaN);
    r["experiment"] = "e";
    r["T"] = 1000.0;
    r["symplectic"] = r["symmetric"] = r["stays_on_manifold"] = true;  // the explicit VI's promises
    r["output_points"] = n;
    r["long_time"] = {energy, lz, unit};
    r["reversibility_steps"] = 100;
    r["reversibility_miss"] = miss;
    r["reversibility_scale"] = 1.7;
    return judge_study(spec, p.records, {});
  };
  const auto good_energy = quantity("energy", "energy", -2.4, 1e-5, 0.05);
  const auto good_lz = quantity("Lz", "momentum", 1.7, 1e-13, 0.5);
  const auto good_unit = quantity("unit_1", "manifold_defect", 0.0, 1e-14, 0.5);
  const double good_miss = 1e-15;
  auto v = judge(good_energy, good_lz, good_unit, good_miss);
  for (const char* promise : {"long_energy", "long_momentum", "long_manifold", "reversibility"})
    EXPECT_EQ(find(v, "vi_explicit", promise).state, VerdictState::Kept) << promise << ": " << find(v, "vi_explicit", promise).reason;

  // Each promise broken on its own: a linear drift, round-off exceeded, a miss.
  v = judge(quantity("energy", "energy", -2.4, 1e-5, 1.0), good_lz, good_unit, good_miss);
  EXPECT_EQ(find(v, "vi_explicit", "long_energy").state, VerdictState::Broken);
  v = judge(quantity("energy", "energy", -2.4, 1e-5, 0.05, 1e-8, 1e-10), good_lz, good_unit, good_miss);
  EXPECT_EQ(find(v, "vi_explicit", "long_energy").why, "drift");
  const double lz_bound = kRoundOffUlps * eps * 1.7 * std::sqrt(n);
  v = judge(good_energy, quantity("Lz", "momentum", 1.7, 1.01 * lz_bound, 0.5), good_unit, good_miss);
  EXPECT_EQ(find(v, "vi_explicit", "long_momentum").state, VerdictState::Broken);
  v = judge(good_energy, quantity("Lz", "momentum", 1.7, 0.99 * lz_bound, 0.5), good_unit, good_miss);
  EXPECT_EQ(find(v, "vi_explicit", "long_momentum").state, VerdictState::Kept);
  v = judge(good_energy, good_lz, quantity("unit_1", "manifold_defect", 0.0, kNaN, kNaN), good_miss);
  EXPECT_EQ(find(v, "vi_explicit", "long_manifold").state, VerdictState::Broken);
  v = judge(good_energy, good_lz, good_unit, 1.01 * kReversibilityUlps * eps * 1.7 * 10.0);
  EXPECT_EQ(find(v, "vi_explicit", "reversibility").state, VerdictState::Broken);
  // Round-off's own random walk in a tiny energy error is no drift of the method.
  v = judge(quantity("energy", "energy", -2.4, 1e-13, 0.7), good_lz, good_unit, good_miss);
  EXPECT_EQ(find(v, "vi_explicit", "long_energy").state, VerdictState::Kept);
}

TEST(Verdicts, TheFileReadsBackWithTheSameCounts) {
  Planted p;
  for (double h : {0.04, 0.02, 0.01}) p.add("rk2", h, std::pow(h, 1.5));      // broken
  for (double h : {0.04, 0.02, 0.01}) p.add("rkmk4", h, std::pow(h, 4));      // 2 kept
  for (double h : {0.04, 0.02, 0.01}) p.add("rkmk5", h, std::pow(h, 4));      // explained
  for (double tol : {1e-4, 1e-6, 1e-8}) p.add("dopri45", tol, tol);          // not checked
  const auto verdicts = p.judge();
  const auto dir = std::filesystem::temp_directory_path() / "geomint_test_verdicts";
  std::filesystem::create_directories(dir);
  write_file_atomically(dir / "verdicts.csv", verdicts_csv("planted, \"quoted\"", verdicts));
  const VerdictCounts c = read_verdict_counts(dir);
  EXPECT_EQ(c.kept, 3);  // rkmk4's order and manifold, rkmk5's manifold
  EXPECT_EQ(c.broken, 1);
  EXPECT_EQ(c.not_checked, 1);
  EXPECT_EQ(c.explained, 1);
  EXPECT_EQ(verdict_summary(c, dir).rfind("verdicts: 3 kept, 1 broken, 1 not checked, 1 explained", 0), 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace geomint
