#pragma once
// The one-parameter family of symplectic Lie group integrators on T*G ~ G ⋉ g* (Celledoni
// Section 3.2, after Bogfjellmo & Marthinsen 2016), for a model offering the CotangentLieGroup
// view. One step (g0, mu0) -> (g1, mu1):
//   M_theta  = dexp*_{-xi}(mu0 + Ad*_{exp(theta xi)} nbar) - theta dexp*_{-theta xi} Ad*_{exp(theta xi)} nbar   (15)
//   (xi, nbar) = h f(exp(theta xi) g0, M_theta)                                                            (16)
//   (g1, mu1) = (exp(xi), Ad*_{exp((theta-1) xi)} nbar) . (g0, mu0),                                       (17)
// that is g1 = exp(xi) g0 and mu1 = Ad*_{exp((theta-1) xi)} nbar + Ad*_{exp(-xi)} mu0 by (11).
// theta = 0 and theta = 1 are each other's adjoint and of order 1; theta = 1/2 is symmetric and
// of order 2. g stays on G to round-off: it is only ever multiplied by exponentials.
//
// The solve of (16) for z = (xi, nbar) in R^{2d}: Newton's method on r(z) = z - h f(...) with a
// forward-difference Jacobian (relative increment 1e-7; it only sets the rate, the residual
// itself is exact), kept from one iteration to the next, and from one step to the next while h
// is the same, as long as each iteration divides the residual by at least 10, and recomputed
// when one does not (or when h changes). (A last step's Jacobian that only halves it can take
// 30 iterations to reach round-off on the paper's top at h = 0.01, h |Omega| = 1.5.) The start
// is the previous step's z scaled to the new h, or the Lie-Euler predictor h f(g0, mu0) on the
// first step. The rows of nbar are scaled by
// 1 / max(1, |mu0|) (xi is an angle, nbar a momentum increment). The stopping rule: the scaled
// residual is below 4 eps |z| (round-off), or it has stopped halving while below 1e-13 |z| (the
// rounding of evaluating f: what is left cannot be reduced). After 30 iterations, or at a
// non-finite iterate, the step fails with NonConvergence, naming the time and the residual.
//
// Compensated summation (compensate(), integrators/compensated_sum.hpp), where the model gives
// the change of its state for a change of its cotangent point (CotangentIncrement): (17) is
// summed as g1 = g0 + (exp(xi) - I) g0 and mu1 = mu0 + Ad*_{exp((theta-1) xi)} nbar
// + (Ad*_{exp(-xi)} - I) mu0, those increments formed in closed form (geometry/so3.hpp: expm1).

#include <Eigen/Core>
#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "integrators/compensated_sum.hpp"
#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

// ---- The methods: theta and the declaration --------------------------------------------------

struct SlgiTheta0 {
  static constexpr double kTheta = 0.0;
  static constexpr Declaration declaration{
      .name = "slgi_theta0",
      .description =
          "symplectic Lie group integrator on T*G, Celledoni (15)-(17) with theta = 0 (Newton, "
          "finite-difference Jacobian)",
      .family = Family::SymplecticLieGroup, .order = 1,
      .symplectic = true, .stays_on_manifold = true};
};
struct SlgiThetaHalf {
  static constexpr double kTheta = 0.5;
  static constexpr Declaration declaration{
      .name = "slgi_theta_half",
      .description =
          "symplectic Lie group integrator on T*G, Celledoni (15)-(17) with theta = 1/2 (Newton, "
          "finite-difference Jacobian)",
      .family = Family::SymplecticLieGroup, .order = 2,
      .symplectic = true, .symmetric = true, .stays_on_manifold = true};
};
struct SlgiTheta1 {
  static constexpr double kTheta = 1.0;
  static constexpr Declaration declaration{
      .name = "slgi_theta1",
      .description =
          "symplectic Lie group integrator on T*G, Celledoni (15)-(17) with theta = 1 (Newton, "
          "finite-difference Jacobian)",
      .family = Family::SymplecticLieGroup, .order = 1,
      .symplectic = true, .stays_on_manifold = true};
};

/// The promises of theta on a model with a left-invariant Hamiltonian, H(g, mu) = h(Ad*_g mu)
/// (M::kLeftInvariantHamiltonian: the free rigid body). There every theta gives the same map.
/// With f1 = dH/dmu, left invariance gives f2 = ad*_{f1} mu and f1(a g, mu) = Ad_a f1(g, Ad*_a mu);
/// by (16) nbar = ad*_xi M_theta. Ad*_{exp(s xi)} and dexp*_{s xi} commute with ad*_xi, and
/// theta dexp*_{-theta xi} ad*_xi w = w - Ad*_{exp(-theta xi)} w (the series of dexp), so (15)
/// becomes M_theta = Ad*_{exp((1 - theta) xi)} dexp*_{-xi} mu0. Then, as Ad_{exp(theta xi)} xi =
/// xi, (16) is xi = h f1(g0, Ad*_{exp(xi)} dexp*_{-xi} mu0), and (17) gives mu1 = mu0: neither
/// involves theta. So theta = 0 equals its adjoint theta = 1: every theta is symmetric, hence of
/// order 2, there (test_heavy_top_conservation.cpp checks the maps coincide, and differ on the
/// heavy top).
constexpr Declaration on_left_invariant_hamiltonian(Declaration d) {
  d.order = 2;
  d.symmetric = true;
  return d;
}

template <CotangentLieGroup M, class Method>
class SymplecticLieGroup : public FixedStepBase<M> {
 public:
  using State = typename M::State;
  using Cotangent = typename M::Cotangent;
  using Point = typename Cotangent::Point;
  using Algebra = typename Cotangent::Algebra;
  static constexpr Declaration declaration = M::kLeftInvariantHamiltonian
                                                 ? on_left_invariant_hamiltonian(Method::declaration)
                                                 : Method::declaration;
  static constexpr double kTheta = Method::kTheta;
  static constexpr int kMaxIterations = 30;

  explicit SymplecticLieGroup(const M& model)
      : FixedStepBase<M>(model) {}

  void step(double t, State& y, double h) {
    Point p = model_.cotangent_point(y);
    if constexpr (CotangentIncrement<M>)
      if (compensated_) [[unlikely]] {
        step_compensated(t, p, y, h);
        return;
      }
    step_point(t, p, h);
    model_.set_cotangent_point(p, y);
  }

  /// Compensated summation of (17) (integrators/compensated_sum.hpp).
  void compensate()
    requires CotangentIncrement<M>
  {
    compensated_ = true;
    carry_ = State::Zero(model_.dimension());
  }

  /// One step of the map (15)-(17) on T*G itself.
  void step_point(double t, Point& p, double h) {
    solve(t, p, h);
    const Algebra xi = z_.template head<kDim>(), nbar = z_.template tail<kDim>();
    p.mu = Cotangent::Ad_star_exp((kTheta - 1.0) * xi, nbar) + Cotangent::Ad_star_exp(-xi, p.mu);
    Cotangent::exp_left(xi, p.g);
    work_.exponentials += 3;
    ++work_.steps;
  }

 private:
  /// (17) as increments of p = (g0, mu0) and of y, summed into y compensated. Cold and out of
  /// line, as Rkmk's compensated update is (integrators/rkmk.hpp says why).
  [[gnu::cold, gnu::noinline]] void step_compensated(double t, const Point& p, State& y, double h)
    requires CotangentIncrement<M>
  {
    solve(t, p, h);
    const Algebra xi = z_.template head<kDim>(), nbar = z_.template tail<kDim>();
    const Point dp{Cotangent::exp_left_increment(xi, p.g),
                   Cotangent::Ad_star_exp((kTheta - 1.0) * xi, nbar) + Cotangent::Ad_star_exp_increment(-xi, p.mu)};
    model_.cotangent_increment(p, dp, increment_);
    compensated_add(y, increment_, carry_);
    work_.exponentials += 3;
    ++work_.steps;
  }

  static constexpr int kDim = Cotangent::kDim;
  using Unknowns = Eigen::Matrix<double, 2 * kDim, 1>;
  using Jacobian = Eigen::Matrix<double, 2 * kDim, 2 * kDim>;
  static constexpr double kEps = std::numeric_limits<double>::epsilon();
  static constexpr double kRoundOff = 4.0 * kEps, kStalled = 1e-13, kIncrement = 1e-7;
  static constexpr double kFastContraction = 0.1;  // a Jacobian that does less is refreshed

  /// r(z) = z - h f(exp(theta xi) g0, M_theta(z)), the residual of (16) with M_theta of (15).
  Unknowns residual(double t, const Point& p0, const Unknowns& z, double h) {
    const Algebra xi = z.template head<kDim>(), nbar = z.template tail<kDim>();
    const Algebra a = Cotangent::Ad_star_exp(kTheta * xi, nbar);
    Point at{p0.g, Cotangent::dexp_star(-xi, p0.mu + a) -
                       kTheta * Cotangent::dexp_star(-kTheta * xi, a)};
    Cotangent::exp_left(kTheta * xi, at.g);
    Algebra f1, f2;
    model_.hamiltonian_field(t + kTheta * h, at, f1, f2);
    ++work_.f_evals;
    Unknowns r;
    r << xi - h * f1, nbar - h * f2;
    return r;
  }

  static std::string scientific(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3e", v);
    return text;
  }

  double scaled_norm(const Unknowns& v) const {
    return std::max(v.template head<kDim>().template lpNorm<Eigen::Infinity>(),
                    momentum_weight_ * v.template tail<kDim>().template lpNorm<Eigen::Infinity>());
  }

  void start(double t, const Point& p0, double h) {
    if (previous_h_ != 0.0) {
      z_ *= h / previous_h_;
      return;
    }
    Algebra f1, f2;
    model_.hamiltonian_field(t, p0, f1, f2);
    ++work_.f_evals;
    z_ << h * f1, h * f2;
  }

  /// The forward-difference Jacobian of r at z_, whose residual is r.
  void factorize_jacobian(double t, const Point& p0, const Unknowns& r, double h) {
    const double xi_size = z_.template head<kDim>().norm(), nbar_size = z_.template tail<kDim>().norm();
    for (int j = 0; j < 2 * kDim; ++j) {
      double dz = kIncrement * std::max(std::abs(z_[j]), j < kDim ? xi_size : nbar_size);
      if (dz == 0.0) dz = kIncrement;
      Unknowns z = z_;
      z[j] += dz;
      jacobian_.col(j) = (residual(t, p0, z, h) - r) / (z[j] - z_[j]);
    }
    lu_.compute(jacobian_);
    jacobian_h_ = h;
  }

  void solve(double t, const Point& p0, double h) {
    momentum_weight_ = 1.0 / std::max(1.0, p0.mu.template lpNorm<Eigen::Infinity>());
    start(t, p0, h);
    Unknowns r = residual(t, p0, z_, h);
    double rho = scaled_norm(r);
    bool refresh = h != jacobian_h_;  // the last step's Jacobian serves while h is the same
    for (int k = 0;; ++k) {
      if (!z_.allFinite() || !std::isfinite(rho))
        throw NonConvergence(t, std::string(declaration.name) +
                                    ": Newton's iterate for (16) is no longer finite (scaled residual " +
                                    scientific(rho) + ")");
      if (rho <= kRoundOff * scaled_norm(z_)) break;
      if (k == kMaxIterations)
        throw NonConvergence(t, std::string(declaration.name) + ": Newton on (16) left a scaled residual of " +
                                    scientific(rho) + " after " + std::to_string(k) + " iterations (h = " +
                                    std::to_string(h) + ")");
      if (refresh) factorize_jacobian(t, p0, r, h);
      z_ -= lu_.solve(r);
      ++work_.nonlinear_iterations;
      const Unknowns r_next = residual(t, p0, z_, h);
      const double rho_next = scaled_norm(r_next);
      const bool halved = rho_next <= 0.5 * rho;
      const bool fast = rho_next <= kFastContraction * rho;
      r = r_next;
      rho = rho_next;
      if (!halved && rho <= kStalled * scaled_norm(z_)) break;
      refresh = !fast;
    }
    previous_h_ = h;
  }

  using FixedStepBase<M>::model_;
  using FixedStepBase<M>::work_;
  Unknowns z_ = Unknowns::Zero();
  double previous_h_ = 0.0;
  double jacobian_h_ = 0.0;  // the step size of the factorised Jacobian (0: none yet)
  double momentum_weight_ = 1.0;
  Jacobian jacobian_;
  Eigen::PartialPivLU<Jacobian> lu_;
  bool compensated_ = false;
  State increment_, carry_;  // the update's increment and compensation, when compensated_
};

}  // namespace geomint
