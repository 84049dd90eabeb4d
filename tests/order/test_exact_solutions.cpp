// Label `order`: every catalogued integrator against exact solutions (no reference solver in
// the loop):
//   - the conical pendulum (models/conical_pendulum.hpp, spherical_pendulum preset `conical`):
//     fixed-step methods reach their nominal order within +-0.2 at T = 1 (steps four times
//     larger from order 5 up, which would otherwise reach round-off); adaptive ones converge:
//     their global error falls with each tolerance step, and four decades of tolerance buy at
//     least a factor 50 (10^4 for most; 100 for cvode_adams_proj, which restarts at order 1
//     every step). Local error control does not bound the global error by the tolerance:
//     CVODE's is about 200 times its tolerance here (2e-8 at 1e-10), so no such bound is
//     asserted; a variable-order method (CVODE, Bulirsch-Stoer) has no single order to fit;
//   - the tetrahedral equilibrium of four bodies on the sphere (sphere_nbody preset
//     `tetrahedron`): every method leaves it where it is, to 1e-12, over T = 1.
// A new integrator is checked here by being catalogued.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "models/conical_pendulum.hpp"
#include "models/sphere_nbody.hpp"
#include "models/spherical_pendulum.hpp"
#include "studies/integrator_catalogue.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

constexpr double kT = 1.0;
constexpr double kRoundOff = 1e-12;  // below this an error is rounding, not truncation

double error_at_T(const SphericalPendulum::State& y, const ConicalPendulum& exact) {
  return (y - exact.at(kT)).norm();
}

TEST(ConicalPendulum, IsAnExactSolution) {
  // Independent of the integrators: the exact state's derivative is the model's vector field.
  const auto s = testing::make_setup<SphericalPendulum>("conical");
  const ConicalPendulum exact(ConicalPendulum::kPresetAngle, 1.0, 9.81);
  EXPECT_LT((s.initial - exact.at(0.0)).norm(), 1e-15);
  for (double t : {0.0, 0.3, 1.7}) {
    const double e = 1e-5;
    const SphericalPendulum::State derivative = (exact.at(t + e) - exact.at(t - e)) / (2 * e);
    SphericalPendulum::State f;
    s.model.rhs(t, exact.at(t), f);
    EXPECT_LT((f - derivative).norm(), 1e-8 * f.norm()) << "t = " << t;
  }
}

TEST(ConicalPendulum, EveryIntegratorConvergesToItAtItsOrder) {
  const auto s = testing::make_setup<SphericalPendulum>("conical");
  const ConicalPendulum exact(ConicalPendulum::kPresetAngle, 1.0, 9.81);
  for_each_integrator([&]<class Entry>() {
    if constexpr (Entry::template runs_on<SphericalPendulum>) {
      using Integrator = typename Entry::template type<SphericalPendulum>;
      const std::string name(Entry::declaration.name);
      SCOPED_TRACE(name);
      std::string table;
      if constexpr (Entry::declaration.adaptive) {
        std::vector<double> errors;
        for (double tol : {1e-6, 1e-8, 1e-10}) {
          IntegratorOptions opt;
          opt.rtol = tol;
          opt.atol = tol;
          opt.T = kT;
          errors.push_back(error_at_T(testing::final_state<Integrator>(s.model, s.initial, opt), exact));
          table += " tol=" + std::to_string(tol) + " err=" + std::to_string(errors.back());
        }
        EXPECT_LT(errors[1], errors[0]) << table;
        EXPECT_LT(errors[2], errors[1]) << table;
        EXPECT_LT(errors[2], errors[0] / 50) << table;
      } else {
        const int order = Entry::declaration.order;
        std::vector<std::pair<double, double>> points;
        for (double h : {0.02, 0.01, 0.005, 0.0025}) {
          IntegratorOptions opt;
          opt.h = order >= 5 ? 4 * h : h;
          opt.T = kT;
          points.emplace_back(opt.h, error_at_T(testing::final_state<Integrator>(s.model, s.initial, opt), exact));
          table += " h=" + std::to_string(opt.h) + " err=" + std::to_string(points.back().second);
        }
        const OrderFit fit = fit_order(points, kRoundOff);
        ASSERT_GE(fit.used, 3) << table;
        EXPECT_NEAR(fit.order, order, 0.2) << table << " (" << fit.note << ")";
      }
    }
  });
}

TEST(TetrahedralEquilibrium, EveryIntegratorLeavesItInPlace) {
  const auto s = testing::make_setup<SphereNBody>("tetrahedron");
  for_each_integrator([&]<class Entry>() {
    if constexpr (Entry::template runs_on<SphereNBody>) {
      using Integrator = typename Entry::template type<SphereNBody>;
      IntegratorOptions opt;
      opt.h = 0.01;
      opt.rtol = 1e-8;
      opt.atol = 1e-10;
      opt.T = kT;
      const auto y = testing::final_state<Integrator>(s.model, s.initial, opt);
      EXPECT_LT((y - s.initial).template lpNorm<Eigen::Infinity>(), kRoundOff) << Entry::declaration.name;
    }
  });
}

}  // namespace
}  // namespace geomint
