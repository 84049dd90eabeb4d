// Label `unit`: methods a study spec defines by their coefficients (`methods:`,
// studies/README.md). A good spec loads, with its runs bound to its methods; a tableau that is
// not what it declares, and every malformed entry, is refused with the file, line and column,
// the place and the method named; `geomint study`'s engine runs such a method, fits its order into
// orders.csv, and never serves a case of a changed tableau from the cached result of the old.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "errors/exit_status_errors.hpp"
#include "studies/engine.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

namespace fs = std::filesystem;

std::string write_spec(const std::string& name, const std::string& text) {
  const auto path = fs::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

/// A spec with `methods` (YAML, indented as a top-level key's list) and one experiment on the
/// double pendulum running `integrators` at `h`.
std::string spec_text(const std::string& methods, const std::string& integrators,
                      const std::string& h = "[0.04, 0.02, 0.01]", const std::string& extra = "") {
  return "name: user\ntitle: user\ndescription: user\nmethods:\n" + methods + R"(experiments:
  - name: e
    model: double_spherical_pendulum
    preset: lee2009
    T: 0.5
    series: false
    reference: {integrator: cvode_bdf, rtol: 1e-12, atol: 1e-14}
    runs:
      - integrators: )" +
         integrators + "\n        h: " + h + "\n" + extra;
}

const std::string kKutta3 = R"(  - name: kutta3_user
    kind: runge_kutta       # or rkmk, commutator_free
    order: 3
    a: [[0,0,0],[0.5,0,0],[-1,2,0]]
    b: [1/6, 2/3, 1/6]
    c: [0, 0.5, 1]
)";

/// The message of the InputError that loading `text` throws (empty if it loads).
std::string load_error(const std::string& name, const std::string& text) {
  try {
    load_study_spec(write_spec(name, text));
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

TEST(UserMethodSpec, AGoodSpecLoadsWithItsRunsBoundToItsMethods) {
  const std::string methods = kKutta3 + R"(  - name: rkmk_heun3
    kind: rkmk
    order: 3
    symmetric: false
    description: RKMK with Heun's third-order tableau
    a: [[0, 0, 0], [1/3, 0, 0], [0, 2/3, 0]]
    b: [1/4, 0, 3/4]
  - name: cf3_user
    kind: commutator_free
    order: 3
    stages: [{}, {exponentials: [[1/3, 0, 0]]}, {exponentials: [[0, 2/3, 0]]}]
    update: {base: 2, exponentials: [[-1/12, 0, 3/4]]}
)";
  const StudySpec spec = load_study_spec(write_spec(
      "geomint_user_good.yaml", spec_text(methods, "[kutta3_user, rkmk_heun3, cf3_user, rk4]")));
  ASSERT_EQ(spec.methods.size(), 3u);
  const auto& kutta = spec.methods[0];
  EXPECT_EQ(kutta->kind(), UserMethodKind::RungeKutta);
  EXPECT_EQ(kutta->declaration().name, "kutta3_user");
  EXPECT_EQ(kutta->declaration().order, 3);
  EXPECT_EQ(kutta->declaration().family, Family::Classical);
  EXPECT_FALSE(kutta->declaration().adaptive);
  EXPECT_FALSE(kutta->declaration().stays_on_manifold);  // no reprojection
  const auto& rk = std::get<RuntimeRkMethod>(kutta->coefficients());
  EXPECT_EQ(rk.tableau.b[0], 1.0 / 6);  // "1/6" read as the double nearest 1/6
  EXPECT_EQ(rk.tableau.b[1], 2.0 / 3);
  const auto& rkmk = std::get<RuntimeRkmkMethod>(spec.methods[1]->coefficients());
  EXPECT_EQ(rkmk.tableau.c, (std::vector<double>{0, 1.0 / 3, 2.0 / 3}));  // the row sums of a
  EXPECT_EQ(spec.methods[1]->declaration().description, "RKMK with Heun's third-order tableau");
  EXPECT_TRUE(spec.methods[1]->declaration().stays_on_manifold);
  EXPECT_EQ(spec.methods[2]->kind(), UserMethodKind::CommutatorFree);
  const auto& cases = spec.experiments.at(0).cases;
  ASSERT_EQ(cases.size(), 12u);
  for (const auto& c : cases) {
    if (c.integrator == "rk4") {
      EXPECT_FALSE(c.user_method);
    } else {
      ASSERT_TRUE(c.user_method) << c.integrator;
      EXPECT_EQ(c.user_method->name(), c.integrator);
    }
  }
}

TEST(UserMethodSpec, ATableauThatIsNotOfItsOrderIsRefusedNamingTheFirstViolatedCondition) {
  // b = (1/6, 2/3 + 1/100, 1/6 - 1/100): sum b_i = 1, sum b_i c_i = 1/2 - 1/200.
  const std::string methods = R"(  - name: kutta3_bad
    kind: runge_kutta
    order: 3
    a: [[0,0,0],[0.5,0,0],[-1,2,0]]
    b: [1/6, 0.6766666666666667, 0.15666666666666668]
)";
  const std::string error = load_error("geomint_user_bad.yaml", spec_text(methods, "[kutta3_bad]"));
  EXPECT_NE(
      error.find("geomint_user_bad.yaml:5:5: methods[0]: method 'kutta3_bad': order condition "
                 "'sum b_i c_i = 1/2' (order 2, tree [τ]) violated: 0.495"),
      std::string::npos)
      << error;
  EXPECT_EQ(error.substr(error.size() - 7), " != 0.5") << error;
}

TEST(UserMethodSpec, AnOverstatedOrderIsRefused) {
  std::string methods = kKutta3;
  methods.replace(methods.find("order: 3"), 8, "order: 4");
  const std::string error =
      load_error("geomint_user_order4.yaml", spec_text(methods, "[kutta3_user]"));
  EXPECT_NE(error.find("'sum b_i c_i a_ij c_j = 1/8' (order 4, tree [τ,[τ]]) violated"),
            std::string::npos)
      << error;
}

TEST(UserMethodSpec, MalformedMethodsAreRefusedWithThePlaceNamed) {
  const struct {
    const char* what;
    std::string methods;
    std::string expected;
  } cases[] = {
      {"a built-in's name", R"(  - {name: rk4, kind: runge_kutta, order: 1, a: [[0]], b: [1]}
)",
       "5:12: methods[0]: method 'rk4': 'rk4' is the name of a built-in integrator: choose "
       "another"},
      {"two of one name", R"(  - {name: euler, kind: runge_kutta, order: 1, a: [[0]], b: [1]}
  - {name: euler, kind: rkmk, order: 1, a: [[0]], b: [1]}
)",
       "6:5: methods[1]: two methods are named 'euler'"},
      {"an unknown kind", R"(  - {name: m, kind: rosenbrock, order: 1, a: [[0]], b: [1]}
)",
       "method 'm': unknown kind 'rosenbrock' (known: runge_kutta, rkmk, commutator_free, command)"},
      {"an implicit tableau",
       R"(  - {name: m, kind: runge_kutta, order: 1, a: [[0, 0], [0.5, 0.5]], b: [0, 1]}
)",
       "method 'm': a_2,2 = 0.5 on or above the diagonal"},
      {"mismatched sizes",
       R"(  - {name: m, kind: runge_kutta, order: 1, a: [[0, 0], [1, 0]], b: [1]}
)",
       "method 'm': a has 2 rows but b has 1 weights"},
      {"a non-finite entry",
       R"(  - {name: m, kind: rkmk, order: 1, a: [[0, 0], [.nan, 0]], b: [0, 1]}
)",
       "5:50: methods[0]: method 'm': 'a' row 2 entry 1 must be a finite number, got '.nan'"},
      {"a bad fraction", R"(  - {name: m, kind: runge_kutta, order: 1, a: [[0]], b: [1/x]}
)",
       "5:58: methods[0]: method 'm': 'b' entry 1 must be a number or a fraction p/q, got '1/x'"},
      {"nodes that are not the row sums",
       R"(  - {name: m, kind: runge_kutta, order: 1, a: [[0, 0], [1, 0]], b: [0.5, 0.5], c: [0, 0.9]}
)",
       "method 'm': c_2 = 0.9 is not the row sum of a"},
      {"a missing key", R"(  - {name: m, kind: runge_kutta, order: 1, a: [[0]]}
)",
       "method 'm': missing 'b'"},
      {"a key of another kind",
       R"(  - {name: m, kind: rkmk, order: 1, a: [[0]], b: [1], reproject: true}
)",
       "method 'm': unknown key 'reproject'"},
      {"a commutator-free stage using its own field", R"(  - name: m
    kind: commutator_free
    order: 1
    stages: [{}, {exponentials: [[0.5, 0.5]]}]
    update: {exponentials: [[0.5, 0.5]]}
)",
       "method 'm': stage 2, exponential 1: weight 0.5 of f_2, but a stage can only use the fields "
       "of earlier stages"},
      {"a commutator-free update not summing to 1", R"(  - name: m
    kind: commutator_free
    order: 1
    stages: [{}, {exponentials: [[1, 0]]}]
    update: {base: 2, exponentials: [[0.5, 0.5]]}
)",
       "method 'm': the update's weights (with its base's) sum to 2, not 1"},
  };
  for (const auto& c : cases) {
    const std::string error =
        load_error("geomint_user_malformed.yaml", spec_text(c.methods, "[rk4]"));
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.what << ": " << error;
    EXPECT_TRUE(
        std::regex_search(error, std::regex(R"(geomint_user_malformed\.yaml:\d+:\d+: methods\[)")))
        << c.what << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << c.what << ": " << error;
  }
}

TEST(UserMethodSpec, AUserMethodIsFixedStepAndNamedAmongTheKnownIntegrators) {
  std::string error = load_error("geomint_user_rtol.yaml",
                                 spec_text(kKutta3, "[kutta3_user]\n        rtol: 1e-6", "0.01"));
  EXPECT_NE(error.find("kutta3_user is a fixed-step method: rtol/atol do not apply"),
            std::string::npos)
      << error;
  error = load_error("geomint_user_unknown.yaml", spec_text(kKutta3, "[kutta4_user]"));
  EXPECT_NE(error.find("unknown integrator 'kutta4_user'"), std::string::npos) << error;
  EXPECT_NE(error.find(", kutta3_user)"), std::string::npos) << error;
}

/// The rows of a CSV file, each a list of fields (no quoted commas in the columns used here).
std::vector<std::vector<std::string>> csv_rows(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) fields.push_back(f);
    rows.push_back(fields);
  }
  return rows;
}

TEST(UserMethodStudy, TheEngineFitsItsOrderIntoOrdersCsv) {
  const fs::path out = fs::temp_directory_path() / "geomint_user_study";
  fs::remove_all(out);
  const StudySpec spec =
      load_study_spec(write_spec("geomint_user_study.yaml", spec_text(kKutta3, "[kutta3_user]")));
  StudyOptions options{out.string(), 2, false};
  const StudySummary summary = run_study(spec, options);
  EXPECT_EQ(summary.cases, 3);
  EXPECT_EQ(summary.failed, 0);
  const auto rows = csv_rows(out / "orders.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][3], "integrator");
  EXPECT_EQ(rows[0][5], "fitted_order");
  EXPECT_EQ(rows[1][3], "kutta3_user");
  EXPECT_EQ(rows[1][4], "3");
  EXPECT_NEAR(std::stod(rows[1][5]), 3.0, 0.25) << "orders.csv: fitted order " << rows[1][5];
}

TEST(UserMethodStudy, AChangedTableauIsNeverServedFromTheCachedResultOfTheOld) {
  const fs::path out = fs::temp_directory_path() / "geomint_user_cache";
  fs::remove_all(out);
  StudyOptions options{out.string(), 2, false};
  const auto run = [&](const std::string& methods) {
    return run_study(load_study_spec(write_spec("geomint_user_cache.yaml",
                                                spec_text(methods, "[m]", "[0.05, 0.025]"))),
                     options);
  };
  const std::string kutta3 =
      R"(  - {name: m, kind: runge_kutta, order: 3, a: [[0,0,0],[1/2,0,0],[-1,2,0]], b: [1/6,2/3,1/6]}
)";
  const std::string heun3 =
      R"(  - {name: m, kind: runge_kutta, order: 3, a: [[0,0,0],[1/3,0,0],[0,2/3,0]], b: [1/4,0,3/4]}
)";
  EXPECT_EQ(run(kutta3).resumed, 0);
  EXPECT_EQ(run(kutta3).resumed, 2);  // unchanged: both cases served from the cache
  EXPECT_EQ(run(heun3).resumed, 0);   // the same name, order and steps; other coefficients
}

}  // namespace
}  // namespace geomint
