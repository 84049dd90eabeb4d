#pragma once
// The Lie group methods: coefficients + declaration + which integrator runs them.
//
// Every method struct provides `declaration` and `Integrator<M>`, the integrator on a model M;
// an RKMK method adds `tableau` (integrators/butcher_tableau.hpp) and `kDexpinvPower`, a
// commutator-free one its `scheme` (below), an embedded pair `kEstimatorOrder` and, for RKMK,
// `error_weights`. The methods are those of Celledoni Sections 2.2 and 4.

#include "integrators/butcher_tableau.hpp"
#include "integrators/casas_owren.hpp"
#include "integrators/commutator_free.hpp"
#include "integrators/declaration.hpp"
#include "integrators/embedded_pair.hpp"
#include "integrators/rkmk.hpp"

namespace geomint {

// ---- Commutator-free schemes (integrators/commutator_free.hpp), f_k = f(Y_{n,k}) ------------

/// CF(3,2) with the second stage's exponential reused (Celledoni Section 4.2.1, first pair,
/// from Curry & Owren 2019); its propagating method is CF3 of Celledoni, Marthinsen & Owren
/// 2003 (the CF form of Heun's third-order method, c = 0, 1/3, 2/3, b = 1/4, 0, 3/4):
///   Y_{n,1} = y_n
///   Y_{n,2} = exp(1/3 h f_1) . y_n
///   Y_{n,3} = exp(2/3 h f_2) . y_n
///   y_{n+1} = exp(h (-1/12 f_1 + 3/4 f_3)) . Y_{n,2}
///   y~_{n+1} = exp(1/2 h (f_2 + f_3)) . y_n                       (order 2)
inline constexpr CommutatorFreeScheme<3> kCf32aScheme{
    .stages = {{{},
                {.exponentials = 1, .alpha = {{{1.0 / 3, 0, 0}}}},
                {.exponentials = 1, .alpha = {{{0, 2.0 / 3, 0}}}}}},
    .update = {.base = 1, .exponentials = 1, .alpha = {{{-1.0 / 12, 0, 3.0 / 4}}}},
    .embedded = {.exponentials = 1, .alpha = {{{0, 0.5, 0.5}}}}};

/// CF(3,2) with the third stage's exponential reused (Celledoni Section 4.2.1, second pair):
///   Y_{n,1} = y_n
///   Y_{n,2} = exp(2/3 h f_1) . y_n
///   Y_{n,3} = exp(h (5/12 f_1 + 1/4 f_2)) . y_n
///   y_{n+1} = exp(h (-1/6 f_1 - 1/2 f_2 + f_3)) . Y_{n,3}
///   y~_{n+1} = exp(1/4 h (f_1 + 3 f_3)) . y_n                     (order 2)
inline constexpr CommutatorFreeScheme<3> kCf32bScheme{
    .stages = {{{},
                {.exponentials = 1, .alpha = {{{2.0 / 3, 0, 0}}}},
                {.exponentials = 1, .alpha = {{{5.0 / 12, 1.0 / 4, 0}}}}}},
    .update = {.base = 2, .exponentials = 1, .alpha = {{{-1.0 / 6, -1.0 / 2, 1.0}}}},
    .embedded = {.exponentials = 1, .alpha = {{{1.0 / 4, 0, 3.0 / 4}}}}};

/// CF(4,3) (Celledoni Section 4.2.2): CF4, Celledoni (9), whose Y_{n,4} reuses Y_{n,2}'s
/// exponential, furnished with a third-order method (the CF form of Ralston's RK3, c = 0, 1/2,
/// 3/4, b = 2/9, 1/3, 4/9) by one more stage, Celledoni (34):
///   Y_{n,1} = y_n
///   Y_{n,2} = exp(1/2 h f_1) . y_n
///   Y_{n,3} = exp(1/2 h f_2) . y_n
///   Y_{n,4} = exp(h f_3 - 1/2 h f_1) . Y_{n,2}
///   Y_{n,5} = exp(3/4 h f_2) . y_n                                (Y-bar_{n,3} of (34))
///   y_{n+1} = exp(1/12 h (-f_1 + 2 f_2 + 2 f_3 + 3 f_4)) . exp(1/12 h (3 f_1 + 2 f_2 + 2 f_3 - f_4)) . y_n
///   y~_{n+1} = exp(1/9 h (-f_1 + 3 f_2 + 4 f_5)) . exp(1/3 h f_1) . y_n      (order 3)
/// CF4 alone is its first four stages and y_{n+1}.
inline constexpr CommutatorFreeScheme<5> kCf43Scheme{
    .stages = {{{},
                {.exponentials = 1, .alpha = {{{0.5, 0, 0, 0, 0}}}},
                {.exponentials = 1, .alpha = {{{0, 0.5, 0, 0, 0}}}},
                {.base = 1, .exponentials = 1, .alpha = {{{-0.5, 0, 1.0, 0, 0}}}},
                {.exponentials = 1, .alpha = {{{0, 0.75, 0, 0, 0}}}}}},
    .update = {.exponentials = 2,
               .alpha = {{{3.0 / 12, 2.0 / 12, 2.0 / 12, -1.0 / 12, 0},
                          {-1.0 / 12, 2.0 / 12, 2.0 / 12, 3.0 / 12, 0}}}},
    .embedded = {.exponentials = 2,
                 .alpha = {{{1.0 / 3, 0, 0, 0, 0}, {-1.0 / 9, 3.0 / 9, 0, 0, 4.0 / 9}}}}};

/// Crouch & Grossman's third-order method (Crouch & Grossman 1993; the coefficients as in
/// Hairer, Lubich & Wanner, Geometric Numerical Integration, Section IV.8.1), one exponential per
/// frozen field:
///   0     |
///   3/4   | 3/4
///   17/24 | 119/216  17/108
///   ------+-----------------------
///         | 13/51    -2/3    24/17
///   Y_{n,2} = exp(3/4 h f_1) . y_n
///   Y_{n,3} = exp(17/108 h f_2) . exp(119/216 h f_1) . y_n
///   y_{n+1} = exp(24/17 h f_3) . exp(-2/3 h f_2) . exp(13/51 h f_1) . y_n
inline constexpr CommutatorFreeScheme<3> kCrouchGrossman3Scheme{
    .stages = {{{},
                {.exponentials = 1, .alpha = {{{3.0 / 4, 0, 0}}}},
                {.exponentials = 2, .alpha = {{{119.0 / 216, 0, 0}, {0, 17.0 / 108, 0}}}}}},
    .update = {.exponentials = 3,
               .alpha = {{{13.0 / 51, 0, 0}, {0, -2.0 / 3, 0}, {0, 0, 24.0 / 17}}}},
    .embedded = {}};

// ---- Fixed-step methods ------------------------------------------------------------------

/// Lie-Euler (Celledoni Section 2.2): y_{n+1} = exp(h f(y_n)) . y_n; RKMK with explicit Euler.
struct LieEulerMethod {
  static constexpr auto& tableau = kEulerTableau;
  static constexpr int kDexpinvPower = kGroupDexpinv;  // never evaluated: one stage at sigma = 0
  static constexpr Declaration declaration{
      .name = "lie_euler",
      .description = "Lie-Euler: y_{n+1} = exp(h f(y_n)) . y_n (Celledoni 2.2)",
      .family = Family::LieGroup, .order = 1, .stays_on_manifold = true};
  template <class M>
  using Integrator = Rkmk<LieEulerMethod, M>;
};

/// Lie-Euler-Heun: RKMK with Heun's tableau and dexpinv = identity, which order 2 allows
/// (Celledoni, Marthinsen & Owren 2014):
///   y_{n+1} = exp(h/2 (f(y_n) + f(exp(h f(y_n)) . y_n))) . y_n.
struct LieEulerHeunMethod {
  static constexpr auto& tableau = kHeunTableau;
  static constexpr int kDexpinvPower = 0;
  static constexpr Declaration declaration{
      .name = "lie_euler_heun",
      .description = "Lie-Euler-Heun: RKMK with Heun's tableau, no commutator (Celledoni 2.2)",
      .family = Family::LieGroup, .order = 2, .stays_on_manifold = true};
  template <class M>
  using Integrator = Rkmk<LieEulerHeunMethod, M>;
};

/// RKMK with the explicit midpoint tableau and the group's (exact) dexpinv.
struct Rkmk2Method {
  static constexpr auto& tableau = kMidpointTableau;
  static constexpr int kDexpinvPower = kGroupDexpinv;
  static constexpr Declaration declaration{
      .name = "rkmk2",
      .description =
          "RKMK with the explicit midpoint tableau and the exact dexpinv (Celledoni 2.2-2.3)",
      .family = Family::LieGroup, .order = 2, .stays_on_manifold = true};
  template <class M>
  using Integrator = Rkmk<Rkmk2Method, M>;
};

/// RKMK with Kutta's third-order tableau and the group's (exact) dexpinv.
struct Rkmk3Method {
  static constexpr auto& tableau = kKutta3Tableau;
  static constexpr int kDexpinvPower = kGroupDexpinv;
  static constexpr Declaration declaration{
      .name = "rkmk3",
      .description =
          "RKMK with Kutta's third-order tableau and the exact dexpinv (Celledoni 2.2-2.3)",
      .family = Family::LieGroup, .order = 3, .stays_on_manifold = true};
  template <class M>
  using Integrator = Rkmk<Rkmk3Method, M>;
};

/// RKMK with the classical RK4 tableau and the group's (exact) dexpinv.
struct Rkmk4Method {
  static constexpr auto& tableau = kRk4Tableau;
  static constexpr int kDexpinvPower = kGroupDexpinv;
  static constexpr Declaration declaration{
      .name = "rkmk4",
      .description =
          "RKMK with the classical RK4 tableau and the exact dexpinv (Celledoni 2.2-2.3)",
      .family = Family::LieGroup, .order = 4, .stays_on_manifold = true};
  template <class M>
  using Integrator = Rkmk<Rkmk4Method, M>;
};

/// RKMK4 with the dexpinv series (8) truncated after ad^2 = p - 2, enough for order 4.
struct Rkmk4SeriesMethod {
  static constexpr auto& tableau = kRk4Tableau;
  static constexpr int kDexpinvPower = 2;
  static constexpr Declaration declaration{
      .name = "rkmk4_series",
      .description =
          "RKMK with the RK4 tableau, dexpinv series (8) truncated after ad^2 (Celledoni 2.2)",
      .family = Family::LieGroup, .order = 4, .stays_on_manifold = true};
  template <class M>
  using Integrator = Rkmk<Rkmk4SeriesMethod, M>;
};

/// Casas & Owren's RKMK4 with two commutators (integrators/casas_owren.hpp).
struct Rkmk4TwoCommutatorsMethod {
  static constexpr Declaration declaration{
      .name = "rkmk4_2c",
      .description = "Casas-Owren RKMK4 with two commutators (Celledoni 2.2)",
      .family = Family::LieGroup, .order = 4, .stays_on_manifold = true};
  template <class M>
  using Integrator = CasasOwrenRkmk4<Rkmk4TwoCommutatorsMethod, M>;
};

/// RKMK with the fifth-order Dormand-Prince weights and the group's (exact) dexpinv: the
/// propagating method of RKMK(5,4) at a fixed step (six stages; the seventh only serves the
/// error estimate).
struct Rkmk5Method {
  static constexpr auto& tableau = kDormandPrinceTableau;
  static constexpr int kDexpinvPower = kGroupDexpinv;
  static constexpr Declaration declaration{
      .name = "rkmk5",
      .description =
          "RKMK with the Dormand-Prince fifth-order tableau and the exact dexpinv "
          "(Celledoni 2.2, 4.1)",
      .family = Family::LieGroup, .order = 5, .stays_on_manifold = true};
  template <class M>
  using Integrator = Rkmk<Rkmk5Method, M>;
};

/// CF3: the propagating method of kCf32aScheme (Celledoni, Marthinsen & Owren 2003).
struct Cf3Method {
  static constexpr auto& scheme = kCf32aScheme;
  static constexpr Declaration declaration{
      .name = "cf3",
      .description = "commutator-free CF3, second stage's exponential reused (Celledoni 4.2.1)",
      .family = Family::LieGroup, .order = 3, .stays_on_manifold = true};
  template <class M>
  using Integrator = CommutatorFree<Cf3Method, M>;
};

/// CF4 of Celledoni (9): the propagating method of kCf43Scheme.
struct Cf4Method {
  static constexpr auto& scheme = kCf43Scheme;
  static constexpr Declaration declaration{
      .name = "cf4",
      .description = "commutator-free CF4 with the reused exponential (Celledoni (9))",
      .family = Family::LieGroup, .order = 4, .stays_on_manifold = true};
  template <class M>
  using Integrator = CommutatorFree<Cf4Method, M>;
};

/// Crouch-Grossman of order 3 (kCrouchGrossman3Scheme).
struct CrouchGrossman3Method {
  static constexpr auto& scheme = kCrouchGrossman3Scheme;
  static constexpr Declaration declaration{
      .name = "cg3",
      .description = "Crouch-Grossman order 3 (Crouch & Grossman 1993; Hairer-Lubich-Wanner IV.8)",
      .family = Family::LieGroup, .order = 3, .stays_on_manifold = true};
  template <class M>
  using Integrator = CommutatorFree<CrouchGrossman3Method, M>;
};

// ---- Embedded pairs with step-size control (integrators/embedded_pair.hpp) ---------------

/// RKMK(5,4): Dormand-Prince 5(4) in the RKMK format (Celledoni Section 4.1), the error
/// estimated in the algebra; first same as last, so six f evaluations per accepted step.
struct Rkmk54Method {
  static constexpr auto& tableau = kDormandPrinceTableau;
  static constexpr auto& error_weights = kDormandPrinceErrorWeights;
  static constexpr int kDexpinvPower = kGroupDexpinv;
  static constexpr int kEstimatorOrder = 4;
  static constexpr Declaration declaration{
      .name = "rkmk54",
      .description =
          "RKMK(5,4) from Dormand-Prince, error in the Lie algebra, step control (33) "
          "(Celledoni 4.1)",
      .family = Family::LieGroup, .order = 5, .adaptive = true, .stays_on_manifold = true};
  template <class M>
  using Integrator = EmbeddedPairIntegrator<RkmkPairStepper<Rkmk54Method, M>>;
};

/// CF(3,2) reusing the second stage (kCf32aScheme).
struct Cf32aMethod {
  static constexpr auto& scheme = kCf32aScheme;
  static constexpr int kEstimatorOrder = 2;
  static constexpr Declaration declaration{
      .name = "cf32a",
      .description =
          "commutator-free CF(3,2), Y_2 reused, error as a distance on the manifold "
          "(Celledoni 4.2.1)",
      .family = Family::LieGroup, .order = 3, .adaptive = true, .stays_on_manifold = true};
  template <class M>
  using Integrator = EmbeddedPairIntegrator<CommutatorFreePairStepper<Cf32aMethod, M>>;
};

/// CF(3,2) reusing the third stage (kCf32bScheme).
struct Cf32bMethod {
  static constexpr auto& scheme = kCf32bScheme;
  static constexpr int kEstimatorOrder = 2;
  static constexpr Declaration declaration{
      .name = "cf32b",
      .description =
          "commutator-free CF(3,2), Y_3 reused, error as a distance on the manifold "
          "(Celledoni 4.2.1)",
      .family = Family::LieGroup, .order = 3, .adaptive = true, .stays_on_manifold = true};
  template <class M>
  using Integrator = EmbeddedPairIntegrator<CommutatorFreePairStepper<Cf32bMethod, M>>;
};

/// CF(4,3): CF4 with the third-order auxiliary of Celledoni (34) (kCf43Scheme).
struct Cf43Method {
  static constexpr auto& scheme = kCf43Scheme;
  static constexpr int kEstimatorOrder = 3;
  static constexpr Declaration declaration{
      .name = "cf43",
      .description =
          "commutator-free CF(4,3): CF4 (9) with the auxiliary (34), error as a distance "
          "on the manifold (Celledoni 4.2.2)",
      .family = Family::LieGroup, .order = 4, .adaptive = true, .stays_on_manifold = true};
  template <class M>
  using Integrator = EmbeddedPairIntegrator<CommutatorFreePairStepper<Cf43Method, M>>;
};

}  // namespace geomint
