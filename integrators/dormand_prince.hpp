#pragma once
// Dormand-Prince 5(4) with MATLAB ode45's step-size control, initial step and output.
//
// With the default options (RelTol 1e-3, AbsTol 1e-6, MaxStep (T - t0)/10, Refine 4) this
// follows ode45.m step for step:
//   - initial step: h = min(hmax, T - t0), shrunk to 1/rh with
//     rh = ‖f0 ./ max(|y0|, atol/rtol)‖_inf / (0.8 rtol^(1/5));
//   - a step is stretched to hit T when 1.1 h >= T - t;
//   - error: err = h ‖(sum_j E_j k_j) ./ max(|y|, |ynew|, atol/rtol)‖_inf, accepted iff
//     err <= rtol;
//   - after a first rejection h <- h max(0.1, 0.8 (rtol/err)^(1/5)), after further ones
//     h <- h/2; after a success without rejection h <- h / max(0.2, 1.25 (err/rtol)^(1/5));
//   - hmin = 16 eps(t); a rejected step at hmin is a failure;
//   - output: Refine - 1 points inside every step from the continuous extension (ntrp45),
//     then the step's end point.
// The propagated solution is the fifth-order one (local extrapolation), so the nominal order
// is 5. A NaN error estimate rejects the step (the comparison err <= rtol is false for NaN).

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "errors/exit_status_errors.hpp"
#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

inline constexpr Declaration kDopri45Declaration{
    .name = "dopri45",
    .description = "Dormand-Prince 5(4) with MATLAB ode45's step control and output",
    .family = Family::Classical, .order = 5, .adaptive = true};
inline constexpr Declaration kDopri45ProjectedDeclaration = reprojected(
    kDopri45Declaration, "dopri45_proj",
    "Dormand-Prince 5(4) as MATLAB ode45, reprojected after every step");

template <AmbientOde M, bool Reproject = false>
class DormandPrince45 {
 public:
  using Model = M;
  using State = typename M::State;
  static constexpr Declaration declaration =
      Reproject ? kDopri45ProjectedDeclaration : kDopri45Declaration;
  static constexpr int kRefine = 4;

  DormandPrince45(const M& model, const IntegratorOptions& opt)
      : model_(model),
        rtol_(opt.tolerances.rtol),
        atol_(opt.tolerances.atol),
        hmax_(0.1 * std::abs(opt.T - opt.t0)),
        span_(std::abs(opt.T - opt.t0)) {
    if (!(opt.T > opt.t0)) throw InputError(std::string(declaration.name) + ": need T > t0");
    // ode45 raises a RelTol below 100 eps to 100 eps, with a warning.
    rtol_ = std::max(rtol_, 100.0 * std::numeric_limits<double>::epsilon());
    for (auto& k : k_) k.resize(model.dimension());
    ynew_.resize(model.dimension());
    stage_.resize(model.dimension());
    error_.resize(model.dimension());
  }

  const Work& work() const { return work_; }
  /// The size of the step whose output points are being observed: with Refine 4 the spacing
  /// of the output points is a quarter of it.
  double last_step() const { return last_step_; }

  /// One accepted step from (t, y) towards T; observe(t, y) at the Refine - 1 interpolated
  /// points inside it and at its end.
  template <class Observer>
  void advance(double& t, State& y, double T, Observer&& observe) {
    if (!started_) start(t, y);
    const double threshold = atol_ / rtol_;
    const double hmin = 16.0 * eps(t);
    absh_ = std::min(hmax_, std::max(hmin, absh_));
    double h = absh_;
    bool done = false;
    if (1.1 * absh_ >= std::abs(T - t)) {  // stretch the step to hit T
      h = T - t;
      absh_ = std::abs(h);
      done = true;
    }
    bool nofailed = true;
    double err = 0.0;
    double tnew = t;
    for (;;) {
      constexpr auto& tab = kDormandPrinceTableau;
      for (std::size_t i = 1; i < 7; ++i) {
        stage_ = y;
        for (std::size_t j = 0; j < i; ++j)
          if (tab.a[i][j] != 0.0) stage_ += (h * tab.a[i][j]) * k_[j];
        if (i == 6) ynew_ = stage_;  // the FSAL stage is the new solution
        model_.rhs(t + tab.c[i] * h, stage_, k_[i]);
      }
      work_.f_evals += 6;
      tnew = done ? T : t + h;
      h = tnew - t;  // purify h, as ode45 does
      err = absh_ * weighted_error_norm(y, threshold);
      if (err <= rtol_) break;
      ++work_.rejected;
      if (absh_ <= hmin) {
        if (!std::isfinite(err))
          throw NonFinite(t, "Dormand-Prince: the vector field is not finite near t, even at the "
                             "smallest step");
        throw StepSizeUnderflow(t, "Dormand-Prince: tolerance not met at the smallest step " +
                                       std::to_string(hmin));
      }
      if (nofailed) {
        nofailed = false;
        absh_ = std::max(hmin, absh_ * std::max(0.1, 0.8 * std::pow(rtol_ / err, 0.2)));
      } else {
        absh_ = std::max(hmin, 0.5 * absh_);
      }
      h = absh_;
      done = false;
    }
    ++work_.steps;
    last_step_ = h;
    for (int r = 1; r < kRefine; ++r) {  // ntrp45
      const double s = static_cast<double>(r) / kRefine;
      interpolate(y, h, kOutputWeights[static_cast<std::size_t>(r - 1)], stage_);
      // The reprojecting variant promises output on the manifold: its interpolated points are
      // projected too (the continuous extension of a projected step leaves it by ~1e-10).
      if constexpr (Reproject) model_.project(stage_);
      observe(t + s * h, static_cast<const State&>(stage_));
    }
    t = tnew;
    y = ynew_;
    if constexpr (Reproject) {
      model_.project(y);
      model_.rhs(t, y, k_[6]);  // the FSAL value belongs to the unprojected point
      ++work_.f_evals;
    }
    k_[0] = k_[6];
    if (nofailed) {
      const double temp = 1.25 * std::pow(err / rtol_, 0.2);
      absh_ = temp > 0.2 ? absh_ / temp : 5.0 * absh_;
    }
    observe(t, static_cast<const State&>(y));
  }

 private:
  /// The spacing of doubles at t (MATLAB's eps(t)).
  static double eps(double t) {
    const double a = std::abs(t);
    return std::nextafter(a, std::numeric_limits<double>::infinity()) - a;
  }

  void start(double t, const State& y) {
    model_.rhs(t, y, k_[0]);
    ++work_.f_evals;
    const double threshold = atol_ / rtol_;
    double rh = 0.0;
    for (Eigen::Index i = 0; i < y.size(); ++i)
      rh = std::max(rh, std::abs(k_[0](i)) / std::max(std::abs(y(i)), threshold));
    rh /= 0.8 * std::pow(rtol_, 0.2);
    absh_ = std::min(hmax_, span_);
    if (absh_ * rh > 1.0) absh_ = 1.0 / rh;
    absh_ = std::max(absh_, 16.0 * eps(t));
    started_ = true;
  }

  double weighted_error_norm(const State& y, double threshold) {
    // e = sum_j E_j k_j as whole-vector operations (they vectorise; a loop over j inside the
    // loop over components does not), in the same order per component, so the same doubles.
    error_ = kDormandPrinceErrorWeights[0] * k_[0];
    for (std::size_t j = 1; j < 7; ++j)
      if (kDormandPrinceErrorWeights[j] != 0.0) error_ += kDormandPrinceErrorWeights[j] * k_[j];
    double norm = 0.0;
    for (Eigen::Index i = 0; i < y.size(); ++i) {
      const double e = error_(i);
      const double scale = std::max({std::abs(y(i)), std::abs(ynew_(i)), threshold});
      const double r = std::abs(e) / scale;
      if (std::isnan(r)) return r;
      norm = std::max(norm, r);
    }
    return norm;
  }

  /// The weights BI_j . [s, s^2, s^3, s^4] of ntrp45 at the output points s = r / Refine,
  /// r = 1 .. Refine - 1: the same for every step, so they are computed once, at compile time.
  static constexpr std::array<std::array<double, 7>, kRefine - 1> kOutputWeights = [] {
    std::array<std::array<double, 7>, kRefine - 1> w{};
    for (int r = 1; r < kRefine; ++r) {
      const double s = static_cast<double>(r) / kRefine;
      for (std::size_t j = 0; j < 7; ++j) {
        const auto& bi = kDormandPrinceDense[j];
        w[static_cast<std::size_t>(r - 1)][j] = s * (bi[0] + s * (bi[1] + s * (bi[2] + s * bi[3])));
      }
    }
    return w;
  }();

  /// y(t + s h) = y + h sum_j k_j w_j with the weights w of one output point (ntrp45).
  void interpolate(const State& y, double h, const std::array<double, 7>& w, State& out) const {
    out = y;
    for (std::size_t j = 0; j < 7; ++j)
      if (w[j] != 0.0) out += (h * w[j]) * k_[j];
  }

  const M& model_;
  double rtol_, atol_, hmax_, span_;
  double absh_ = 0.0;
  double last_step_ = 0.0;
  bool started_ = false;
  std::array<State, 7> k_;
  State ynew_, stage_, error_;
  Work work_;
};

template <AmbientOde M>
using Dopri45 = DormandPrince45<M, false>;
template <AmbientOde M>
using Dopri45Projected = DormandPrince45<M, true>;

}  // namespace geomint
