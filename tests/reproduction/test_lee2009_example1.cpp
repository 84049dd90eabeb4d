// Label `reproduction`: LLM Example 1 (double spherical pendulum, T = 100 s), run through the
// same case runner as `geomint study studies/lee2009.yaml`, with the metric
// definitions of shared/seeds/README.md. It asserts what theory and the paper guarantee:
//   - the VI stays on the sphere to round-off: mean unit-length error below 1e-13;
//   - the VI is second order: its mean energy variation falls by a factor in [80, 120] when
//     h goes from 0.01 to 0.001;
//   - RK45 (ode45's defaults) leaves the sphere (mean unit-length error above 1e-6) and its
//     energy grows (the paper: "a notable increase of the computed total energy").
// The published numbers themselves, and the settings that reproduce them, are the study's
// reproduction table; see the notes in studies/lee2009.yaml.

#include <gtest/gtest.h>

#include "catalogue/integrator_declarations.hpp"
#include "studies/model_catalogue.hpp"

namespace geomint {
namespace {

CaseResult example1(const std::string& integrator, double h) {
  CaseSpec c;
  c.study = "test";
  c.experiment = "ex1";
  c.model = "double_spherical_pendulum";
  c.preset = "lee2009";
  c.integrator = integrator;
  if (find_integrator_declaration(integrator)->adaptive) {
    c.rtol = 1e-3;  // ode45's defaults
    c.atol = 1e-6;
  } else {
    c.h = h;
  }
  c.T = 100.0;
  CaseResult r = run_case(c, {});
  EXPECT_EQ(r.status, "ok") << r.detail;
  return r;
}

TEST(Lee2009Example1, VariationalIntegratorStaysOnTheSphere) {
  for (double h : {0.01, 0.001}) {
    const CaseResult r = example1("vi_implicit", h);
    EXPECT_LT(r.metrics.unit_length_err_mean, 1e-13) << "h = " << h;
  }
}

TEST(Lee2009Example1, VariationalIntegratorEnergyErrorIsSecondOrder) {
  const double coarse = example1("vi_implicit", 0.01).metrics.energy_err_mean;
  const double fine = example1("vi_implicit", 0.001).metrics.energy_err_mean;
  const double factor = coarse / fine;
  EXPECT_GE(factor, 80.0) << coarse << " / " << fine;
  EXPECT_LE(factor, 120.0) << coarse << " / " << fine;
}

TEST(Lee2009Example1, Rk45LeavesTheSphereAndGainsEnergy) {
  const CaseResult r = example1("dopri45", std::nan(""));
  EXPECT_GT(r.metrics.unit_length_err_mean, 1e-6);
  // Growth, not oscillation: the least-squares trend over the run exceeds the mean error.
  EXPECT_GT(r.metrics.energy_drift_per_time * 100.0, r.metrics.energy_err_mean)
      << "drift " << r.metrics.energy_drift_per_time << " per s, mean |E - E0| "
      << r.metrics.energy_err_mean;
}

}  // namespace
}  // namespace geomint
