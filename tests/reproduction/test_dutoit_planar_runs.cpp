// Label `reproduction`: DuToit's four planar Astrojax runs (Section 5.1, models/astrojax_planar_runs.hpp)
// stepped by the constrained variational integrator in Cartesian form (models/astrojax.hpp)
// and measured against the reduced planar ODE in (lambda, theta1, theta2)
// (models/astrojax_planar.hpp), a different formulation, solved by Boost.Odeint's Fehlberg 7(8)
// at rtol 1e-13 and mapped to the plane y = 0. For each run:
//   - "m1 stays between the support and m2": 0 < lambda < l at every accepted step of the
//     reference and at every step of the integrator (lambda = |q1| there);
//   - the error at T falls at the integrator's order, 2 (fitted within 0.1 over three step
//     sizes), so the two formulations describe one motion and the close approaches of the
//     masses are resolved.
// Each run's closest approach l - lambda is printed. Run 3 (m1 = 10 m2, the whiplash) comes
// within 0.0012 at t = 0.345 and needs smaller steps than the others to be in the second-order
// regime; its T = 2 stops before its second approach (0.00088 at t = 2.08), which needs smaller
// steps still. studies/dutoit2005.yaml runs the same motions (planar_ode, planar_cartesian,
// planar_cartesian_whiplash).

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "integrators/constrained_variational.hpp"
#include "integrators/integrate.hpp"
#include "models/astrojax.hpp"
#include "models/astrojax_planar.hpp"
#include "models/astrojax_planar_runs.hpp"
#include "reference/odeint.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

/// The tether's length l of a Cartesian state (q1, q2, v1, v2): |q1| + |q2 - q1|.
double tether_length(const AstrojaxState& y) {
  return y.head<3>().norm() + (y.segment<3>(3) - y.head<3>()).norm();
}

/// The range lambda takes along a run, and whether it stayed inside (0, l).
struct LambdaRange {
  double l;
  double low = l, high = 0.0;
  void add(double lambda) {
    low = std::min(low, lambda);
    high = std::max(high, lambda);
  }
  void expect_inside(const std::string& what) const {
    EXPECT_GT(low, 0.0) << what << ": m1 reached the support";
    EXPECT_LT(high, l) << what << ": m1 reached m2";
  }
};

struct PlanarRunCase {
  std::string preset;
  double T;
  std::vector<double> h;
};

class PlanarRun : public ::testing::TestWithParam<PlanarRunCase> {};

TEST_P(PlanarRun, BeadStaysBetweenSupportAndEndAndTheVIConvergesAtOrderTwo) {
  const PlanarRunCase& c = GetParam();
  const auto planar = testing::make_setup<AstrojaxPlanar>(c.preset);
  const auto cartesian = testing::make_setup<Astrojax>(c.preset);

  IntegratorOptions tight;
  tight.tolerances.rtol = 1e-13;
  tight.tolerances.atol = 1e-15;
  tight.T = c.T;
  OdeintRkf78<AstrojaxPlanar> reference_solver(planar.model, tight);
  const double l = tether_length(cartesian.initial);
  AstrojaxPlanar::State y = planar.initial;
  LambdaRange along_reference{l};
  integrate(reference_solver, y, 0.0, c.T,
            [&](double, const AstrojaxPlanar::State& s) { along_reference.add(s(0)); });
  along_reference.expect_inside(c.preset + ", planar ODE");
  const AstrojaxState reference = planar.model.cartesian_state(y);
  std::printf("%s, planar ODE to T = %g: %.4g <= lambda <= %.4g (closest approach l - lambda = %.4g)\n",
              c.preset.c_str(), c.T, along_reference.low, along_reference.high, l - along_reference.high);

  std::vector<std::pair<double, double>> points;
  for (double h : c.h) {
    ConstrainedVariational<Astrojax, ConstrainedVi> vi(cartesian.model);
    AstrojaxState z = cartesian.initial;
    LambdaRange along_vi{l};
    integrate(vi, z, 0.0, c.T, FixedStep{h},
              [&](double, const AstrojaxState& s) { along_vi.add(s.head<3>().norm()); });
    along_vi.expect_inside(c.preset + ", constrained VI at h = " + std::to_string(h));
    points.emplace_back(h, (z - reference).norm());
    std::printf("  constrained_vi h = %.4e: |y(T) - planar ODE| = %.4e, %.4g <= lambda <= %.4g\n", h,
                points.back().second, along_vi.low, along_vi.high);
  }
  const OrderFit fit = fit_order(points, 1e-12);
  std::printf("  fitted order %.3f (%s)\n", fit.order, fit.note.c_str());
  EXPECT_EQ(fit.used, fit.total) << fit.note;
  EXPECT_NEAR(fit.order, 2.0, 0.1);
}

INSTANTIATE_TEST_SUITE_P(DuToitSection51, PlanarRun,
                         ::testing::Values(PlanarRunCase{"planar1", 3.0, {1e-4, 5e-5, 2.5e-5}},
                                           PlanarRunCase{"planar2", 3.0, {1e-4, 5e-5, 2.5e-5}},
                                           PlanarRunCase{"planar3", 2.0, {5e-5, 2.5e-5, 1.25e-5}},
                                           PlanarRunCase{"planar4", 3.0, {1e-4, 5e-5, 2.5e-5}}),
                         [](const ::testing::TestParamInfo<PlanarRunCase>& run) { return run.param.preset; });

// Every preset of the planar model is one of the runs above.
TEST(PlanarRun, TheFourRunsAreThePlanarPresets) {
  EXPECT_EQ(kAstrojaxPlanarRuns.size(), 4u);
  EXPECT_EQ(AstrojaxPlanar::presets().size(), kAstrojaxPlanarRuns.size());
}

}  // namespace
}  // namespace geomint
