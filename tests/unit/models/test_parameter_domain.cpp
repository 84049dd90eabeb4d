// Label `unit`: parameter domains (models/parameter_domain.hpp). Each kind accepts the values
// at its edges and refuses those just past them, NaN and the infinities; ParameterSet::set
// refuses a value outside the domain with one line naming the parameter, the value and the
// domain, and keeps the old value; preset_parameters names the model; and every model's
// defaults and presets lie in the domains it declares.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "catalogue/model_types.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"

namespace geomint {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kTiny = std::numeric_limits<double>::denorm_min();

void expect_refuses_non_finite(const ParameterDomain& d) {
  EXPECT_FALSE(d.contains(kNan)) << d.describe();
  EXPECT_FALSE(d.contains(kInf)) << d.describe();
  EXPECT_FALSE(d.contains(-kInf)) << d.describe();
}

TEST(ParameterDomain, FiniteTakesEveryFiniteNumber) {
  const auto d = ParameterDomain::finite();
  for (double v :
       {-9.81, 0.0, std::numeric_limits<double>::max(), -std::numeric_limits<double>::max()})
    EXPECT_TRUE(d.contains(v)) << v;
  expect_refuses_non_finite(d);
  EXPECT_EQ(d.describe(), "finite numbers");
}

TEST(ParameterDomain, PositiveExcludesZero) {
  const auto d = ParameterDomain::positive();
  EXPECT_TRUE(d.contains(kTiny));
  EXPECT_TRUE(d.contains(9.81));
  EXPECT_FALSE(d.contains(0.0));
  EXPECT_FALSE(d.contains(-kTiny));
  expect_refuses_non_finite(d);
  EXPECT_EQ(d.describe(), "positive numbers");
}

TEST(ParameterDomain, NonNegativeIncludesZero) {
  const auto d = ParameterDomain::non_negative();
  EXPECT_TRUE(d.contains(0.0));
  EXPECT_TRUE(d.contains(1000.0));
  EXPECT_FALSE(d.contains(-kTiny));
  expect_refuses_non_finite(d);
  EXPECT_EQ(d.describe(), "non-negative numbers");
}

TEST(ParameterDomain, WholeNumbersFromTheirMinimumToTheirMaximum) {
  const auto open = ParameterDomain::whole(2);
  EXPECT_TRUE(open.contains(2.0));
  EXPECT_TRUE(open.contains(1e6));
  EXPECT_FALSE(open.contains(1.0));
  EXPECT_FALSE(open.contains(2.5));
  EXPECT_FALSE(open.contains(std::nextafter(2.0, 3.0)));
  expect_refuses_non_finite(open);
  EXPECT_EQ(open.describe(), "whole numbers >= 2");

  const auto bounded = ParameterDomain::whole(1, 10000);
  EXPECT_TRUE(bounded.contains(1.0));
  EXPECT_TRUE(bounded.contains(10000.0));
  EXPECT_FALSE(bounded.contains(0.0));
  EXPECT_FALSE(bounded.contains(10001.0));
  expect_refuses_non_finite(bounded);
  EXPECT_EQ(bounded.describe(), "whole numbers 1..10000");
}

TEST(ParameterDomain, OneOfTakesOnlyTheListedValues) {
  const auto d = ParameterDomain::one_of({0, 1});
  EXPECT_TRUE(d.contains(0.0));
  EXPECT_TRUE(d.contains(1.0));
  EXPECT_FALSE(d.contains(0.5));
  EXPECT_FALSE(d.contains(2.0));
  expect_refuses_non_finite(d);
  EXPECT_EQ(d.describe(), "one of 0, 1");
}

TEST(ParameterDomain, NumbersAreWrittenAsTheyReadBack) {
  EXPECT_EQ(number_text(2.5), "2.5");
  EXPECT_EQ(number_text(-1.0), "-1");
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(kNan), "nan");
  EXPECT_EQ(number_text(-kInf), "-inf");
}

/// The message of the InputError that set(name, value) throws; empty if it throws none.
std::string refusal(ParameterSet& p, const std::string& name, double value) {
  try {
    p.set(name, value);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

TEST(ParameterSet, SetRefusesAValueOutsideTheDomainNamingParameterValueAndDomain) {
  // Written as models write them: a parameter without a domain takes any finite number.
  ParameterSet p{{"g", 9.81, "m/s^2", "gravitational acceleration"},
                 {"m", 1.0, "kg", "mass", ParameterDomain::positive()},
                 {"N", 2.0, "", "count", ParameterDomain::whole(1)}};
  EXPECT_EQ(refusal(p, "g", kNan), "parameter g = nan is outside its domain (finite numbers)");
  EXPECT_EQ(refusal(p, "g", -kInf), "parameter g = -inf is outside its domain (finite numbers)");
  EXPECT_EQ(refusal(p, "m", -1.0), "parameter m = -1 is outside its domain (positive numbers)");
  EXPECT_EQ(refusal(p, "N", 2.5), "parameter N = 2.5 is outside its domain (whole numbers >= 1)");
  // A refused value leaves the parameter as it was.
  EXPECT_EQ(p["g"], 9.81);
  EXPECT_EQ(p["m"], 1.0);
  EXPECT_EQ(p["N"], 2.0);
  // Values inside are taken.
  p.set("g", -1.62);
  p.set("N", 3.0);
  EXPECT_EQ(p["g"], -1.62);
  EXPECT_EQ(p["N"], 3.0);
}

TEST(ParameterSet, PresetParametersNameTheModel) {
  try {
    preset_parameters(find_preset<SphericalPendulum>("swing"), {{"g", kNan}});
    FAIL() << "g = nan was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "spherical_pendulum: parameter g = nan is outside its domain (finite numbers)");
  }
}

TEST(ParameterSet, EveryModelsDefaultsAndPresetsLieInTheirDomains) {
  for_each_model_type([]<class Model>() {
    const ParameterSet defaults = Model::default_parameters();
    for (const auto& p : defaults.list())
      EXPECT_TRUE(p.domain.contains(p.value)) << Model::kName << ": default " << p.name << " = "
                                              << p.value << " outside " << p.domain.describe();
    for (const auto& preset : Model::presets())
      EXPECT_NO_THROW(preset_parameters(preset, {})) << Model::kName << " " << preset.name;
  });
}

}  // namespace
}  // namespace geomint
