#pragma once
// SUNDIALS CVODE as a reference solver, with the interface of an adaptive integrator
// (integrators/dormand_prince.hpp), in three methods (Hindmarsh et al., "SUNDIALS: Suite of
// nonlinear and differential/algebraic equation solvers", ACM TOMS 31 (2005) 363-396, Section
// 3.1; the CVODE 6.4 user guide):
//   - BDF of orders 1-5 in fixed-leading-coefficient form, Newton iteration on the corrector
//     with a dense direct linear solver and CVODE's own difference-quotient Jacobian;
//   - the same BDF with Newton-Krylov iteration: each Newton system is solved by GMRES
//     (SUNLinSol_SPGMR, CVODE's default Krylov dimension 5, no preconditioner), matrix-free,
//     with CVODE's difference-quotient Jacobian-vector products J v ~ (f(y + s v) - f(y)) / s
//     (Brown & Hindmarsh, "Reduced storage matrix methods in stiff ODE systems", Appl. Math.
//     Comput. 31 (1989) 40-91): O(n) memory and one f per Krylov iteration, where the dense
//     solver needs n evaluations and an n x n factorisation per Jacobian;
//   - Adams-Moulton of orders 1-12 with fixed-point (functional) iteration on the corrector,
//     no Anderson acceleration: the choice the CVODE guide makes for nonstiff problems, which
//     ours are; it needs no Jacobian.
// All three control the local error with scalar rtol and atol in CVODE's weighted RMS norm.
//
// The reprojection variants put the state back on the model's manifold (model.project: unit
// q_i, w_i tangent) after every step, in the way each method allows:
//   - BDF: CVODE's own projection (CVodeSetProjFn, after CPODES): the corrected solution of
//     every step attempt is projected before the error test, and the projection's correction
//     enters the Nordsieck history, so the multistep method keeps its order. The error
//     estimate is not projected (CVodeSetProjErrEst off): the models offer the projection, not
//     its linearisation.
//   - Adams: CVODE refuses to project Adams methods ("Projection is only supported with BDF
//     methods"), so the adapter projects each accepted step's result and restarts CVODE there
//     (CVodeReInit), which discards the history: every step is then a first-order step, tried
//     at the size CVODE proposed after the previous one. The variant is first order, and
//     declared so.
//
// advance() takes one internal step (CV_ONE_STEP) and never passes T (CVodeSetStopTime), so
// integrate() observes CVODE at its own step ends and at exactly T.
//
// The SUNDIALS objects live in the non-template CvodeCore (reference/cvode.cpp); this header
// includes no SUNDIALS header. Cvode<M, ...> only adapts the model to the core's callbacks.

#include <Eigen/Core>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"
#include "reference/model_callbacks.hpp"
#include "reference/options.hpp"

namespace geomint {

enum class CvodeMethod { Bdf, BdfGmres, Adams };

namespace detail {

/// Owns a CVODE solver (SUNContext, serial N_Vector, and for BDF a dense SUNMatrix and
/// SUNLinearSolver, for BDF with GMRES an SPGMR SUNLinearSolver, for Adams a fixed-point
/// SUNNonlinearSolver; cvode_mem) for y' = f(t, y) in
/// R^n. Turns every negative SUNDIALS return flag into a typed IntegrationFailure (see step()).
class CvodeCore {
 public:
  /// `project` null: no reprojection. Throws InputError unless rtol > 0, atol > 0, T > t0 and
  /// max_steps > 0.
  CvodeCore(std::string_view name, CvodeMethod method, Eigen::Index n, RhsCallback rhs,
            ProjectCallback project, void* user_data, const IntegratorOptions& opt,
            const ReferenceOptions& settings);
  ~CvodeCore();
  CvodeCore(const CvodeCore&) = delete;
  CvodeCore& operator=(const CvodeCore&) = delete;

  /// One internal step from (t, y) towards T, ending at T at the latest. The first call
  /// initialises CVODE at (t, y); a later (t, y) other than what the previous step returned
  /// restarts it there (CVodeReInit: order 1, CVODE's initial-step estimate), so a caller may
  /// modify the state between steps. Afterwards time() and state() hold the step's end
  /// (projected, with a projection; Adams then restarts at its proposed step size).
  ///
  /// Throws TooMuchWork once max_steps steps have been taken; StepSizeUnderflow for a step
  /// that does not advance t (CVODE only warns that t + h == t, and steps on); rethrows what
  /// f or the projection threw; and for a negative CVODE flag:
  ///   any flag, if f returned a NaN or infinity       -> NonFinite (CVODE stops at once, with
  ///                                                      CV_RHSFUNC_FAIL, or CV_LSETUP_FAIL
  ///                                                      from the difference-quotient Jacobian)
  ///   CV_TOO_MUCH_WORK                                -> TooMuchWork
  ///   CV_TOO_MUCH_ACC, CV_ERR_FAILURE                 -> StepSizeUnderflow
  ///   anything else (CV_CONV_FAILURE, CV_LSETUP_FAIL,
  ///   CV_LSOLVE_FAIL, CV_NLS_*, CV_*RHSFUNC_*,
  ///   CV_*PROJFUNC_*, ...)                            -> NonConvergence
  /// each at CVODE's current time (NonFinite: the time f was evaluated at), with the flag's
  /// name, the number of steps taken and CVODE's own message.
  void step(double t, const double* y, double T);

  double time() const { return t_; }
  const double* state() const;
  /// Counters summed over every (re)initialisation, updated after every step().
  const Work& work() const { return work_; }

  struct Impl;  // the SUNDIALS handles and what the C callbacks record (cvode.cpp)

 private:
  /// CVodeInit at (t, y) with the tolerances, the method's solvers and the projection.
  void initialise(double t);
  /// Refreshes work_ from CVODE's counters.
  void update_work();
  /// Throws the typed failure for a negative flag returned by `function`.
  [[noreturn]] void fail(int flag, std::string_view function) const;
  /// fail() unless flag >= 0.
  void check(int flag, std::string_view function) const;

  std::unique_ptr<Impl> impl_;
  std::string name_;
  CvodeMethod method_;
  Eigen::Index n_;
  double rtol_, atol_;
  std::int64_t max_steps_;
  bool initialised_ = false;
  bool restart_ = false;  // Adams with projection: the last step's result was projected
  double t_;
  Work base_;  // counters of the runs before the last restart
  Work work_;
};

}  // namespace detail

// Nominal orders: the highest order each method uses (BDF 5, Adams 12); the restarted Adams
// variant takes every step at order 1.
inline constexpr Declaration kCvodeBdfDeclaration{
    "cvode_bdf", "SUNDIALS CVODE, BDF (orders 1-5) with Newton and a dense direct linear solver",
    Family::Reference, 5, /*adaptive*/ true, false, false, false};
inline constexpr Declaration kCvodeBdfGmresDeclaration{
    "cvode_bdf_gmres",
    "SUNDIALS CVODE, BDF (orders 1-5) with Newton and matrix-free GMRES (SPGMR, no "
    "preconditioner, difference-quotient J v)",
    Family::Reference, 5, /*adaptive*/ true, false, false, false};
inline constexpr Declaration kCvodeBdfProjectedDeclaration{
    "cvode_bdf_proj",
    "SUNDIALS CVODE, BDF as cvode_bdf, with CVODE's projection onto the manifold in every step "
    "(CVodeSetProjFn)",
    Family::Reference, 5, /*adaptive*/ true, false, false, /*stays_on_manifold*/ true};
inline constexpr Declaration kCvodeAdamsDeclaration{
    "cvode_adams",
    "SUNDIALS CVODE, Adams-Moulton (orders 1-12) with fixed-point corrector iteration",
    Family::Reference, 12, /*adaptive*/ true, false, false, false};
inline constexpr Declaration kCvodeAdamsProjectedDeclaration{
    "cvode_adams_proj",
    "SUNDIALS CVODE, Adams as cvode_adams, projected and restarted after every step, hence "
    "order 1 (CVODE projects only BDF)",
    Family::Reference, 1, /*adaptive*/ true, false, false, /*stays_on_manifold*/ true};

template <AmbientOde M, CvodeMethod Method = CvodeMethod::Bdf, bool Reproject = false>
class Cvode {
  // A projected GMRES variant would run (CVODE projects any BDF), but has no declaration.
  static_assert(Method != CvodeMethod::BdfGmres || !Reproject,
                "cvode_bdf_gmres has no reprojection variant");

 public:
  using Model = M;
  using State = typename M::State;
  static constexpr const Declaration& declaration =
      Method == CvodeMethod::Bdf
          ? (Reproject ? kCvodeBdfProjectedDeclaration : kCvodeBdfDeclaration)
      : Method == CvodeMethod::BdfGmres
          ? kCvodeBdfGmresDeclaration
          : (Reproject ? kCvodeAdamsProjectedDeclaration : kCvodeAdamsDeclaration);

  Cvode(const M& model, const IntegratorOptions& opt, const ReferenceOptions& settings = {})
      : callbacks_(model),
        core_(declaration.name, Method, model.dimension(), &Callbacks::rhs,
              Reproject ? &Callbacks::project : nullptr, &callbacks_, opt, settings) {}
  // The core holds the address of callbacks_.
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
  using Callbacks = detail::ModelCallbacks<M>;
  Callbacks callbacks_;
  detail::CvodeCore core_;
};

template <AmbientOde M>
using CvodeBdfProjected = Cvode<M, CvodeMethod::Bdf, true>;
template <AmbientOde M>
using CvodeBdfGmres = Cvode<M, CvodeMethod::BdfGmres, false>;
template <AmbientOde M>
using CvodeAdams = Cvode<M, CvodeMethod::Adams, false>;
template <AmbientOde M>
using CvodeAdamsProjected = Cvode<M, CvodeMethod::Adams, true>;

}  // namespace geomint
