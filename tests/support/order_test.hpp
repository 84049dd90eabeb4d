#pragma once
// The order test (label `order`) of tests/order/test_order.cpp and test_user_method_order.cpp:
// global error at T for five steps h0, h0/2, ..., h0/16 against SUNDIALS CVODE at rtol 1e-12,
// atol 1e-14, fitted by least squares on log-log data over the points above twice the
// reference's own error, estimated against CVODE at tolerances ten times looser
// (studies/metrics.hpp: fit_order). T and h0 are the model's (OrderProblem below); a method of
// order above 4 starts one octave higher, since it reaches the reference's error floor two
// halvings earlier.

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "integrators/options.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/pendulum_chain.hpp"
#include "reference/cvode.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint::testing {

/// Per model: the preset, the horizon T and the largest step h0 of the five.
template <class Model>
struct OrderProblem {
  static constexpr const char* kPreset = "swing";
  static constexpr double kT = 1.0, kLargestStep = 0.04;
};
template <>
struct OrderProblem<DoubleSphericalPendulum> {
  static constexpr const char* kPreset = "lee2009";
  static constexpr double kT = 1.0, kLargestStep = 0.04;
};
/// Celledoni's N = 5 chain. At T = 1 with h0 = 0.04 it is far from asymptotic (Lie-Euler's global
/// error is 25 at h = 0.04 and its fitted order 1.5; RKMK4 fits 3.7); at T = 0.5 from h0 = 0.02
/// every method's successive error ratios are within 0.1 of 2^p (RKMK4: 3.86, 3.93, 3.95, 3.99).
template <>
struct OrderProblem<PendulumChain> {
  static constexpr const char* kPreset = "celledoni2021_N5";
  static constexpr double kT = 0.5, kLargestStep = 0.02;
};

struct OrderTestResult {
  OrderFit fit;
  std::string trace;  // the reference's error estimate, h and error per point, the fit's note
};

/// The order test of a method of nominal order `nominal` on Model's OrderProblem;
/// `final_state_with(model, y0, opt)` integrates the method under test on the preset's model
/// from its initial state with the options opt (h and T set) and returns the state at T.
template <class Model, class FinalState>
OrderTestResult order_test(int nominal, FinalState&& final_state_with) {
  using Problem = OrderProblem<Model>;
  const auto setup = make_setup<Model>(Problem::kPreset);
  constexpr double T = Problem::kT;

  IntegratorOptions tight;
  tight.rtol = 1e-12;
  tight.atol = 1e-14;
  tight.T = T;
  IntegratorOptions loose = tight;
  loose.rtol = 1e-11;
  loose.atol = 1e-13;
  const auto reference = final_state<Cvode<Model>>(setup.model, setup.initial, tight);
  const double reference_error =
      (reference - final_state<Cvode<Model>>(setup.model, setup.initial, loose)).norm();

  std::vector<std::pair<double, double>> points;
  const double h0 = Problem::kLargestStep * (nominal > 4 ? 2.0 : 1.0);
  for (double h : {h0, h0 / 2, h0 / 4, h0 / 8, h0 / 16}) {
    IntegratorOptions opt;
    opt.h = h;
    opt.T = T;
    const auto y = final_state_with(setup.model, setup.initial, opt);
    points.emplace_back(h, (y - reference).norm());
  }
  OrderTestResult result{fit_order(points, 2.0 * reference_error), {}};
  const auto sci = [](double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3e", v);
    return std::string(buf);
  };
  result.trace = "reference error estimate " + sci(reference_error) + "\n";
  for (const auto& [h, e] : points) result.trace += "  h = " + sci(h) + "  err = " + sci(e) + "\n";
  result.trace += "fit note: " + result.fit.note;
  return result;
}

}  // namespace geomint::testing
