// Label `reference`: every reference solver in the catalogue (SUNDIALS CVODE and ARKODE,
// Boost.Odeint; each plain and `_proj`) turns its failures into typed errors, with the time they
// happened and the step count in the message, on small test-local ODEs whose failure points are
// known in closed form:
//   - too much work: the step limit (ReferenceOptions::max_steps) on y' = y cos t;
//   - a non-finite right-hand side: y' = -y, but f is NaN for t > 0.5;
//   - step-size underflow: y' = y^2, y(0) = 1, which blows up at t = 1;
//   - an exception from the model passes through unchanged.
// Plus odeint's NaN error estimate, which its default error checker accepts and ours rejects.
// The typed suite runs over the catalogue's reference entries (ReferenceEntries), and
// EveryReferenceSolverOfTheCatalogueIsHere checks that these are all the catalogue's entries
// of the reference family, so a reference solver catalogued anywhere is in this suite.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <cstdio>
#include <limits>
#include <regex>
#include <string>
#include <tuple>

#include "catalogue/families/reference.hpp"
#include "catalogue/integrator_catalogue.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/integrate.hpp"
#include "reference/odeint.hpp"

namespace geomint {
namespace {

using Scalar1 = Eigen::Matrix<double, 1, 1>;

/// y' = -y.
struct Decay {
  using State = Scalar1;
  Eigen::Index dimension() const { return 1; }
  void rhs(double, const State& y, State& dy) const { dy(0) = -y(0); }
  void project(State&) const {}
};

/// y' = y cos t, y = exp(sin t): it never settles, so the steps stay well short of T = 100.
struct Oscillating {
  using State = Scalar1;
  Eigen::Index dimension() const { return 1; }
  void rhs(double t, const State& y, State& dy) const { dy(0) = y(0) * std::cos(t); }
  void project(State&) const {}
};

/// y' = -y, but the vector field is NaN for t > 0.5.
struct NanAfterHalf {
  using State = Scalar1;
  Eigen::Index dimension() const { return 1; }
  void rhs(double t, const State& y, State& dy) const {
    dy(0) = t > 0.5 ? std::numeric_limits<double>::quiet_NaN() : -y(0);
  }
  void project(State&) const {}
};

/// y' = y^2, y(0) = 1: y = 1 / (1 - t) blows up at t = 1.
struct BlowUp {
  using State = Scalar1;
  Eigen::Index dimension() const { return 1; }
  void rhs(double, const State& y, State& dy) const { dy(0) = y(0) * y(0); }
  void project(State&) const {}
};

/// y' = -y, but the model throws for t > 0.5 (as a model may when the state is meaningless).
struct ThrowsAfterHalf {
  using State = Scalar1;
  Eigen::Index dimension() const { return 1; }
  void rhs(double t, const State& y, State& dy) const {
    if (t > 0.5) throw LeftManifold(t, "test model");
    dy(0) = -y(0);
  }
  void project(State&) const {}
};

IntegratorOptions adaptive(double rtol, double atol, double T) {
  IntegratorOptions opt;
  opt.tolerances.rtol = rtol;
  opt.tolerances.atol = atol;
  opt.T = T;
  return opt;
}

/// What a failing run left behind.
struct Failed {
  IntegrationFailure failure{FailureKind::NonConvergence,
                             std::numeric_limits<double>::quiet_NaN(), "no failure thrown"};
  double last_output = std::numeric_limits<double>::quiet_NaN();
  Work work;
};

/// Integrates from (0, 1) to T and returns the failure (failing the test if there is none).
template <class Integrator, class Model>
Failed failure_of(const Model& model, const IntegratorOptions& opt,
                  const ReferenceOptions& settings = {}) {
  Integrator integrator(model, opt, settings);
  Failed f;
  Scalar1 y = Scalar1::Ones();
  try {
    integrate(integrator, y, 0.0, opt.T, [&](double t, const Scalar1&) { f.last_output = t; });
    ADD_FAILURE() << Integrator::declaration.name << ": no failure thrown";
  } catch (const IntegrationFailure& e) {
    std::printf("  %s\n", e.what());
    f.failure = e;
  }
  f.work = integrator.work();
  return f;
}

/// The message names the time (what()) and the step count (detail()).
void expect_time_and_steps(const IntegrationFailure& e) {
  EXPECT_NE(std::string(e.what()).find(" at t = "), std::string::npos) << e.what();
  EXPECT_TRUE(std::regex_search(e.detail(), std::regex("[0-9]+ steps"))) << e.detail();
}

template <class Tuple>
struct AsTestTypes;
template <class... Entry>
struct AsTestTypes<std::tuple<Entry...>> {
  using type = ::testing::Types<Entry...>;
};

struct EntryName {
  template <class Entry>
  static std::string GetName(int) {
    return std::string(Entry::declaration.name);
  }
};

template <class Entry>
class ReferenceFailure : public ::testing::Test {};
TYPED_TEST_SUITE(ReferenceFailure, AsTestTypes<ReferenceEntries>::type, EntryName);

TYPED_TEST(ReferenceFailure, StepLimitIsTooMuchWork) {
  using Integrator = typename TypeParam::template type<Oscillating>;
  const Failed f = failure_of<Integrator>(Oscillating{}, adaptive(1e-8, 1e-10, 100.0), {10});
  EXPECT_EQ(f.failure.kind(), FailureKind::TooMuchWork);
  EXPECT_GT(f.failure.time(), 0.0);
  EXPECT_EQ(f.failure.time(), f.last_output);  // where the tenth step ended
  EXPECT_EQ(f.work.steps, 10);
  EXPECT_NE(f.failure.detail().find("10 steps"), std::string::npos) << f.failure.detail();
  expect_time_and_steps(f.failure);
}

TYPED_TEST(ReferenceFailure, NonFiniteRightHandSideIsNonFinite) {
  using Integrator = typename TypeParam::template type<NanAfterHalf>;
  const Failed f = failure_of<Integrator>(NanAfterHalf{}, adaptive(1e-8, 1e-10, 1.0));
  EXPECT_EQ(f.failure.kind(), FailureKind::NonFinite);
  // The solver, not the driver, found it: no NaN state was ever accepted (integrate() would
  // have reported "the state is no longer finite").
  EXPECT_EQ(f.failure.detail().find("no longer finite"), std::string::npos) << f.failure.detail();
  // Every step ends where f is finite; the failure is at the non-finite evaluation, past 0.5
  // by at most a step of y' = -y at rtol 1e-8 (a few hundredths).
  EXPECT_LE(f.last_output, 0.5);
  EXPECT_GT(f.failure.time(), 0.5);
  EXPECT_LT(f.failure.time(), 0.6);
  if (TypeParam::declaration.name.starts_with("odeint_")) {
    // odeint's steps are rejected, not stopped, by a NaN: they shrink until they fit below 0.5,
    // and the solver gives up only when no step fits.
    EXPECT_GT(f.last_output, 0.5 - 1e-9) << f.last_output;
  }
  expect_time_and_steps(f.failure);
}

TYPED_TEST(ReferenceFailure, FiniteTimeBlowUpIsStepSizeUnderflow) {
  // Near t = 1 the steps shrink with 1 - t until they no longer advance t (every adapter stops
  // there), or the solver itself gives up on the error test.
  using Integrator = typename TypeParam::template type<BlowUp>;
  const Failed f = failure_of<Integrator>(BlowUp{}, adaptive(1e-6, 1e-8, 2.0));
  EXPECT_EQ(f.failure.kind(), FailureKind::StepSizeUnderflow);
  EXPECT_GT(f.failure.time(), 0.99);
  EXPECT_LT(f.failure.time(), 1.0 + 1e-6);
  std::printf("  stopped at t - 1 = %.3e after %lld steps\n", f.failure.time() - 1.0,
              static_cast<long long>(f.work.steps));
  expect_time_and_steps(f.failure);
}

TYPED_TEST(ReferenceFailure, ExceptionFromTheModelPassesThrough) {
  using Integrator = typename TypeParam::template type<ThrowsAfterHalf>;
  const Failed f = failure_of<Integrator>(ThrowsAfterHalf{}, adaptive(1e-8, 1e-10, 1.0));
  EXPECT_EQ(f.failure.kind(), FailureKind::LeftManifold);
  EXPECT_GT(f.failure.time(), 0.5);
  EXPECT_EQ(f.failure.detail(), "test model");
}

TYPED_TEST(ReferenceFailure, RejectsBadOptions) {
  using Integrator = typename TypeParam::template type<Decay>;
  const Decay model;
  EXPECT_THROW(Integrator(model, adaptive(0.0, 1e-12, 1.0)), InputError);
  EXPECT_THROW(Integrator(model, adaptive(1e-10, -1.0, 1.0)), InputError);
  EXPECT_THROW(Integrator(model, adaptive(1e-10, 1e-12, 0.0)), InputError);
  EXPECT_THROW(Integrator(model, adaptive(1e-10, 1e-12, 1.0), ReferenceOptions{0}), InputError);
}

TEST(ReferenceFailure, EveryReferenceSolverOfTheCatalogueIsHere) {
  std::size_t reference_family = 0;
  for_each_integrator([&]<class Entry>() {
    if (Entry::declaration.family == Family::Reference) ++reference_family;
  });
  EXPECT_EQ(reference_family, std::tuple_size_v<ReferenceEntries>);
}

// ---- odeint's error checker and NaN ----------------------------------------------------------

TEST(OdeintErrorChecker, DefaultAcceptsANanEstimateOursRejectsIt) {
  namespace bno = boost::numeric::odeint;
  using Vec = Eigen::Vector3d;
  const Vec x_old(1.0, 2.0, 3.0), dxdt(0.1, 0.2, 0.3);
  const Vec nan_err(1e-12, std::numeric_limits<double>::quiet_NaN(), 1e-12);
  bno::default_error_checker<double, bno::vector_space_algebra, bno::default_operations> odeint(
      1e-6, 1e-6);
  bno::default_error_checker<double, bno::vector_space_algebra, detail::NanRejectingOperations>
      ours(1e-6, 1e-6);
  bno::vector_space_algebra algebra;  // (odeint's overload without it does not compile)
  Vec err = nan_err;
  // controlled_runge_kutta rejects iff error > 1: false for NaN, so odeint accepts the step.
  EXPECT_FALSE(odeint.error(algebra, x_old, dxdt, err, 0.01) > 1.0);
  err = nan_err;
  EXPECT_EQ(ours.error(algebra, x_old, dxdt, err, 0.01), std::numeric_limits<double>::infinity());
  // A finite estimate is unchanged: max_i |err_i| / (atol + rtol (|x_i| + dt |dxdt_i|)).
  const Vec finite_err(1e-6, -2e-6, 3e-7);
  Vec a = finite_err, b = finite_err;
  EXPECT_EQ(ours.error(algebra, x_old, dxdt, a, 0.01), odeint.error(algebra, x_old, dxdt, b, 0.01));
  EXPECT_DOUBLE_EQ(ours.error(algebra, x_old, dxdt, b = finite_err, 0.01),
                   2e-6 / (1e-6 + 1e-6 * (2.0 + 0.01 * 0.2)));
}

}  // namespace
}  // namespace geomint
