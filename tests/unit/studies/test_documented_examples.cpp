// The examples of docs/adding-a-model.md and docs/adding-an-integrator.md compile and work as
// the documents say: the Duffing oscillator meets the model contract and runs through the case
// runner as a registry line would make it, and Ralston's RK3 runs as a catalogue line would
// make it and reaches its declared order on it.

#include <gtest/gtest.h>

#include <cmath>

#include "catalogue/compiled_integrators.hpp"  // the catalogue on the model, as a registry line
#include "catalogue/families/classical.hpp"
#include "docs/examples/duffing_oscillator.hpp"
#include "docs/examples/ralston3.hpp"
#include "integrators/explicit_rk.hpp"
#include "reference/odeint.hpp"
#include "studies/case_runner.hpp"
                                             // compiles it (catalogue/integrators_on_model.cpp.in)
#include "support/order_measurement.hpp"

namespace geomint {
namespace {

static_assert(Model<DuffingOscillator>);

TEST(DocumentedModel, RunsThroughTheCaseRunnerWithItsDeclarations) {
  CaseSpec spec;
  spec.model = "duffing_oscillator";
  spec.preset = "swing";
  spec.integrator = "rk4";
  spec.h = 0.01;
  spec.T = 10.0;
  const CaseResult r = run_case_for<DuffingOscillator>(spec, {});
  ASSERT_EQ(r.status, "ok") << r.detail;
  EXPECT_EQ(r.layout.column_names(), (std::vector<std::string>{"x_1", "v_1"}));
  EXPECT_EQ(r.invariant_names, (std::vector<std::string>{"energy"}));
  // RK4's energy error at h = 0.01 is small but not round-off; the sphere columns are absent.
  EXPECT_GT(r.metrics.energy_err_max, 1e-12);
  EXPECT_LT(r.metrics.energy_err_max, 1e-7);
  EXPECT_TRUE(std::isnan(r.metrics.manifold_err_max));
  EXPECT_EQ(r.work.steps, 1000);
}

TEST(DocumentedIntegrator, ReachesItsDeclaredOrderOnTheDocumentedModel) {
  using Entry = ExplicitRkEntry<Ralston3Method>;
  static_assert(runs_on<Entry, DuffingOscillator>);
  const auto setup = testing::make_setup<DuffingOscillator>("swing");
  const auto m = testing::measure_order<Entry::type<DuffingOscillator>, OdeintRkf78<DuffingOscillator>>(
      setup.model, setup.initial, 2.0, {0.08, 0.04, 0.02, 0.01, 0.005}, 1e-13);
  SCOPED_TRACE(m.table);
  ASSERT_GE(m.fit.used, 3);
  EXPECT_NEAR(m.fit.order, Ralston3Method::declaration.order, 0.2);
}

}  // namespace
}  // namespace geomint
