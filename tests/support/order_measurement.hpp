#pragma once
// Measuring a convergence order: global errors at T against a reference solver, fitted by
// least squares on log-log data over the points above the reference's own error
// (studies/metrics.hpp: fit_order).

#include <cstdio>
#include <string>
#include <vector>

#include "integrators/options.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint::testing {

struct OrderMeasurement {
  OrderFit fit;
  double reference_error;  // |y_ref(tight) - y_ref(loose)|: a conservative error bound
  std::string table;       // h and error per point, for failure messages
};

/// `Reference` runs at `tight` and, to estimate its error, at `loose` tolerances. `method...`
/// follows the model in Integrator's constructor (a runtime-coefficient
/// method's coefficients, integrators/runtime_explicit_rk.hpp; nothing for a built-in one).
template <class Integrator, class Reference, class Model, class... Method>
OrderMeasurement measure_order(const Model& model, const typename Model::State& y0, double T,
                               const std::vector<double>& steps, double tight_rtol,
                               const Method&... method) {
  IntegratorOptions tight;
  tight.tolerances.rtol = tight_rtol;
  tight.tolerances.atol = tight_rtol * 1e-2;
  tight.T = T;
  IntegratorOptions loose = tight;
  loose.tolerances.rtol *= 10.0;
  loose.tolerances.atol *= 10.0;
  const auto reference = final_state<Reference>(model, y0, tight);
  OrderMeasurement m;
  m.reference_error = (reference - final_state<Reference>(model, y0, loose)).norm();
  std::vector<std::pair<double, double>> points;
  for (double h : steps) {
    const auto y = final_state<Integrator>(model, y0, FixedStep{h}, T, method...);
    points.emplace_back(h, (y - reference).norm());
    char line[96];
    std::snprintf(line, sizeof line, "  h = %.4e  err = %.4e\n", h, points.back().second);
    m.table += line;
  }
  m.fit = fit_order(points, m.reference_error);
  char line[96];
  std::snprintf(line, sizeof line, "reference error estimate %.3e; ", m.reference_error);
  m.table = line + m.fit.note + "\n" + m.table;
  return m;
}

}  // namespace geomint::testing
