#pragma once
// SUNDIALS CVODE as a reference solver, with the interface of an adaptive integrator
// (integrators/dormand_prince.hpp): BDF of orders 1-5 in fixed-leading-coefficient form,
// Newton iteration on the corrector with a dense direct linear solver and CVODE's own
// difference-quotient Jacobian, error control with scalar rtol and atol
// (Hindmarsh et al., "SUNDIALS: Suite of nonlinear and differential/algebraic equation
// solvers", ACM TOMS 31 (2005) 363-396, Section 3.1; the CVODE 6.4 user guide).
//
// advance() takes one internal step (CV_ONE_STEP) and never passes T (CVodeSetStopTime), so
// integrate() observes CVODE at its own step ends and at exactly T.
//
// The SUNDIALS objects live in the non-template CvodeCore (reference/cvode.cpp); this header
// includes no SUNDIALS header. Cvode<M> only adapts the model's rhs to the core's callback.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

/// Settings of the CVODE adapter beyond IntegratorOptions.
struct CvodeOptions {
  /// Accepted steps allowed over the whole run (all advance() calls); one more is TooMuchWork.
  std::int64_t max_steps = 10'000'000;
};

namespace detail {

/// Owns a CVODE solver (SUNContext, serial N_Vector, dense SUNMatrix and SUNLinearSolver,
/// cvode_mem) for y' = f(t, y) in R^n, f given as a plain callback. Turns every negative
/// SUNDIALS return flag into a typed IntegrationFailure (see step()).
class CvodeCore {
 public:
  /// dy = f(t, y) for arrays of length n. It may throw: the exception is carried across
  /// CVODE's C frames and rethrown from step().
  using Rhs = void (*)(double t, const double* y, double* dy, void* user_data);

  /// Throws InputError unless rtol > 0, atol > 0 and T > t0.
  CvodeCore(std::string_view name, Eigen::Index n, Rhs rhs, void* user_data,
            const IntegratorOptions& opt, const CvodeOptions& settings);
  ~CvodeCore();
  CvodeCore(const CvodeCore&) = delete;
  CvodeCore& operator=(const CvodeCore&) = delete;

  /// One internal step from (t, y) towards T, ending at T at the latest. The first call
  /// initialises CVODE at (t, y); a later (t, y) other than what the previous step returned
  /// restarts it there (CVodeReInit: order 1, new initial step), so a caller may modify the
  /// state between steps. Afterwards time() and state() hold the step's end.
  ///
  /// Throws TooMuchWork once max_steps steps have been taken; StepSizeUnderflow for a step
  /// that does not advance t (CVODE only warns that t + h == t, and steps on); rethrows what
  /// f threw; and for a negative CVODE flag:
  ///   any flag, if f returned a NaN or infinity       -> NonFinite (CVODE stops at once, with
  ///                                                      CV_RHSFUNC_FAIL, or CV_LSETUP_FAIL
  ///                                                      from the difference-quotient Jacobian)
  ///   CV_TOO_MUCH_WORK                                -> TooMuchWork
  ///   CV_TOO_MUCH_ACC, CV_ERR_FAILURE                 -> StepSizeUnderflow
  ///   anything else (CV_CONV_FAILURE, CV_LSETUP_FAIL,
  ///   CV_LSOLVE_FAIL, CV_NLS_*, CV_*RHSFUNC_*, ...)   -> NonConvergence
  /// each at CVODE's current time (NonFinite: the time f was evaluated at), with the flag's
  /// name and CVODE's own message.
  void step(double t, const double* y, double T);

  double time() const { return t_; }
  const double* state() const;
  /// Counters summed over every (re)initialisation, updated after every step().
  const Work& work() const { return work_; }

  /// The library's version string, as SUNDIALSGetVersion reports it.

  struct Impl;  // the SUNDIALS handles and what the C callbacks record (cvode.cpp)

 private:
  /// Refreshes work_ from CVODE's counters.
  void update_work();
  /// Throws the typed failure for a negative flag returned by `function`.
  [[noreturn]] void fail(int flag, std::string_view function) const;
  /// fail() unless flag >= 0.
  void check(int flag, std::string_view function) const;

  std::unique_ptr<Impl> impl_;
  std::string name_;
  Eigen::Index n_;
  double rtol_, atol_;
  std::int64_t max_steps_;
  bool initialised_ = false;
  double t_;
  Work base_;  // counters of the runs before the last restart
  Work work_;
};

}  // namespace detail

// Nominal order 5: the highest BDF order CVODE uses.
inline constexpr Declaration kCvodeBdfDeclaration{
    "cvode_bdf", "SUNDIALS CVODE, BDF (orders 1-5) with Newton and a dense direct linear solver",
    Family::Reference, 5, /*adaptive*/ true, false, false, false};

template <AmbientOde M>
class Cvode {
 public:
  using Model = M;
  using State = typename M::State;
  static constexpr Declaration declaration = kCvodeBdfDeclaration;

  Cvode(const M& model, const IntegratorOptions& opt, const CvodeOptions& settings = {})
      : model_(model),
        core_(declaration.name, model.dimension(), &Cvode::rhs, this, opt, settings) {
    y_.resize(model.dimension());
    dy_.resize(model.dimension());
  }
  // The core holds `this` as the callback's user data.
  Cvode(const Cvode&) = delete;
  Cvode& operator=(const Cvode&) = delete;

  const Work& work() const { return core_.work(); }

  /// One internal CVODE step from (t, y) towards T (never past it); observe(t, y) at its end.
  template <class Observer>
  void advance(double& t, State& y, double T, Observer&& observe) {
    core_.step(t, y.data(), T);
    t = core_.time();
    y = Eigen::Map<const State>(core_.state(), y.size());
    observe(t, static_cast<const State&>(y));
  }

 private:
  /// The model's rhs on CVODE's arrays, through the preallocated State buffers y_, dy_ (the
  /// model takes its own State type, which may be fixed-size).
  static void rhs(double t, const double* y, double* dy, void* self) {
    auto& me = *static_cast<Cvode*>(self);
    const Eigen::Index n = me.y_.size();
    me.y_ = Eigen::Map<const State>(y, n);
    me.model_.rhs(t, me.y_, me.dy_);
    Eigen::Map<State>(dy, n) = me.dy_;
  }

  const M& model_;
  State y_, dy_;
  detail::CvodeCore core_;
};

}  // namespace geomint
