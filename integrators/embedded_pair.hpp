#pragma once
// Step-size control for the embedded Lie group pairs (Celledoni Section 4), one driver for
// every pair: `Stepper` makes one attempt from (t, y) with step h and returns a local error
// estimate e_{n+1} (RkmkPairStepper: a length in the Lie algebra; CommutatorFreePairStepper: a
// distance on the manifold). The driver
//   - scales it by the tolerance: err = e_{n+1} / (atol + rtol max(‖y_n‖, ‖y_{n+1}‖)), and
//     accepts the step iff err <= 1 (Celledoni: e_{n+1} <= tol);
//   - after every attempt sets h <- h min(kMaxGrowth, max(kMaxShrink, theta err^(-1/(p^+1))))
//     (Celledoni (33) with alpha = 1/(1 + min(p, p^)) and the safety factor theta = 0.9),
//     not growing again right after a rejection; a rejected step is redone with the new h;
//   - propagates the higher-order solution (local extrapolation), so the nominal order is p;
//   - starts with Hairer, Norsett & Wanner's initial step (I, Section II.4), one Lie-Euler
//     step taking the place of their explicit Euler step;
//   - bounds h by hmax = T - t0 and hmin = 16 eps(max(|t|, T - t0)) (ode45's 16 eps(t), which
//     near t = 0 would allow subnormal steps); a rejected step at hmin throws
//     StepSizeUnderflow (NonFinite when the estimate is not finite), with the time;
//   - stretches a step that would leave less than 10% of it to T so as to land on T (ode45).
// The integrator observes the end point of every accepted step (no continuous extension).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "errors/exit_status_errors.hpp"
#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"

namespace geomint {

template <class Stepper>
class EmbeddedPairIntegrator {
 public:
  using Model = typename Stepper::Model;
  using State = typename Model::State;
  using Algebra = typename Model::Algebra;
  static constexpr Declaration declaration = Stepper::declaration;
  static_assert(declaration.adaptive, "an embedded pair declares itself adaptive");
  static constexpr double kSafety = 0.9;      // theta in Celledoni (33)
  static constexpr double kMaxShrink = 0.2;   // h never falls by more than 5x per attempt ...
  static constexpr double kMaxGrowth = 5.0;   // ... nor grows by more than 5x per step
  static constexpr double kExponent = 1.0 / (Stepper::kEstimatorOrder + 1);

  EmbeddedPairIntegrator(const Model& model, const IntegratorOptions& opt)
      : model_(model),
        stepper_(model),
        rtol_(opt.tolerances.rtol),
        atol_(opt.tolerances.atol),
        hmax_(std::abs(opt.T - opt.t0)) {
    if (!(opt.T > opt.t0)) throw InputError(std::string(declaration.name) + ": need T > t0");
    ynew_.resize(model.dimension());
  }

  const Work& work() const { return work_; }

  /// One accepted step from (t, y) towards T; observe(t, y) at its end.
  template <class Observer>
  void advance(double& t, State& y, double T, Observer&& observe) {
    if (!started_) start(t, y);
    const double hmin = 16.0 * eps(std::max(std::abs(t), hmax_));
    double h = std::clamp(h_, hmin, hmax_);
    bool last = false;
    if (1.1 * h >= T - t) {
      h = T - t;
      last = true;
    }
    bool rejected = false;
    double err = 0.0;
    for (;;) {
      const double e = stepper_.attempt(t, y, h, ynew_, work_);
      err = e / (atol_ + rtol_ * std::max(y.norm(), ynew_.norm()));
      if (err <= 1.0) break;  // false for NaN: a non-finite estimate rejects the step
      ++work_.rejected;
      if (h <= hmin) {
        if (!std::isfinite(err))
          throw NonFinite(t, std::string(declaration.name) +
                                 ": the error estimate is not finite, even at the smallest step");
        throw StepSizeUnderflow(t, std::string(declaration.name) +
                                       ": tolerance not met at the smallest step " +
                                       std::to_string(hmin));
      }
      h = std::max(hmin, h * std::min(1.0, factor(err)));
      last = false;
      rejected = true;
    }
    ++work_.steps;
    stepper_.accept();
    t = last ? T : t + h;
    y = ynew_;
    h_ = h * (rejected ? std::min(1.0, factor(err)) : factor(err));
    observe(t, static_cast<const State&>(y));
  }

 private:
  /// The spacing of doubles at t (MATLAB's eps(t)).
  static double eps(double t) {
    const double a = std::abs(t);
    return std::nextafter(a, std::numeric_limits<double>::infinity()) - a;
  }

  /// Celledoni (33): theta (1/err)^(1/(p^+1)), within [kMaxShrink, kMaxGrowth].
  static double factor(double err) {
    if (!std::isfinite(err)) return kMaxShrink;
    if (err == 0.0) return kMaxGrowth;
    return std::clamp(kSafety * std::pow(err, -kExponent), kMaxShrink, kMaxGrowth);
  }

  /// Hairer, Norsett & Wanner I, II.4: h0 from ‖y0‖ and ‖F(y0)‖, one Lie-Euler step of h0,
  /// then h1 from the change of F over it; h = min(100 h0, h1, hmax). F = psi_*(f(y))|_y is the
  /// vector field in the ambient space, used only for these size estimates.
  void start(double t, const State& y) {
    using Group = typename Model::Group;
    Algebra xi(algebra_dimension(model_)), xi1(algebra_dimension(model_));
    State f0(y.size()), f1(y.size()), y1 = y;
    model_.generator(t, y, xi);
    Group::generator(xi, y, f0);
    const double scale = atol_ + rtol_ * y.norm();
    const double d0 = y.norm() / scale, d1 = f0.norm() / scale;
    double h0 = (d0 < 1e-5 || d1 < 1e-5) ? 1e-6 : 0.01 * d0 / d1;
    h0 = std::min(h0, hmax_);
    const Algebra step = h0 * xi;
    Group::exp_act(step, y1);
    model_.generator(t + h0, y1, xi1);
    Group::generator(xi1, y1, f1);
    work_.f_evals += 2;
    ++work_.exponentials;
    const double d2 = (f1 - f0).norm() / scale / h0;
    const double d = std::max(d1, d2);
    const double h1 = d <= 1e-15 ? std::max(1e-6, 1e-3 * h0) : std::pow(0.01 / d, kExponent);
    h_ = std::min({100.0 * h0, h1, hmax_});
    started_ = true;
  }

  const Model& model_;
  Stepper stepper_;
  double rtol_, atol_, hmax_;
  double h_ = 0.0;
  bool started_ = false;
  State ynew_;
  Work work_;
};

}  // namespace geomint
