// Label `reproduction`: LLM Examples 1-6 (Example 1's qualitative checks are in
// test_lee2009_example1.cpp), run through the same case runner as
// `geomint study studies/lee2009.yaml`, with the metric definitions of shared/seeds/README.md.
// It asserts:
//   - every VI stays on the sphere to round-off: mean unit-length error below 1e-12;
//   - Example 2: the VI is second order: its total energy error (max |E - E0| / |E0|) falls by
//     a factor in [70, 130] from h = 1e-3 to h = 1e-4;
//   - every published energy figure (VI and RK45) and every RK45 unit-length figure of
//     Examples 2-5 is matched within 25% under the setting studies/lee2009.yaml names as
//     reproducing it: the printed one where it does, else the row marked "reproducing"
//     (Example 1: the VI at h = 1e-3, RK45 at RelTol = AbsTol = 1e-6 for the energy figure and
//     at RelTol = 1e-4 for the unit-length one; Example 3: h = 0.005, T = 30; Example 4's RK45:
//     g = 9.8; Example 5: h = 3e-4, T = 9).
// Why those settings, and what the printed ones give where they do not reproduce, is in the
// notes of studies/lee2009.yaml.

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "catalogue/integrator_declarations.hpp"
#include "studies/model_catalogue.hpp"

namespace geomint {
namespace {

constexpr double kBand = 0.25;           // published figures: ours within 25%
constexpr double kUnitRoundOff = 1e-12;  // the VI's mean unit-length error

CaseResult run(const std::string& model, const std::string& preset, const std::string& integrator,
               double h, double T, const std::map<std::string, double>& parameters = {},
               double rtol = 1e-3, double atol = 1e-6) {  // ode45's defaults
  CaseSpec c;
  c.study = "test";
  c.experiment = model;
  c.model = model;
  c.preset = preset;
  c.parameters = parameters;
  c.integrator = integrator;
  if (find_integrator_declaration(integrator)->adaptive) {
    c.rtol = rtol;
    c.atol = atol;
  } else {
    c.h = h;
  }
  c.T = T;
  CaseResult r = run_case(c, {});
  EXPECT_EQ(r.status, "ok") << model << " " << integrator << ": " << r.detail;
  return r;
}

::testing::AssertionResult Matches(const char* ours_expr, const char* published_expr, double ours,
                                   double published) {
  const double ratio = ours / published;
  if (std::abs(ratio - 1.0) <= kBand) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << ours_expr << " = " << ours << " is " << ratio << " times the published "
         << published_expr << " = " << published << " (allowed: within 25%)";
}
#define EXPECT_MATCHES_PUBLISHED(ours, published) EXPECT_PRED_FORMAT2(Matches, ours, published)

// ---- Example 1: double spherical pendulum, T = 100 -------------------------------------------

TEST(Lee2009Example1, VariationalIntegratorMatchesThePaperAtHEqual1em3) {
  // The printed h = 0.01 gives 2.08e-3, 96 times the published figure; the VI is second order
  // and h = 1e-3 gives it.
  const Metrics vi = run("double_spherical_pendulum", "lee2009", "vi_implicit", 1e-3, 100.0).metrics;
  EXPECT_LT(vi.unit_length_err_mean, kUnitRoundOff);
  EXPECT_MATCHES_PUBLISHED(vi.energy_err_mean, 2.1641e-5);
}

TEST(Lee2009Example1, Rk45MatchesEachPublishedFigureAtTheToleranceThatGivesIt) {
  // ode45's defaults give 4.11 and 1.86e-3; no single tolerance gives both figures.
  const Metrics for_energy = run("double_spherical_pendulum", "lee2009", "dopri45", std::nan(""),
                                 100.0, {}, 1e-6, 1e-6).metrics;
  EXPECT_MATCHES_PUBLISHED(for_energy.energy_err_mean, 7.8586e-4);
  const Metrics for_unit = run("double_spherical_pendulum", "lee2009", "dopri45", std::nan(""),
                               100.0, {}, 1e-4, 1e-6).metrics;
  EXPECT_MATCHES_PUBLISHED(for_unit.unit_length_err_mean, 6.2742e-5);
}

// ---- Example 2: three bodies on the sphere, explicit VI, T = 10 (printed settings) ----------

TEST(Lee2009Example2, VariationalIntegratorIsSecondOrderAndMatchesThePaper) {
  const Metrics coarse = run("sphere_nbody", "lee2009", "vi_explicit", 1e-3, 10.0).metrics;
  const Metrics fine = run("sphere_nbody", "lee2009", "vi_explicit", 1e-4, 10.0).metrics;
  EXPECT_LT(coarse.unit_length_err_mean, kUnitRoundOff);
  EXPECT_LT(fine.unit_length_err_mean, kUnitRoundOff);
  const double factor = coarse.energy_rel_err_max / fine.energy_rel_err_max;
  EXPECT_GE(factor, 70.0) << coarse.energy_rel_err_max << " / " << fine.energy_rel_err_max;
  EXPECT_LE(factor, 130.0) << coarse.energy_rel_err_max << " / " << fine.energy_rel_err_max;
  EXPECT_MATCHES_PUBLISHED(coarse.energy_rel_err_max, 1.1717e-4);
  EXPECT_MATCHES_PUBLISHED(fine.energy_rel_err_max, 1.1986e-6);
}

// ---- Example 3: spring-coupled pendula, explicit VI; h = 0.005, T = 30 (not printed) ---------

TEST(Lee2009Example3, VariationalIntegratorMatchesThePaper) {
  const Metrics vi = run("spring_pendula", "lee2009", "vi_explicit", 5e-3, 30.0).metrics;
  EXPECT_LT(vi.unit_length_err_mean, kUnitRoundOff);
  EXPECT_MATCHES_PUBLISHED(vi.energy_err_mean, 3.6171e-5);
}

// ---- Example 4: elastic rod, implicit VI at h = 1e-4 and ode45, T = 3 ------------------------

TEST(Lee2009Example4, VariationalIntegratorMatchesThePaper) {
  // The printed settings, with our g = 9.81.
  const Metrics vi = run("elastic_rod", "lee2009", "vi_implicit", 1e-4, 3.0).metrics;
  EXPECT_LT(vi.unit_length_err_mean, kUnitRoundOff);
  EXPECT_MATCHES_PUBLISHED(vi.energy_err_mean, 1.4310e-6);
}

TEST(Lee2009Example4, Rk45MatchesThePaperWithGEqual9p8) {
  // ode45's defaults; g = 9.8 (with g = 9.81 they give 0.75 and 0.42 of the published figures,
  // which lie inside the scatter of ours under changes of g in the fourth digit).
  const Metrics rk =
      run("elastic_rod", "lee2009", "dopri45", std::nan(""), 3.0, {{"g", 9.8}}).metrics;
  EXPECT_MATCHES_PUBLISHED(rk.energy_err_mean, 3.5244e-4);
  EXPECT_MATCHES_PUBLISHED(rk.unit_length_err_mean, 1.8725e-5);
}

// ---- Example 5: magnetic dipoles, explicit VI at h = 3e-4 and ode45, T = 9 (not printed) -----

TEST(Lee2009Example5, VariationalIntegratorAndRk45MatchThePaper) {
  const Metrics vi = run("magnetic_dipoles", "lee2009", "vi_explicit", 3e-4, 9.0).metrics;
  EXPECT_LT(vi.unit_length_err_mean, kUnitRoundOff);
  EXPECT_MATCHES_PUBLISHED(vi.energy_err_mean, 8.5403e-10);
  const Metrics rk = run("magnetic_dipoles", "lee2009", "dopri45", std::nan(""), 9.0).metrics;
  EXPECT_MATCHES_PUBLISHED(rk.energy_err_mean, 2.9989e-7);
  EXPECT_MATCHES_PUBLISHED(rk.unit_length_err_mean, 1.7594e-4);
}

// ---- Example 6: 642 Lennard-Jones molecules, explicit VI at h = 0.005, T = 5 ----------------
// sigma and the initial velocities are not in the paper (ours: models/sphere_lj.cpp), so no
// published figure is compared; the VI must keep the sphere and the angular momentum vector.

TEST(Lee2009Example6, VariationalIntegratorKeepsTheSphereAndTheAngularMomentum) {
  const Metrics vi = run("sphere_lj", "lee2009", "vi_explicit", 5e-3, 5.0).metrics;
  EXPECT_LT(vi.unit_length_err_mean, kUnitRoundOff);
  EXPECT_LT(vi.momentum_rel_err_max, 1e-11);
}

}  // namespace
}  // namespace geomint
