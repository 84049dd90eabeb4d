// Label `manifold`: Celledoni Fig. 18 on the two quadrotors with a load (NOTES-celledoni 4.6).
// Over the paper's run (T = 5, 1999 steps of h = 5/1999; the adaptive pairs at rtol 1e-6, atol
// 1e-8) every Lie group method of the catalogue keeps, at every step, |q_i|^2 - 1, q_i . w_i,
// |R_i^T R_i - I| (Frobenius) and det R_i - 1 below 1e-12: the action moves q_i, w_i, R_i only
// by rotations. Classical RK4 in the ambient R^42 leaves them, by more the larger its step (the
// largest defect over the run at h = 5/250, 5/500, 5/1000 grows with h, and is above 1e-9 at
// the largest).

#include <gtest/gtest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "catalogue/families/lie_group.hpp"
#include "integrators/classical_methods.hpp"
#include "integrators/explicit_rk.hpp"
#include "models/quadrotors_payload.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using M = QuadrotorsPayload;
constexpr double kT = 5.0;
constexpr double kBound = 1e-12;

/// The largest of the four defects at y, NaN if y is not finite.
double largest_defect(const M::State& y) {
  if (!y.allFinite()) return std::nan("");
  double worst = 0.0;
  for (int i = 0; i < 2; ++i) {
    const Eigen::Vector3d q = y.segment<3>(M::kQ[i]), w = y.segment<3>(M::kW[i]);
    const Eigen::Map<const Eigen::Matrix3d> r(y.data() + M::kR[i]);
    worst = std::max({worst, std::abs(q.squaredNorm() - 1.0), std::abs(q.dot(w)),
                      (r.transpose() * r - Eigen::Matrix3d::Identity()).norm(),
                      std::abs(r.determinant() - 1.0)});
  }
  return worst;
}

/// The largest defect over a run of Integrator at step h (or the pairs' tolerances).
template <class Integrator>
double largest_defect_over_run(double h) {
  const auto setup = testing::make_setup<M>("celledoni2021");
  M::State y = setup.initial;
  double worst = 0.0;
  testing::integrate_either<Integrator>(setup.model, y, kT, FixedStep{h}, Tolerances{1e-6, 1e-8},
                                        [&](double, const M::State& s) {
                                          const double d = largest_defect(s);
                                          worst = std::isnan(d) ? d : std::max(worst, d);
                                        });
  return worst;
}

TEST(QuadrotorsManifold, EveryLieGroupMethodStaysOnIt) {
  int methods = 0;
  std::apply([&](auto... entry) {
    ([&] {
      using Entry = decltype(entry);
      const double worst = largest_defect_over_run<typename Entry::template type<M>>(kT / 1999);
      std::printf("%-16s largest defect %.3e\n", Entry::declaration.name.data(), worst);
      EXPECT_LE(worst, kBound) << Entry::declaration.name;
      ++methods;
    }(), ...);
  }, LieGroupEntries{});
  EXPECT_EQ(methods, static_cast<int>(std::tuple_size_v<LieGroupEntries>));
}

TEST(QuadrotorsManifold, Rk4InTheAmbientSpaceLeavesIt) {
  double previous = 0.0;
  for (int n : {1000, 500, 250}) {
    const double worst = largest_defect_over_run<ExplicitRk<Rk4Method, M>>(kT / n);
    std::printf("rk4, h = 5/%d: largest defect %.3e\n", n, worst);
    EXPECT_GT(worst, 10.0 * previous);
    previous = worst;
  }
  EXPECT_GT(previous, 1e-9);
}

}  // namespace
}  // namespace geomint
