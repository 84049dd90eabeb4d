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
// integrate() observes CVODE at its own step ends and at exactly T. A restart (after the
// caller modified the state, or after the Adams variant's projection) is CVodeReInit: order 1,
// at CVODE's initial-step estimate (after the projection: at the step size it proposed), and
// its counters from zero, summed over the restarts.
//
// What CVODE shares with ARKODE (the N_Vector and context, the option checks, advance(), the
// typed failures) is SundialsCore (reference/sundials_core.hpp); what is CVODE's (its solvers,
// method settings, projection and restarts) is its module in reference/cvode.cpp. This header
// includes no SUNDIALS header.

#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "models/views.hpp"
#include "reference/options.hpp"
#include "reference/sundials_core.hpp"
#include "reference/sundials_integrator.hpp"

namespace geomint {

enum class CvodeMethod { Bdf, BdfGmres, Adams };

namespace detail {

/// A core running CVODE with `method` (for BDF a dense SUNMatrix and SUNLinearSolver, for BDF
/// with GMRES an SPGMR SUNLinearSolver, for Adams a fixed-point SUNNonlinearSolver).
SundialsCore cvode_core(CvodeMethod method, const SundialsProblem& problem);

}  // namespace detail

// Nominal orders: the highest order each method uses (BDF 5, Adams 12); the restarted Adams
// variant takes every step at order 1.
inline constexpr Declaration kCvodeBdfDeclaration{
    .name = "cvode_bdf",
    .description = "SUNDIALS CVODE, BDF (orders 1-5) with Newton and a dense direct linear solver",
    .family = Family::Reference, .order = 5, .adaptive = true};
inline constexpr Declaration kCvodeBdfGmresDeclaration{
    .name = "cvode_bdf_gmres",
    .description =
        "SUNDIALS CVODE, BDF (orders 1-5) with Newton and matrix-free GMRES (SPGMR, no "
        "preconditioner, difference-quotient J v)",
    .family = Family::Reference, .order = 5, .adaptive = true};
inline constexpr Declaration kCvodeBdfProjectedDeclaration = reprojected(
    kCvodeBdfDeclaration, "cvode_bdf_proj",
    "SUNDIALS CVODE, BDF as cvode_bdf, with CVODE's projection onto the manifold in every step "
    "(CVodeSetProjFn)");
inline constexpr Declaration kCvodeAdamsDeclaration{
    .name = "cvode_adams",
    .description =
        "SUNDIALS CVODE, Adams-Moulton (orders 1-12) with fixed-point corrector iteration",
    .family = Family::Reference, .order = 12, .adaptive = true};
inline constexpr Declaration kCvodeAdamsProjectedDeclaration{
    .name = "cvode_adams_proj",
    .description =
        "SUNDIALS CVODE, Adams as cvode_adams, projected and restarted after every step, hence "
        "order 1 (CVODE projects only BDF)",
    .family = Family::Reference, .order = 1, .adaptive = true, .stays_on_manifold = true};

template <AmbientOde M, CvodeMethod Method = CvodeMethod::Bdf, bool Reproject = false>
class Cvode : public detail::SundialsIntegrator<M> {
  // A projected GMRES variant would run (CVODE projects any BDF), but has no declaration.
  static_assert(Method != CvodeMethod::BdfGmres || !Reproject,
                "cvode_bdf_gmres has no reprojection variant");

 public:
  static constexpr const Declaration& declaration =
      Method == CvodeMethod::Bdf
          ? (Reproject ? kCvodeBdfProjectedDeclaration : kCvodeBdfDeclaration)
      : Method == CvodeMethod::BdfGmres
          ? kCvodeBdfGmresDeclaration
          : (Reproject ? kCvodeAdamsProjectedDeclaration : kCvodeAdamsDeclaration);

  Cvode(const M& model, const IntegratorOptions& opt, const ReferenceOptions& settings = {})
      : detail::SundialsIntegrator<M>(
            model, declaration.name, Reproject,
            [](const detail::SundialsProblem& problem) {
              return detail::cvode_core(Method, problem);
            },
            opt, settings) {}
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
