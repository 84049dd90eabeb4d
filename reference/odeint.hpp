#pragma once
// Boost.Odeint steppers as reference solvers, with the interface of an adaptive integrator
// (integrators/dormand_prince.hpp), on the model's own State type with odeint's
// vector_space_algebra (odeint's Eigen support):
//   odeint_dopri5         runge_kutta_dopri5 (Dormand-Prince 5(4), FSAL; the order-5 solution
//                         is propagated) under make_controlled: each advance() repeats
//                         try_step until one succeeds;
//   odeint_dopri5_dense   the same pair as make_dense_output's dense_output_runge_kutta: each
//                         advance() is one do_step, which steps freely (the last one may end
//                         past T; the state at T is then its continuous extension, order 4);
//   odeint_rkf78          runge_kutta_fehlberg78 (Fehlberg 7(8), the order-8 solution
//                         propagated) under make_controlled, as odeint_dopri5;
//   odeint_bulirsch_stoer bulirsch_stoer: the extrapolated modified midpoint rule with odeint's
//                         order and step-size selection (Hairer, Norsett & Wanner, Solving
//                         ODEs I, Section II.9; orders 4-18), as odeint_dopri5.
// All use odeint's documented error control (make_controlled, make_dense_output and
// bulirsch_stoer's constructor with eps_abs = atol, eps_rel = rtol and a_x = a_dxdt = 1): a step
// is accepted iff
//   max_i |err_i| / (atol + rtol (|x_i| + dt |dxdt_i|)) <= 1,
// x and dxdt at the step's start, err the embedded difference (or extrapolation error), and the
// step size then follows odeint's default_step_adjuster (bulirsch_stoer: its own rule).
//
// Differences from odeint's integrate functions, and why:
//   - A NaN error estimate is rejected. odeint's controllers accept a step unless
//     `max_rel_err > 1.0`, false for NaN (bulirsch_stoer rejects it, but its step-size formula
//     then grows the step). Every stepper here computes its error with NanRejectingOperations,
//     odeint's default_operations whose rel_error maps a NaN ratio to +infinity, so a NaN or
//     infinite f anywhere in an attempt rejects it and shrinks the step as much as the
//     controller allows (default_step_adjuster: by 5; bulirsch_stoer: by its facmin / 4).
//   - The first step size is Hairer, Norsett & Wanner's starting-step estimate (Solving ODEs I,
//     Section II.4), where odeint's integrate functions take one from the caller.
//   - Failures are typed, at the time they happen and with the step count:
//       more than max_steps accepted steps                -> TooMuchWork
//       a step that no longer advances t (t + dt == t),
//       or odeint's failed_step_checker (more than 500
//       rejected attempts in a row, step_adjustment_error) -> StepSizeUnderflow, or NonFinite
//                                                            (at the time f was evaluated) when
//                                                            f was not finite since the last
//                                                            accepted step
//     and an exception from the model passes through.
//
// The reprojection variants put the state back on the model's manifold (model.project) after
// every accepted step; what the stepper then forgets:
//   - controlled dopri5 is FSAL: it keeps f at the end of the last step, which belongs to the
//     unprojected state, so it is reset() and evaluates f at the projected state;
//   - dense dopri5 keeps its current state and derivative: it is initialize()d at the projected
//     state with its proposed step size (a new derivative; the step-size proposal is kept);
//   - controlled Fehlberg 7(8) and bulirsch_stoer evaluate f at the state they are given on
//     every try_step, and keep only step-size (and order) proposals, which stay valid.
// The same resynchronisation happens whenever a caller hands advance() a state other than the
// one the last step returned.
//
// Note: odeint's Eigen support declares operator+ (matrix + scalar), operator/ (element-wise)
// and abs() for Eigen matrices in namespace Eigen, so every translation unit that includes this
// header sees them.

// odeint's Eigen support (external/eigen/eigen.hpp) uses these without including them.
#include <boost/numeric/odeint/algebra/algebra_dispatcher.hpp>
#include <boost/numeric/odeint/algebra/vector_space_algebra.hpp>
#include <boost/type_traits/is_base_of.hpp>
#include <boost/utility/enable_if.hpp>
// The odeint headers we use.
#include <boost/numeric/odeint/algebra/default_operations.hpp>
#include <boost/numeric/odeint/external/eigen/eigen.hpp>
#include <boost/numeric/odeint/integrate/max_step_checker.hpp>
#include <boost/numeric/odeint/stepper/bulirsch_stoer.hpp>
#include <boost/numeric/odeint/stepper/controlled_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/dense_output_runge_kutta.hpp>
#include <boost/numeric/odeint/stepper/generation.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_dopri5.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <boost/numeric/odeint/stepper/stepper_categories.hpp>
#include <boost/numeric/odeint/util/odeint_error.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string_view>
#include <type_traits>
#include <utility>

#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"
#include "reference/options.hpp"

// odeint's scratch state for a fixed-size Eigen matrix, zero-initialised. odeint copies its
// default-constructed steppers (make_controlled, make_dense_output and the controlled and dense
// constructors take them by value), and copying uninitialised fixed-size scratch would read
// indeterminate values (GCC: -Wuninitialized). A dynamic-size matrix starts empty and is
// resized by odeint before use.
namespace boost::numeric::odeint {
template <class Scalar, int Rows, int Cols, int Options, int MaxRows, int MaxCols>
struct state_wrapper<Eigen::Matrix<Scalar, Rows, Cols, Options, MaxRows, MaxCols>,
                     std::enable_if_t<Rows != Eigen::Dynamic && Cols != Eigen::Dynamic>> {
  using state_wrapper_type = state_wrapper;
  Eigen::Matrix<Scalar, Rows, Cols, Options, MaxRows, MaxCols> m_v =
      Eigen::Matrix<Scalar, Rows, Cols, Options, MaxRows, MaxCols>::Zero();
};
}  // namespace boost::numeric::odeint

namespace geomint {

inline constexpr Declaration kOdeintDopri5Declaration{
    .name = "odeint_dopri5",
    .description = "Boost.Odeint runge_kutta_dopri5, Dormand-Prince 5(4), under make_controlled",
    .family = Family::Reference, .order = 5, .adaptive = true};
inline constexpr Declaration kOdeintDopri5ProjectedDeclaration = reprojected(
    kOdeintDopri5Declaration, "odeint_dopri5_proj",
    "Boost.Odeint runge_kutta_dopri5 as odeint_dopri5, projected after every step (FSAL reset)");
inline constexpr Declaration kOdeintDopri5DenseDeclaration{
    .name = "odeint_dopri5_dense",
    .description =
        "Boost.Odeint dense-output runge_kutta_dopri5 (make_dense_output), the state at T from its "
        "continuous extension",
    .family = Family::Reference, .order = 5, .adaptive = true};
inline constexpr Declaration kOdeintDopri5DenseProjectedDeclaration = reprojected(
    kOdeintDopri5DenseDeclaration, "odeint_dopri5_dense_proj",
    "Boost.Odeint dense-output runge_kutta_dopri5 as odeint_dopri5_dense, projected after every "
    "step (re-initialised there)");
inline constexpr Declaration kOdeintRkf78Declaration{
    .name = "odeint_rkf78",
    .description =
        "Boost.Odeint runge_kutta_fehlberg78, Fehlberg 7(8) propagating order 8, under "
        "make_controlled",
    .family = Family::Reference, .order = 8, .adaptive = true};
inline constexpr Declaration kOdeintRkf78ProjectedDeclaration = reprojected(
    kOdeintRkf78Declaration, "odeint_rkf78_proj",
    "Boost.Odeint runge_kutta_fehlberg78 as odeint_rkf78, projected after every step");
// Nominal order: the highest its extrapolation table reaches (9 midpoint sequences, order 18).
inline constexpr Declaration kOdeintBulirschStoerDeclaration{
    .name = "odeint_bulirsch_stoer",
    .description =
        "Boost.Odeint bulirsch_stoer, extrapolated modified midpoint rule of variable order 4-18 "
        "(HNW II.9)",
    .family = Family::Reference, .order = 18, .adaptive = true};
inline constexpr Declaration kOdeintBulirschStoerProjectedDeclaration = reprojected(
    kOdeintBulirschStoerDeclaration, "odeint_bulirsch_stoer_proj",
    "Boost.Odeint bulirsch_stoer as odeint_bulirsch_stoer, projected after every step");

namespace detail {

namespace bno = boost::numeric::odeint;

/// odeint's default_operations, with rel_error mapping a NaN ratio to +infinity: odeint's
/// error checkers (default_error_checker, and the one inside bulirsch_stoer) compute
///   err_i <- |err_i| / (eps_abs + eps_rel (a_x |x_i| + a_dxdt |dxdt_i|))
/// with it and accept when the maximum is at most 1 (bulirsch_stoer: below 1), so a NaN there
/// would be accepted (or grow bulirsch_stoer's step); +infinity is rejected with the largest
/// step reduction. With vector_space_algebra the operation gets whole Eigen vectors.
struct NanRejectingOperations : bno::default_operations {
  template <class Fac = double>
  struct rel_error {
    const Fac m_eps_abs, m_eps_rel, m_a_x, m_a_dxdt;

    rel_error(Fac eps_abs, Fac eps_rel, Fac a_x, Fac a_dxdt)
        : m_eps_abs(eps_abs), m_eps_rel(eps_rel), m_a_x(a_x), m_a_dxdt(a_dxdt) {}

    template <class Err, class X, class Dxdt>
    void operator()(Err& err, const X& x_old, const Dxdt& dxdt_old) const {
      for (Eigen::Index i = 0; i < err.size(); ++i) {
        const Fac r = std::abs(err[i]) / (m_eps_abs + m_eps_rel * (m_a_x * std::abs(x_old[i]) +
                                                                   m_a_dxdt * std::abs(dxdt_old[i])));
        err[i] = std::isnan(r) ? std::numeric_limits<Fac>::infinity() : r;
      }
    }

    using result_type = void;
  };
};

template <class State>
using OdeintDopri5Stepper = bno::runge_kutta_dopri5<State, double, State, double,
                                                    bno::vector_space_algebra, NanRejectingOperations>;
template <class State>
using OdeintFehlberg78Stepper =
    bno::runge_kutta_fehlberg78<State, double, State, double, bno::vector_space_algebra,
                                NanRejectingOperations>;
template <class State>
using OdeintBulirschStoerStepper =
    bno::bulirsch_stoer<State, double, State, double, bno::vector_space_algebra,
                        NanRejectingOperations>;

/// odeint's default_step_adjuster, counting rejected attempts: controlled_runge_kutta calls
/// decrease_step exactly when it rejects one. (The dense-output stepper retries inside do_step,
/// out of the adapter's sight.)
class CountingStepAdjuster : public bno::default_step_adjuster<double, double> {
 public:
  explicit CountingStepAdjuster(std::int64_t* rejected) : rejected_(rejected) {}
  double decrease_step(double dt, double error, int error_order) const {
    ++*rejected_;
    return default_step_adjuster::decrease_step(dt, error, error_order);
  }

 private:
  std::int64_t* rejected_;
};

template <class State>
using OdeintDopri5DenseStepper = bno::dense_output_runge_kutta<bno::controlled_runge_kutta<
    OdeintDopri5Stepper<State>,
    bno::default_error_checker<double, bno::vector_space_algebra, NanRejectingOperations>,
    CountingStepAdjuster>>;

// The controlled steppers, each with its declarations and the order the starting step assumes.
struct OdeintDopri5Method {
  template <class State>
  static auto make(double atol, double rtol) {
    return bno::make_controlled(atol, rtol, OdeintDopri5Stepper<State>());
  }
  static constexpr int kStartOrder = 5;
  static constexpr const Declaration& kDeclaration = kOdeintDopri5Declaration;
  static constexpr const Declaration& kProjectedDeclaration = kOdeintDopri5ProjectedDeclaration;
};
struct OdeintRkf78Method {
  template <class State>
  static auto make(double atol, double rtol) {
    return bno::make_controlled(atol, rtol, OdeintFehlberg78Stepper<State>());
  }
  static constexpr int kStartOrder = 8;
  static constexpr const Declaration& kDeclaration = kOdeintRkf78Declaration;
  static constexpr const Declaration& kProjectedDeclaration = kOdeintRkf78ProjectedDeclaration;
};
struct OdeintBulirschStoerMethod {
  template <class State>
  static auto make(double atol, double rtol) {
    return OdeintBulirschStoerStepper<State>(atol, rtol);  // a_x = a_dxdt = 1, no step limit
  }
  // bulirsch_stoer starts at k_opt = 4: the extrapolated value of order 2 (4 + 1).
  static constexpr int kStartOrder = 10;
  static constexpr const Declaration& kDeclaration = kOdeintBulirschStoerDeclaration;
  static constexpr const Declaration& kProjectedDeclaration =
      kOdeintBulirschStoerProjectedDeclaration;
};

// The typed failures (reference/odeint.cpp). `nonfinite`: f was not finite at `nonfinite_time`
// since the last accepted step.
[[noreturn]] void throw_odeint_no_progress(std::string_view name, double t, double dt,
                                           std::int64_t steps, bool nonfinite,
                                           double nonfinite_time);
[[noreturn]] void throw_odeint_rejections(std::string_view name, double t, double dt,
                                          std::int64_t steps, const char* odeint_message,
                                          bool nonfinite, double nonfinite_time);
[[noreturn]] void throw_odeint_step_limit(std::string_view name, double t, double T,
                                          std::int64_t steps);
[[noreturn]] void throw_odeint_nonfinite_start(std::string_view name, double t);
void check_odeint_options(std::string_view name, const IntegratorOptions& opt,
                          const ReferenceOptions& settings);

/// What the odeint adapters share: the model, the counting system functor, the starting step,
/// the step budget and the typed failures.
template <AmbientOde M>
class OdeintBase {
 public:
  using State = typename M::State;

  OdeintBase(const M& model, std::string_view name, const IntegratorOptions& opt,
             const ReferenceOptions& settings)
      : model_(model), name_(name), tolerances_(opt.tolerances),
        max_steps_(settings.max_steps) {
    check_odeint_options(name, opt, settings);
  }
  // The system functor and the dense stepper's step adjuster hold `this`.
  OdeintBase(const OdeintBase&) = delete;
  OdeintBase& operator=(const OdeintBase&) = delete;

  const Work& work() const { return work_; }

 protected:
  /// odeint's system: dxdt = f(t, x), counted, noting a non-finite value.
  auto system() {
    return [this](const State& x, State& dxdt, double t) {
      model_.rhs(t, x, dxdt);
      ++work_.f_evals;
      if (!dxdt.allFinite()) {
        nonfinite_ = true;
        nonfinite_time_ = t;
      }
    };
  }

  /// Checks the step budget and forgets the previous step's non-finite values.
  void begin_step(double t, double T) {
    if (work_.steps >= max_steps_) throw_odeint_step_limit(name_, t, T, work_.steps);
    nonfinite_ = false;
  }

  /// Hairer, Norsett & Wanner's starting step size (Solving ODEs I, Section II.4) for a method
  /// of order p, in the RMS norm with weights atol + rtol |y0_i|, at most T - t0:
  ///   d0 = |y0|, d1 = |f(t0, y0)|, h0 = 0.01 d0 / d1 (1e-6 if d0 or d1 < 1e-5),
  ///   d2 = |f(t0 + h0, y0 + h0 f0) - f0| / h0,
  ///   h1 = (0.01 / max(d1, d2))^(1/(p+1)) (max(1e-6, 1e-3 h0) if max(d1, d2) <= 1e-15),
  ///   h = min(100 h0, h1).
  /// Weights so small that the norms overflow (atol near the smallest double) leave h not
  /// finite although f is: the rule's own fallback, h = 1e-6, is taken then.
  double starting_step(double t0, const State& y0, double T, int p) {
    const auto sys = system();
    State f0 = y0, y1 = y0, f1 = y0;
    sys(y0, f0, t0);
    if (!f0.allFinite()) throw_odeint_nonfinite_start(name_, t0);
    const auto norm = [&](const State& v) {
      return std::sqrt(
          (v.array() / (tolerances_.atol + tolerances_.rtol * y0.array().abs())).square().mean());
    };
    const double d0 = norm(y0), d1 = norm(f0);
    double h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : 0.01 * d0 / d1;
    h0 = std::min(h0, T - t0);
    y1 = y0 + h0 * f0;
    sys(y1, f1, t0 + h0);
    const double d2 = norm(f1 - f0) / h0;
    const double d = std::max(d1, d2);
    const double h1 = d <= 1e-15 ? std::max(1e-6, 1e-3 * h0) : std::pow(0.01 / d, 1.0 / (p + 1));
    const double h = std::min({100.0 * h0, h1, T - t0});
    return std::isfinite(h) && h > 0.0 ? h : std::min(1e-6, T - t0);
  }

  [[noreturn]] void no_progress(double t, double dt) const {
    throw_odeint_no_progress(name_, t, dt, work_.steps, nonfinite_, nonfinite_time_);
  }
  [[noreturn]] void too_many_rejections(double t, double dt,
                                        const bno::step_adjustment_error& e) const {
    throw_odeint_rejections(name_, t, dt, work_.steps, e.what(), nonfinite_, nonfinite_time_);
  }

  const M& model_;
  std::string_view name_;
  Tolerances tolerances_;
  std::int64_t max_steps_;
  Work work_;
  bool nonfinite_ = false;
  double nonfinite_time_ = 0.0;
};

}  // namespace detail

/// A controlled odeint stepper (Method: detail::OdeintDopri5Method, OdeintRkf78Method,
/// OdeintBulirschStoerMethod): each advance() repeats try_step from (t, y) until one succeeds,
/// with dt shortened to end at T exactly when it would pass T.
template <AmbientOde M, class Method, bool Reproject = false>
class OdeintControlled : public detail::OdeintBase<M> {
  using Base = detail::OdeintBase<M>;

 public:
  using Model = M;
  using State = typename M::State;
  static constexpr const Declaration& declaration =
      Reproject ? Method::kProjectedDeclaration : Method::kDeclaration;

  OdeintControlled(const M& model, const IntegratorOptions& opt,
                   const ReferenceOptions& settings = {})
      : Base(model, declaration.name, opt, settings),
        stepper_(Method::template make<State>(opt.tolerances.atol, opt.tolerances.rtol)) {}

  /// One accepted step from (t, y) towards T (never past it); observe(t, y) at its end.
  template <class Observer>
  void advance(double& t, State& y, double T, Observer&& observe) {
    namespace bno = detail::bno;
    this->begin_step(t, T);
    if (!started_) {
      dt_ = this->starting_step(t, y, T, Method::kStartOrder);
      started_ = true;
    } else if (t != t_ || y != y_) {
      resynchronise();
    }
    bno::failed_step_checker rejections;  // odeint's: at most 500 rejected attempts in a row
    for (;;) {
      const bool last = dt_ >= T - t;
      double dt = last ? T - t : dt_;
      if (t + dt == t) this->no_progress(t, dt);
      double t_new = t;
      const bno::controlled_step_result result = stepper_.try_step(this->system(), y, t_new, dt);
      dt_ = dt;  // the controller's proposal for the next attempt
      if (result == bno::success) {
        t = last ? T : t_new;
        break;
      }
      ++this->work_.rejected;
      try {
        rejections();
      } catch (const bno::step_adjustment_error& e) {
        this->too_many_rejections(t, dt_, e);
      }
    }
    ++this->work_.steps;
    if constexpr (Reproject) this->model_.project(y);
    t_ = t;
    y_ = y;
    observe(t, static_cast<const State&>(y));
  }

 private:
  using Stepper = decltype(Method::template make<State>(0.0, 0.0));

  /// The state changed between steps: only an FSAL stepper remembers anything of the old one.
  void resynchronise() {
    if constexpr (std::is_same_v<typename Stepper::stepper_category,
                                 detail::bno::explicit_controlled_stepper_fsal_tag>)
      stepper_.reset();
  }

  Stepper stepper_;
  bool started_ = false;
  double dt_ = 0.0;
  double t_ = 0.0;
  State y_;
};

/// odeint's dense-output Dormand-Prince: each advance() is one do_step; a step that ends past
/// T returns the continuous extension at T.
template <AmbientOde M, bool Reproject = false>
class OdeintDopri5Dense : public detail::OdeintBase<M> {
  using Base = detail::OdeintBase<M>;

 public:
  using Model = M;
  using State = typename M::State;
  static constexpr const Declaration& declaration =
      Reproject ? kOdeintDopri5DenseProjectedDeclaration : kOdeintDopri5DenseDeclaration;

  OdeintDopri5Dense(const M& model, const IntegratorOptions& opt,
                    const ReferenceOptions& settings = {})
      : Base(model, declaration.name, opt, settings),
        stepper_(typename Stepper::controlled_stepper_type(
            ErrorChecker(opt.tolerances.atol, opt.tolerances.rtol), detail::CountingStepAdjuster(&this->work_.rejected),
            detail::OdeintDopri5Stepper<State>())) {}

  /// One accepted step from (t, y); observe(t, y) at its end, or at T if it ended past T.
  template <class Observer>
  void advance(double& t, State& y, double T, Observer&& observe) {
    namespace bno = detail::bno;
    this->begin_step(t, T);
    if (!started_) {
      stepper_.initialize(
          y, t, this->starting_step(t, y, T, detail::OdeintDopri5Method::kStartOrder));
      started_ = true;
    } else if (t != stepper_.current_time() || y != stepper_.current_state()) {
      stepper_.initialize(y, t, stepper_.current_time_step());
    }
    std::pair<double, double> span;
    try {
      span = stepper_.do_step(this->system());  // its own failed_step_checker (500)
    } catch (const bno::step_adjustment_error& e) {
      this->too_many_rejections(t, stepper_.current_time_step(), e);
    }
    // odeint does not report the size of the step it accepted; its next proposal stands in.
    if (!(span.second > span.first)) this->no_progress(t, stepper_.current_time_step());
    ++this->work_.steps;
    if (span.second > T) {
      t = T;
      stepper_.calc_state(T, y);
    } else {
      t = span.second;
      y = stepper_.current_state();
    }
    if constexpr (Reproject) this->model_.project(y);
    observe(t, static_cast<const State&>(y));
  }

 private:
  using Stepper = detail::OdeintDopri5DenseStepper<State>;
  using ErrorChecker = typename Stepper::controlled_stepper_type::error_checker_type;

  Stepper stepper_;
  bool started_ = false;
};

template <AmbientOde M>
using OdeintDopri5 = OdeintControlled<M, detail::OdeintDopri5Method, false>;
template <AmbientOde M>
using OdeintDopri5Projected = OdeintControlled<M, detail::OdeintDopri5Method, true>;
template <AmbientOde M>
using OdeintRkf78 = OdeintControlled<M, detail::OdeintRkf78Method, false>;
template <AmbientOde M>
using OdeintRkf78Projected = OdeintControlled<M, detail::OdeintRkf78Method, true>;
template <AmbientOde M>
using OdeintBulirschStoer = OdeintControlled<M, detail::OdeintBulirschStoerMethod, false>;
template <AmbientOde M>
using OdeintBulirschStoerProjected = OdeintControlled<M, detail::OdeintBulirschStoerMethod, true>;
template <AmbientOde M>
using OdeintDopri5DenseProjected = OdeintDopri5Dense<M, true>;

}  // namespace geomint
