#pragma once
// An explicit Runge-Kutta tableau: coefficients as data, shared by the classical methods and
// by the RKMK methods built on them (odeint's explicit_generic_rk, Drake's RK3 comment). The
// built-in methods' tableaus are compile-time constants with S stages; a method given at run
// time (a study spec's `methods:`) has ButcherTableau<kDynamicStages>, with the same fields.

#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <vector>

namespace geomint {

/// The stage count of a tableau or scheme whose size is known only at run time.
inline constexpr std::size_t kDynamicStages = std::numeric_limits<std::size_t>::max();

template <std::size_t S>
struct ButcherTableau {
  static constexpr std::size_t kStages = S;
  std::array<std::array<double, S>, S> a;  // strictly lower triangular
  std::array<double, S> b;                 // weights of the propagated solution
  std::array<double, S> c;                 // nodes
  static constexpr std::size_t stages() { return S; }
};

/// A tableau given at run time; integrators/order_conditions.hpp checks its shape and order.
template <>
struct ButcherTableau<kDynamicStages> {
  static constexpr std::size_t kStages = kDynamicStages;
  std::vector<std::vector<double>> a;  // s rows of s, strictly lower triangular
  std::vector<double> b;
  std::vector<double> c;
  std::size_t stages() const { return b.size(); }
};

/// A compile-time tableau T as a type whose members are constants. Stepping code written once
/// for compile-time and run-time tableaus (detail::explicit_rk_step, detail::RkmkStages) takes
/// a built-in method's tableau as this, so that its coefficients are constants there whether or
/// not the compiler inlines that code into the method's step.
template <const auto& T>
struct ConstantTableau {
  static constexpr std::size_t kStages = std::remove_cvref_t<decltype(T)>::kStages;
  static constexpr const auto& a = T.a;
  static constexpr const auto& b = T.b;
  static constexpr const auto& c = T.c;
  static constexpr std::size_t stages() { return kStages; }
};

/// A compile-time tableau as a run-time one.
template <std::size_t S>
ButcherTableau<kDynamicStages> to_dynamic(const ButcherTableau<S>& t) {
  ButcherTableau<kDynamicStages> d{{}, {t.b.begin(), t.b.end()}, {t.c.begin(), t.c.end()}};
  for (const auto& row : t.a) d.a.emplace_back(row.begin(), row.end());
  return d;
}

/// Per-stage scratch of a method with S stages: an array, or for kDynamicStages a vector,
/// sized once by size_stages (so that no step allocates).
template <class T, std::size_t S>
using StageArray = std::conditional_t<S == kDynamicStages, std::vector<T>, std::array<T, S>>;

/// A method's Butcher tableau: how FixedStepMethod (integrators/fixed_step_base.hpp) picks the
/// coefficients of an explicit RK or RKMK method.
inline constexpr auto kTableauOf = [](const auto& method) -> const auto& { return method.tableau; };

/// Gives per-stage scratch `count` entries (a vector; an array has its own) of dimension dim.
template <class Stages, class Index>
void size_stages(Stages& stages, std::size_t count, Index dim) {
  if constexpr (requires { stages.resize(count); }) stages.resize(count);
  for (auto& s : stages) s.resize(dim);
}

/// Explicit Euler:
///   0 |
///   --+--
///     | 1
inline constexpr ButcherTableau<1> kEulerTableau{.a = {{{0.0}}}, .b = {1.0}, .c = {0.0}};

/// Heun's method (the explicit trapezoidal rule):
///   0 |
///   1 | 1
///   --+---------
///     | 1/2  1/2
inline constexpr ButcherTableau<2> kHeunTableau{
    .a = {{{0.0, 0.0}, {1.0, 0.0}}}, .b = {0.5, 0.5}, .c = {0.0, 1.0}};

/// Explicit midpoint rule (RK2):
///   0   |
///   1/2 | 1/2
///   ----+---------
///       | 0    1
inline constexpr ButcherTableau<2> kMidpointTableau{
    .a = {{{0.0, 0.0}, {0.5, 0.0}}}, .b = {0.0, 1.0}, .c = {0.0, 0.5}};

/// Kutta's third-order method (Hairer, Norsett & Wanner I, Table II.1.1):
///   0   |
///   1/2 | 1/2
///   1   | -1   2
///   ----+--------------
///       | 1/6  2/3  1/6
inline constexpr ButcherTableau<3> kKutta3Tableau{
    .a = {{{0, 0, 0}, {0.5, 0, 0}, {-1.0, 2.0, 0}}},
    .b = {1.0 / 6, 2.0 / 3, 1.0 / 6},
    .c = {0.0, 0.5, 1.0}};

/// The classical fourth-order method (RK4):
///   0   |
///   1/2 | 1/2
///   1/2 | 0    1/2
///   1   | 0    0    1
///   ----+-------------------
///       | 1/6  1/3  1/3  1/6
inline constexpr ButcherTableau<4> kRk4Tableau{
    .a = {{{0, 0, 0, 0}, {0.5, 0, 0, 0}, {0, 0.5, 0, 0}, {0, 0, 1.0, 0}}},
    .b = {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6},
    .c = {0.0, 0.5, 0.5, 1.0}};

/// Dormand-Prince 5(4), first-same-as-last (Dormand & Prince 1980; MATLAB ode45):
///   0    |
///   1/5  | 1/5
///   3/10 | 3/40        9/40
///   4/5  | 44/45      -56/15       32/9
///   8/9  | 19372/6561 -25360/2187  64448/6561  -212/729
///   1    | 9017/3168  -355/33      46732/5247   49/176  -5103/18656
///   1    | 35/384      0           500/1113     125/192 -2187/6784    11/84
///   -----+-------------------------------------------------------------------------
///   b    | 35/384      0           500/1113     125/192 -2187/6784    11/84     0
///   b-b^ | 71/57600    0          -71/16695     71/1920 -17253/339200 22/525   -1/40
inline constexpr ButcherTableau<7> kDormandPrinceTableau{
    .a = {{{0, 0, 0, 0, 0, 0, 0},
           {1.0 / 5, 0, 0, 0, 0, 0, 0},
           {3.0 / 40, 9.0 / 40, 0, 0, 0, 0, 0},
           {44.0 / 45, -56.0 / 15, 32.0 / 9, 0, 0, 0, 0},
           {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729, 0, 0, 0},
           {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656, 0, 0},
           {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0}}},
    .b = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0},
    .c = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1.0, 1.0}};

/// Error weights b - b^ of the embedded fourth-order solution (MATLAB ode45's E).
inline constexpr std::array<double, 7> kDormandPrinceErrorWeights = {
    71.0 / 57600, 0, -71.0 / 16695, 71.0 / 1920, -17253.0 / 339200, 22.0 / 525, -1.0 / 40};

/// Continuous extension of MATLAB's ntrp45: y(t + s h) = y + h sum_j f_j (BI_j . [s s^2 s^3 s^4]).
inline constexpr std::array<std::array<double, 4>, 7> kDormandPrinceDense = {{
    {1.0, -183.0 / 64, 37.0 / 12, -145.0 / 128},
    {0.0, 0.0, 0.0, 0.0},
    {0.0, 1500.0 / 371, -1000.0 / 159, 1000.0 / 371},
    {0.0, -125.0 / 32, 125.0 / 12, -375.0 / 64},
    {0.0, 9477.0 / 3392, -729.0 / 106, 25515.0 / 6784},
    {0.0, -11.0 / 7, 11.0 / 3, -55.0 / 28},
    {0.0, 3.0 / 2, -4.0, 5.0 / 2},
}};

}  // namespace geomint
