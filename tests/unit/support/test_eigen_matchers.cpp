// Label `unit`: the shared matchers of tests/support/eigen_matchers.hpp fail on a NaN or an
// infinity anywhere in either operand, and say where it is. Before they checked, a NaN past the
// first entry passed: Eigen's maxCoeff compares with <, which is false for NaN, so
// |(0, NaN, 0)| had the maximum 0; inf - inf is NaN the same way; and a scalar compared with an
// infinite expected value passed its relative bound |a - inf| <= rtol |inf|.

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <limits>
#include <string>

#include "support/eigen_matchers.hpp"

namespace geomint::testing {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// The non-finite values, each placed at a non-first entry (index 2 of 4, and (1, 1) of a
/// 2x2) of the actual operand, of the expected one, and of both at once.
struct Placement {
  const char* what;
  double in_actual, in_expected;
};
const Placement kPlacements[] = {
    {"NaN in actual", kNaN, 3.0},   {"NaN in expected", 3.0, kNaN}, {"inf in actual", kInf, 3.0},
    {"inf in expected", 3.0, kInf}, {"-inf in actual", -kInf, 3.0}, {"inf in both", kInf, kInf},
    {"NaN in both", kNaN, kNaN},    {"inf and -inf", kInf, -kInf},
};

std::string message(const ::testing::AssertionResult& r) { return r.message(); }

TEST(EigenMatchers, PassOnFiniteValuesWithinTheBound) {
  const Eigen::Vector4d a(1.0, 2.0, 3.0, 4.0), b(1.0, 2.0, 3.0 + 1e-13, 4.0);
  EXPECT_TRUE(EigenNear("a", "b", "tol", a, b, 1e-12));
  EXPECT_TRUE(EigenRelNear("a", "b", "rtol", a, b, 1e-12));
  EXPECT_TRUE(RelNear("a", "b", "rtol", 3.0, 3.0 + 1e-13, 1e-12));
  EXPECT_FALSE(EigenNear("a", "b", "tol", a, b, 1e-14));
}

TEST(EigenMatchers, EigenNearFailsOnANonFiniteEntryAnywhere) {
  for (const auto& p : kPlacements) {
    SCOPED_TRACE(p.what);
    Eigen::Vector4d a(1.0, 2.0, 3.0, 4.0), b = a;
    a(2) = p.in_actual;
    b(2) = p.in_expected;
    const auto r = EigenNear("a", "b", "tol", a, b, 1.0);
    EXPECT_FALSE(r);
    EXPECT_NE(message(r).find("non-finite entry"), std::string::npos) << message(r);
    EXPECT_NE(message(r).find("at (2, 0)"), std::string::npos) << message(r);
    Eigen::Matrix2d m = Eigen::Matrix2d::Identity(), n = m;
    m(1, 1) = p.in_actual;
    n(1, 1) = p.in_expected;
    EXPECT_FALSE(EigenNear("m", "n", "tol", m, n, 1.0));
  }
}

TEST(EigenMatchers, EigenRelNearFailsOnANonFiniteEntryAnywhere) {
  for (const auto& p : kPlacements) {
    SCOPED_TRACE(p.what);
    Eigen::Vector4d a(1.0, 2.0, 3.0, 4.0), b = a;
    a(2) = p.in_actual;
    b(2) = p.in_expected;
    const auto r = EigenRelNear("a", "b", "rtol", a, b, 1.0);
    EXPECT_FALSE(r);
    EXPECT_NE(message(r).find("non-finite entry"), std::string::npos) << message(r);
  }
}

TEST(EigenMatchers, RelNearFailsOnANonFiniteOperand) {
  for (const auto& p : kPlacements) {
    SCOPED_TRACE(p.what);
    const auto r = RelNear("a", "b", "rtol", p.in_actual, p.in_expected, 1.0);
    EXPECT_FALSE(r);
    EXPECT_NE(message(r).find("not finite"), std::string::npos) << message(r);
  }
}

// The macros themselves report the failure (gtest-spi's EXPECT_NONFATAL_FAILURE needs operands
// that are not local variables).
const Eigen::Vector3d kFinite(1.0, 2.0, 3.0);
const Eigen::Vector3d kNaNLast(1.0, 2.0, kNaN);
const Eigen::Vector3d kInfMiddle(1.0, kInf, 3.0);

TEST(EigenMatchers, TheMacrosFailOnNaNAndInfinity) {
  EXPECT_NONFATAL_FAILURE(EXPECT_EIGEN_NEAR(kNaNLast, kFinite, 1.0), "non-finite entry");
  EXPECT_NONFATAL_FAILURE(EXPECT_EIGEN_NEAR(kFinite, kInfMiddle, 1.0), "non-finite entry");
  EXPECT_NONFATAL_FAILURE(EXPECT_EIGEN_REL_NEAR(kNaNLast, kFinite, 1.0), "non-finite entry");
  EXPECT_NONFATAL_FAILURE(EXPECT_EIGEN_REL_NEAR(kInfMiddle, kInfMiddle, 1.0), "non-finite entry");
  EXPECT_NONFATAL_FAILURE(EXPECT_REL_NEAR(1.0, kInf, 1.0), "not finite");
  EXPECT_NONFATAL_FAILURE(EXPECT_REL_NEAR(kNaN, 1.0, 1.0), "not finite");
  EXPECT_FATAL_FAILURE(ASSERT_EIGEN_NEAR(kNaNLast, kFinite, 1.0), "non-finite entry");
  EXPECT_FATAL_FAILURE(ASSERT_EIGEN_REL_NEAR(kFinite, kInfMiddle, 1.0), "non-finite entry");
  EXPECT_FATAL_FAILURE(ASSERT_REL_NEAR(kInf, kInf, 1.0), "not finite");
}

}  // namespace
}  // namespace geomint::testing
