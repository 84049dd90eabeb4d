#pragma once
// Energy drift judged on an ensemble of orbits, for models on (TS^2)^n and on T*G (the criterion of
// tests/conservation/test_vi_conservation.cpp, used by the generated energy suite and by the
// accuracy gate's drift cases, gates/accuracy_cases.cpp).
//
// Why an ensemble: on a chaotic orbit the energy error of a symplectic method (h^p times a
// bounded function of the state, by backward error analysis) wanders slowly as the orbit
// visits different regions. A slope fitted to one orbit is therefore not a stationary-noise
// estimate, and its t-statistic moves with rounding-level changes to the vector field (one such
// change took batch means on LLM Example 1 from t = -1.5 to 6.2, and 2 of 12 orbits read
// |t| > 3). The slopes of independent orbits are independent draws, though: their mean is zero
// for a method without drift and has an honest standard error.
//
// The criterion: over kEnsembleOrbits orbits the mean of the batch-means slopes
// (studies/metrics.hpp) is within 4 standard errors of zero (t with 23 degrees of freedom: a false
// alarm has probability 0.06 %), and moves the energy over the run by less than 5 % of the error
// band the orbits reach (mean over orbits of max_t |E(t) - E(0)|).
//
// On an integrable model the orbits of a non-symplectic method can drift with different signs
// (the Lagrange top: RK4 with projection onto SO(3) reads t = 0.75 while every orbit's band
// doubles from the first half of the run to the second). What each orbit does is therefore
// measured too: its own slope times T over its own band, the median over the orbits. A linear
// drift from E0 makes it 1 and doubles the band; a bounded oscillation of many periods makes it
// small.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <vector>

#include "catalogue/integrator_on_model.hpp"
#include "integrators/integrate.hpp"
#include "integrators/step_control.hpp"
#include "models/views.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint::testing {

inline constexpr int kEnsembleOrbits = 24;
inline constexpr double kDriftTStatisticLimit = 4.0;
inline constexpr double kDriftOverBandLimit = 0.05;

/// A point of the spiral over the unit sphere, one per member (of `of`).
inline Eigen::Vector3d spiral_point(int member, int of) {
  const double m = member;
  const double z = 1.0 - (2.0 * m + 1.0) / (2.0 * of), r = std::sqrt(1.0 - z * z);
  return {r * std::cos(2.39996 * m), r * std::sin(2.39996 * m), z};
}

/// Member `member` of an ensemble of `of` orbits around y0: y0 itself for member 0, else a
/// different orbit on a nearby energy surface, d the member's point of a spiral over the sphere.
/// On (TS^2)^n each w_i is turned by 0.05 d x q_i (still tangent); on a constrained model (the
/// ConstrainedLagrangian view, positions in R^3 blocks) each velocity gains 0.05 d x x_i and the
/// state is projected back onto the hidden constraint; on T*G the momentum is moved
/// along its coadjoint orbit, mu -> Ad*_{exp(0.05 d)} mu (d in the so(3) part of the algebra),
/// which keeps every Casimir (and a reduced state on its orbit).
template <class Model>
typename Model::State ensemble_member(const Model& model, const typename Model::State& y0,
                                      int member, int of) {
  typename Model::State y = y0;
  if (member == 0) return y;
  const Eigen::Vector3d d = spiral_point(member, of);
  if constexpr (SphereLagrangian<Model>) {
    const auto q = Model::positions(y);
    for (Eigen::Index i = 0; i < model.bodies(); ++i)
      y.template segment<3>(3 * (model.bodies() + i)) += 0.05 * d.cross(q.col(i));
  } else if constexpr (ConstrainedLagrangian<Model>) {
    typename Model::Positions x(model.positions_dimension()), v(model.positions_dimension());
    model.configuration(0.0, y, x, v);
    for (Eigen::Index i = 0; i < x.size() / 3; ++i)
      v.template segment<3>(3 * i) += 0.05 * d.cross(Eigen::Vector3d(x.template segment<3>(3 * i)));
    model.set_configuration(0.0, x, v, y);
    model.project(y);
  } else {
    using Cotangent = typename Model::Cotangent;
    auto p = model.cotangent_point(y);
    typename Cotangent::Algebra xi = Cotangent::Algebra::Zero();
    xi.template head<3>() = 0.05 * d;
    p.mu = Cotangent::Ad_star_exp(xi, p.mu);
    model.set_cotangent_point(p, y);
  }
  return y;
}

struct EnsembleDrift {
  int orbits = 0;
  double mean_slope = 0.0;      // energy per unit time, averaged over the orbits
  double t_statistic = 0.0;     // mean / (standard deviation / sqrt(orbits))
  double relative_drift = 0.0;  // |mean slope| T / mean over orbits of max_t |E - E0|
  double band = 0.0;            // mean over the orbits of max_t |E - E0|
  double band_growth = 0.0;     // the mean band over the run's second half / over its first
  double orbit_drift = 0.0;     // median over the orbits of |slope| T / max_t |E - E0|
};

/// The catalogue integrator `method` (catalogue/integrator_on_model.hpp) at step h to T from every
/// member of the ensemble around `s.initial`.
template <class Model>
EnsembleDrift ensemble_drift(const CompiledIntegrator<Model>& method, const Setup<Model>& s,
                             double h, double T, int orbits = kEnsembleOrbits) {
  std::vector<double> slopes, orbit_drifts;
  double band = 0.0, first_half = 0.0, second_half = 0.0;
  std::vector<double> t, energy_error;
  for (int member = 0; member < orbits; ++member) {
    auto y = ensemble_member(s.model, s.initial, member, orbits);
    const double e0 = s.model.energy(y);
    t.clear();
    energy_error.clear();
    method.make(s.model, control_for(*method.entry, FixedStep{h}, Tolerances{}), 0.0, T)->integrate(
        y, 0.0, T,
        [&](double time, const typename Model::State& x) {
          t.push_back(time);
          energy_error.push_back(s.model.energy(x) - e0);
        },
        kNoStepCap);
    slopes.push_back(batch_means_drift(t, energy_error).slope);
    double largest = 0.0, early = 0.0, late = 0.0;
    for (std::size_t k = 0; k < energy_error.size(); ++k) {
      const double e = std::abs(energy_error[k]);
      largest = std::max(largest, e);
      if (2.0 * t[k] < T)
        early = std::max(early, e);
      else
        late = std::max(late, e);
    }
    orbit_drifts.push_back(std::abs(slopes.back()) * T / largest);
    band += largest / orbits;
    first_half += early / orbits;
    second_half += late / orbits;
  }
  EnsembleDrift d;
  d.orbits = orbits;
  for (double slope : slopes) d.mean_slope += slope / orbits;
  double variance = 0.0;
  for (double slope : slopes)
    variance += (slope - d.mean_slope) * (slope - d.mean_slope) / (orbits - 1);
  d.t_statistic = d.mean_slope / std::sqrt(variance / orbits);
  d.band = band;
  d.relative_drift = std::abs(d.mean_slope) * T / band;
  d.band_growth = second_half / first_half;
  std::sort(orbit_drifts.begin(), orbit_drifts.end());
  d.orbit_drift = 0.5 * (orbit_drifts[(orbits - 1) / 2] + orbit_drifts[orbits / 2]);
  return d;
}

}  // namespace geomint::testing
