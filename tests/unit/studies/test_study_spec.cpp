// Label `unit`: the expansion of `all_integrators` in a study spec (the matrix): every
// catalogued integrator gets cases, fixed-step ones at h (or at h_high_order from order 5 up),
// adaptive ones at the tolerances; a matrix spec that leaves a model out is refused; a
// parameter value outside its domain is refused at load, with the parameter and line named.
// The reader's errors: one line, at the line and column (in characters) of the node they are
// about; what yaml-cpp accepts but a spec must not hold (duplicate keys, an unterminated quote
// at the end of the file, a key without a value); the step caps; every spec of the repository
// loads; and no text, however mangled, gets anything but an InputError out of the reader.
// (The malformed-spec corpus, tests/data/bad_specs/, is the `spec-corpus` test.)

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "catalogue/integrator_declarations.hpp"
#include "errors/exit_status_errors.hpp"
#include "studies/build_info.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/spec.hpp"
#include "studies/spec_text.hpp"

namespace geomint {
namespace {

std::string write_spec(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(AllIntegrators, ExpandsToEveryIntegratorWithItsSettings) {
  const StudySpec spec = load_study_spec(write_spec("geomint_all_integrators.yaml", R"(
name: all
title: all
description: all
experiments:
  - name: e
    model: spherical_pendulum
    preset: swing
    T: 0.1
    all_integrators: {h: [0.02, 0.01], h_high_order: [0.08], rtol: [1e-6, 1e-8, 1e-10]}
)"));
  ASSERT_EQ(spec.experiments.size(), 1u);
  std::map<std::string, std::set<double>> settings;
  for (const CaseSpec& c : spec.experiments[0].cases)
    settings[c.integrator].insert(std::isnan(c.h) ? c.rtol : c.h);
  for (const auto& d : integrator_declarations()) {
    const std::string name(d.name);
    ASSERT_TRUE(settings.count(name)) << name << " has no case";
    const std::set<double> expected = d.adaptive     ? std::set<double>{1e-6, 1e-8, 1e-10}
                                      : d.order >= 5 ? std::set<double>{0.08}
                                                     : std::set<double>{0.02, 0.01};
    EXPECT_EQ(settings[name], expected) << name;
  }
  EXPECT_EQ(settings.size(), integrator_declarations().size());
}

TEST(AllIntegrators, WithoutHighOrderStepsEveryFixedStepMethodTakesH) {
  const StudySpec spec = load_study_spec(write_spec("geomint_all_integrators_h.yaml", R"(
name: all
title: all
description: all
experiments:
  - name: e
    model: spherical_pendulum
    preset: swing
    T: 0.1
    all_integrators: {h: [0.01], rtol: [1e-6]}
)"));
  for (const CaseSpec& c : spec.experiments[0].cases) {
    if (!std::isnan(c.h)) {
      EXPECT_EQ(c.h, 0.01) << c.integrator;
    }
  }
}

TEST(MatrixSpec, LeavingAModelOutIsRefusedWithTheModelNamed) {
  const std::string path = write_spec("geomint_matrix_partial.yaml", R"(
name: m
kind: matrix
title: m
description: m
experiments:
  - name: e
    model: spherical_pendulum
    preset: swing
    T: 0.1
    all_integrators: {h: [0.01], rtol: [1e-6]}
)");
  try {
    load_study_spec(path);
    FAIL() << "a matrix without every model was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no experiment for model"), std::string::npos) << e.what();
  }
}

/// The message of the InputError that loading a one-experiment spec with these parameters
/// throws (the parameters on line 9); empty if it loads.
std::string load_error(const std::string& model, const std::string& preset,
                       const std::string& parameters) {
  const std::string path = write_spec("geomint_parameter_domain.yaml", R"(name: d
title: d
description: d
experiments:
  - name: e
    model: )" + model + R"(
    preset: )" + preset + R"(
    parameters:
      )" + parameters + R"(
    T: 0.1
    runs:
      - {integrators: [rk4], h: 0.01}
)");
  try {
    load_study_spec(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

TEST(SpecParameters, AValueOutsideItsDomainIsRefusedAtLoadWithParameterValueDomainAndLine) {
  const std::string nan_g = load_error("spherical_pendulum", "swing", "g: .nan");
  EXPECT_NE(
      nan_g.find("spherical_pendulum: parameter g = nan is outside its domain (finite numbers)"),
      std::string::npos)
      << nan_g;
  EXPECT_NE(nan_g.find("experiment 'e'"), std::string::npos) << nan_g;
  EXPECT_NE(nan_g.find("geomint_parameter_domain.yaml:9:10: "), std::string::npos)
      << nan_g;  // the value

  const std::string negative_mass = load_error("double_spherical_pendulum", "lee2009", "m1: -1");
  EXPECT_NE(negative_mass.find("parameter m1 = -1 is outside its domain (positive numbers)"),
            std::string::npos)
      << negative_mass;

  const std::string fractional_count = load_error("pendulum_chain", "celledoni2021_N2", "N: 2.5");
  EXPECT_NE(fractional_count.find("parameter N = 2.5 is outside its domain (whole numbers"),
            std::string::npos)
      << fractional_count;

  EXPECT_EQ(load_error("spherical_pendulum", "swing", "g: -1.62"), "");
}

/// The InputError message parse_study_spec gives for `text` (named "spec.yaml"); empty if it
/// is accepted.
std::string parse_error(const std::string& text) {
  try {
    parse_study_spec(text, "spec.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

const std::string kGood = R"(name: good
title: a good spec
experiments:
  - name: e
    model: spherical_pendulum
    preset: swing
    T: 1
    runs:
      - integrators: [rk4]
        h: 0.01
)";

TEST(SpecErrors, ADuplicateKeyIsRefusedAtTheSecondKeyNamingTheFirstsLine) {
  ASSERT_EQ(parse_error(kGood), "");
  std::string text = kGood;
  text.replace(text.find("    T: 1\n"), 9, "    T: 1\n    preset: conical\n");
  EXPECT_EQ(parse_error(text),
            "spec.yaml:8:5: experiments[0]: duplicate key 'preset' (first given on line 6)");
  // At any depth, in flow style too: the column is the second key's.
  text = kGood;
  text.replace(text.find("h: 0.01"), 7, "h: 0.01\n        rtol: {a: 1, a: 2}");
  EXPECT_EQ(
      parse_error(text),
      "spec.yaml:11:22: experiments[0].runs[0].rtol: duplicate key 'a' (first given on line 11)");
}

TEST(SpecErrors, TheColumnCountsCharactersNotBytes) {
  std::string text = kGood;  // 'é' and 'π' are two bytes each in UTF-8
  text.replace(text.find("title: a good spec"), 18, "title: 'é'\ndescription: π π");
  text.replace(text.find("T: 1"), 4, "T: {é: 1, x: -1}");
  EXPECT_EQ(parse_error(text),
            "spec.yaml:8:8: experiments[0]: experiment 'e': 'T' must be a number, got a map");
  text = kGood + "description: 'é', [x]\n";  // yaml-cpp's own errors, too: at the ','
  EXPECT_EQ(parse_error(text), "spec.yaml:11:17: not valid YAML: end of map not found");
  text = kGood;
  text.replace(text.find("integrators: [rk4]"), 18, "integrators: [é, rk4, ü]");
  const std::string unknown = parse_error(text);
  EXPECT_EQ(unknown.substr(0, 58), "spec.yaml:9:23: experiments[0]: experiment 'e': runs[0]: u")
      << unknown;
}

TEST(SpecErrors, AQuoteNeverClosedIsRefusedThoughYamlCppAcceptsIt) {
  // yaml-cpp 0.7 reads `description: "abc` to the end of the file when a line break follows:
  // the rest of the spec would silently become the description.
  const std::string text = "name: good\ndescription: \"abc\n" + kGood.substr(kGood.find("title"));
  EXPECT_EQ(parse_error(text), "spec.yaml:2:14: the quote (\") opening this text is never closed");
  EXPECT_EQ(parse_error("name: 'it''s\n"),
            "spec.yaml:1:7: the quote (') opening this text is never closed");
  // Closed ones, with escaped quotes inside, are fine.
  std::string closed = kGood;
  closed.replace(closed.find("title: a good spec"), 18,
                 "title: \"a \\\"good\\\" spec\"\ndescription: 'it''s'");
  EXPECT_EQ(parse_error(closed), "");
}

TEST(SpecErrors, CurvesOfAModelThatDrawsNoneAreRefusedAtThePlotsLine) {
  std::string text = kGood;
  text.replace(text.find("    T: 1\n"), 9, "    T: 1\n    plots: [energy, curves]\n");
  EXPECT_EQ(parse_error(text),
            "spec.yaml:8:12: experiments[0]: experiment 'e': model spherical_pendulum draws no "
            "curves (models/curves.hpp)");
  text.replace(text.find("model: spherical_pendulum"), 25, "model: heavy_top");
  text.replace(text.find("preset: swing"), 13, "preset: celledoni2021");
  EXPECT_EQ(parse_error(text), "");
}

TEST(SpecErrors, AKeyWithoutValueIsAnErrorNotADefault) {
  std::string text = kGood;
  text.replace(text.find("T: 1"), 4, "T:");
  EXPECT_EQ(parse_error(text), "spec.yaml:7:5: experiments[0]: 'T' has no value");
}

TEST(SpecErrors, EveryMessageIsOneLineWithFileLineAndColumn) {
  for (const std::string& text :
       {std::string(""), std::string("# only a comment\n"), std::string("- a list\n"),
        std::string("a: [1, 2\n"), std::string("name: x\x01\n"), std::string("name: \xC3\x28\n"),
        kGood + "\ttitle: tab\n", kGood + "title: \"a\nb\u2028c\n", kGood + "---\nname: two\n",
        std::string("a: &x [*x]\n")}) {
    const std::string e = parse_error(text);
    EXPECT_TRUE(std::regex_search(e, std::regex(R"(^spec\.yaml:\d+:\d+: \S)"))) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(SpecErrors, OneLineEscapesWhatWouldBreakALineAndCapsQuotedText) {
  EXPECT_EQ(spec_text::one_line("a\nb\tc\x01"
                                "d\u2028e\xFF"),
            "a\\nb\\tc\\x01d\\u2028e\\xFF");
  EXPECT_EQ(spec_text::quote(std::string(100, 'x')), "'" + std::string(60, 'x') + "...'");
}

TEST(SpecLimits, TheStepCapsAreReadAndAFixedStepCaseOverThemIsRefusedNamingTheEstimate) {
  std::string text = kGood + "max_steps: 1000\nmax_output: 2 GiB\n";
  const StudySpec spec = parse_study_spec(text, "spec.yaml");
  EXPECT_EQ(spec.limits.max_steps, 1000.0);
  EXPECT_EQ(spec.limits.max_output_bytes, 2.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(parse_study_spec(kGood, "spec.yaml").limits.max_steps, 1e8);  // the defaults
  EXPECT_EQ(parse_study_spec(kGood, "spec.yaml").limits.max_output_bytes, 1073741824.0);

  text = kGood + "max_steps: 50\n";  // T / h = 100 steps
  EXPECT_EQ(parse_error(text),
            "spec.yaml:10:12: experiments[0]: experiment 'e': runs[0]: rk4: h = 0.01 over "
            "T = 1 is 100 steps, more than the cap of 50 (max_steps)");
  text = kGood;
  text.replace(text.find("h: 0.01"), 7, "h: 1e-300");
  EXPECT_NE(parse_error(text).find(
                "rk4: h = 1e-300 over T = 1 is 1e+300 steps, more than the cap of 100000000"),
            std::string::npos)
      << parse_error(text);
  EXPECT_NE(
      parse_error(kGood + "max_steps: 0.5\n").find("'max_steps' = 0.5: must be a whole number"),
      std::string::npos);
  EXPECT_NE(parse_error(kGood + "max_output: -3\n").find("'max_output' must be a size in bytes"),
            std::string::npos);
}

TEST(SpecLimits, EveryModelsStepsAreCheckedAtThePlaceOfTheirFactor) {
  // every_model's experiments are made from the template: errors still point into the file.
  const std::string text = R"(name: m
title: m
every_model:
  all_integrators:
    h_factors: [1, 1e-12]
    rtol: 1e-6
)";
  const std::string e = parse_error(text);
  EXPECT_EQ(
      e.find(
          "spec.yaml:5:20: every_model: experiment 'spherical_pendulum': all_integrators: rk2: "),
      0u)
      << e;
  EXPECT_NE(e.find("steps, more than the cap of 100000000 (max_steps)"), std::string::npos) << e;
}

/// The shipped specs (studies/, gates/ and the order tests' user methods).
std::vector<std::filesystem::path> repository_specs() {
  namespace fs = std::filesystem;
  const fs::path root = build_info::kSourceDir;
  std::vector<fs::path> specs = {root / "tests" / "order" / "user_methods.yaml"};
  for (const char* dir : {"studies", "gates"})
    for (const auto& e : fs::directory_iterator(root / dir))
      if (e.path().extension() == ".yaml") specs.push_back(e.path());
  return specs;
}

/// The words of `text` made of letters, digits and underscores.
std::set<std::string> words_of(const std::string& text) {
  static const std::regex word("[A-Za-z0-9_]+");
  std::set<std::string> words;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it)
    words.insert(it->str());
  return words;
}

TEST(SpecFiles, EverySpecOfTheRepositoryLoads) {
  const auto specs = repository_specs();
  EXPECT_GE(specs.size(), 8u);
  for (const auto& path : specs) {
    try {
      const StudySpec spec = load_study_spec(path.string());
      EXPECT_FALSE(spec.experiments.empty()) << path;
    } catch (const InputError& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// An experiment's title and description promise what it runs: every preset of its model (or
// of its reference's formulation) and every catalogue integrator they name is run by it (an
// experiment expanded from `presets:` counts as one, its runs together; its reference's
// integrator counts as run). A preset is taken as named where its name is written as one: with
// an underscore or a digit (great_circle, planar3); a preset called by an English word
// (breathing, slowed) is left out, since the word is also used as one (the "breathing period").
TEST(SpecFiles, TitlesAndDescriptionsNameOnlyPresetsAndIntegratorsTheExperimentRuns) {
  std::set<std::string> integrators;
  for (const Declaration& d : integrator_declarations()) integrators.insert(std::string(d.name));
  for (const auto& path : repository_specs()) {
    const StudySpec spec = load_study_spec(path.string());
    std::map<std::string, std::vector<const ExperimentSpec*>> by_base;
    for (const auto& ex : spec.experiments) by_base[ex.base_name].push_back(&ex);
    for (const auto& [base, group] : by_base) {
      std::set<std::string> presets, run_presets, run_integrators;
      for (const ExperimentSpec* ex : group) {
        run_presets.insert(ex->preset);
        for (const auto& c : ex->cases) run_integrators.insert(c.integrator);
        if (ex->reference && !ex->reference->exact) run_integrators.insert(ex->reference->integrator);
        for (const std::string& model : {ex->model, ex->reference ? ex->reference->model : std::string()})
          if (!model.empty())
            for (const auto& [name, text] : find_model(model).presets()) presets.insert(name);
      }
      const ExperimentSpec& first = *group.front();
      for (const std::string& w : words_of(first.title + " " + first.description)) {
        const bool identifier = w.find_first_of("_0123456789") != std::string::npos;
        if (identifier && presets.contains(w)) {
          EXPECT_TRUE(run_presets.contains(w))
              << path.filename() << ", experiment " << base << ": names preset " << w << ", which it does not run";
        }
        if (integrators.contains(w)) {
          EXPECT_TRUE(run_integrators.contains(w))
              << path.filename() << ", experiment " << base << ": names integrator " << w << ", which it does not run";
        }
      }
    }
  }
}

TEST(SpecErrors, MangledSpecsGetNothingButAnInputError) {
  // Replayable: the seed is fixed. Each text is a good spec with bytes replaced, deleted,
  // duplicated or spliced in from YAML's syntax; any exception but an InputError fails.
  // GEOMINT_SPEC_FUZZ_ITERATIONS sets the number of texts per spec (default 1500),
  // GEOMINT_SPEC_FUZZ_SEED the seed, for a longer search.
  const std::string experiments =
      kGood + R"(    reference: {integrator: dopri45, rtol: 1e-10, atol: 1e-12}
    snapshots: [0, 0.5]
    parameters: {g: 9.81}
    initial: {q1: [0, 0, -1]}
    project_initial: true
    published:
      - {example: x, method: y, integrator: rk4, h: 0.01, role: printed, energy_err_mean: 1e-3}
  - name: f
    presets: [swing, conical]
    model: spherical_pendulum
    T: 0.5
    runs:
      - {integrators: [dopri45], rtol: [1e-6, 1e-8], atol: 1e-9}
      - {integrators: rk4, same_steps_as: {integrator: dopri45, rtol: 1e-6, atol: 1e-9}}
  - name: g
    model: free_rigid_body
    preset: elliptic
    T: 0.1
    reference: exact
    all_integrators: {h: [0.02, 0.01], h_high_order: 0.05, rtol: 1e-6}
max_steps: 1e6
max_output: 1 GiB
methods:
  - {name: rk, kind: runge_kutta, order: 2, a: [[0, 0], [1/2, 0]], b: [0, 1], reproject: true}
  - name: cf
    kind: commutator_free
    order: 1
    stages: [{}, {base: 1, exponentials: [[1/2, 0]]}]
    update: {exponentials: [[0, 1]]}
figures:
  - {name: fig, kind: metric_vs_parameter, parameter: l, metric: steps, experiments: [f]}
)";
  const std::string every_model = R"(name: every
title: every model
every_model:
  reference: {integrator: odeint_rkf78, rtol: 1e-13, atol: 1e-15}
  plots: [energy, steps]
  all_integrators:
    h_factors: [2, 1]
    h_high_order_factors: [8, 4]
    rtol: [1e-5, 1e-7]
    atol: 1e-9
kind: matrix
)";
  const char* env = std::getenv("GEOMINT_SPEC_FUZZ_ITERATIONS");
  const int iterations = env ? std::atoi(env) : 1500;
  const char* seed_text = std::getenv("GEOMINT_SPEC_FUZZ_SEED");
  const unsigned seed =
      seed_text ? static_cast<unsigned>(std::strtoul(seed_text, nullptr, 10)) : 20240612u;
  std::mt19937 rng(seed);
  std::printf("seed %u, %d texts per spec\n", seed, iterations);
  const std::string pieces[] = {"[", "]",    "{",  "}",     ":",     "- ", "&a ",  "*a", "\"",
                                "'", "\n",   "  ", "#",     "---\n", "!!", "? ",   "|",  ">",
                                ",", ".nan", "-1", "1e999", "<<: ",  "\t", "\xFF", "~",  "0"};
  for (const std::string& good : {experiments, every_model}) {
    ASSERT_EQ(parse_error(good), "");
    int refused = 0;
    for (int k = 0; k < iterations; ++k) {
      std::string text = good;
      const int edits = 1 + static_cast<int>(rng() % 3);
      for (int i = 0; i < edits; ++i) {
        const std::size_t at = rng() % text.size();
        switch (rng() % 4) {
          case 0:
            text.erase(at, 1 + rng() % 8);
            break;
          case 1:
            text.insert(at, pieces[rng() % std::size(pieces)]);
            break;
          case 2:
            text[at] = static_cast<char>(rng() % 256);
            break;
          default:
            text.insert(at, text.substr(rng() % text.size(), rng() % 40));
            break;
        }
      }
      try {
        parse_study_spec(text, "spec.yaml");
      } catch (const InputError& e) {
        ++refused;
        const std::string what = e.what();
        ASSERT_TRUE(std::regex_search(what, std::regex(R"(^spec\.yaml:\d+:\d+: )")))
            << "seed " << seed << ": " << what;
        ASSERT_EQ(what.find('\n'), std::string::npos) << "seed " << seed << ": " << what;
        ASSERT_EQ(what.find("could not be read"), std::string::npos)  // the reader's last resort
            << "seed " << seed << ", text " << k << ": " << what << "\n"
            << text;
        ASSERT_EQ(what.find("yaml-cpp"), std::string::npos)
            << "seed " << seed << ", text " << k << ": " << what << "\n"
            << text;
      } catch (const std::exception& e) {
        FAIL() << "seed " << seed << ", text " << k << ": " << typeid(e).name() << ": " << e.what()
               << "\n"
               << text;
      }
    }
    EXPECT_GT(refused, iterations / 3);
  }
}

}  // namespace
}  // namespace geomint
