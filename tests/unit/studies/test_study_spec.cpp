// Label `unit`: the expansion of `all_integrators` in a study spec (the matrix): every
// catalogued integrator gets cases, fixed-step ones at h (or at h_high_order from order 5 up),
// adaptive ones at the tolerances; a matrix spec that leaves a model out is refused; and a
// parameter value outside its domain is refused at load, with the parameter and line named.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "models/parameters.hpp"
#include "studies/integrator_declarations.hpp"
#include "studies/spec.hpp"

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
  EXPECT_NE(nan_g.find("(line 9)"), std::string::npos) << nan_g;

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

}  // namespace
}  // namespace geomint
