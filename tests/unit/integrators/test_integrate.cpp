// Label `unit`: integrate()'s check after every step (integrators/integrate.hpp) refuses a
// state with a NaN or an infinite entry wherever it stands, and only such a state.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <Eigen/Core>

#include "errors/exit_status_errors.hpp"
#include "integrators/integrate.hpp"

namespace geomint {
namespace {

using Limits = std::numeric_limits<double>;
using State = Eigen::Matrix<double, 7, 1>;

bool refused(const State& y) {
  try {
    require_finite(y, 0.25, "test");
  } catch (const NonFinite& e) {
    EXPECT_EQ(e.time(), 0.25);
    return true;
  }
  return false;
}

TEST(RequireFinite, RefusesANonFiniteEntryInEveryPosition) {
  for (const double bad : {Limits::quiet_NaN(), -Limits::quiet_NaN(), Limits::infinity(),
                           -Limits::infinity()})
    for (Eigen::Index i = 0; i < State::RowsAtCompileTime; ++i) {
      State y = State::Constant(1.0);
      y(i) = bad;
      EXPECT_TRUE(refused(y)) << "entry " << i << " = " << bad;
    }
}

TEST(RequireFinite, AcceptsEveryFiniteValue) {
  State y;
  y << Limits::max(), -Limits::max(), Limits::denorm_min(), -0.0, 0.0, Limits::min(), -1e300;
  EXPECT_FALSE(refused(y));
  EXPECT_FALSE(refused(State::Constant(Limits::max())));
}

TEST(RequireFinite, ChecksADynamicState) {
  Eigen::VectorXd y = Eigen::VectorXd::Constant(1001, -Limits::max());
  EXPECT_NO_THROW(require_finite(y, 0.0, "test"));
  y(1000) = Limits::infinity();
  EXPECT_THROW(require_finite(y, 0.0, "test"), NonFinite);
  EXPECT_NO_THROW(require_finite(Eigen::VectorXd(), 0.0, "test"));
}

}  // namespace
}  // namespace geomint
