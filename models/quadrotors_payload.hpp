#pragma once
// Two quadrotors carrying a point-mass load on rigid massless links (Celledoni Section 6,
// NOTES-celledoni 4): load y in R^3, attitudes R_i in SO(3) with body angular velocities
// Omega_i, link directions q_i in S^2 (from quadrotor i to the load: y_i = y - L_i q_i) with
// angular velocities w_i, q_i . w_i = 0. e3 points down: gravity is +g e3 (NOTES 4.4).
// The equations of motion (37), A(z) z' = h(z) with z = (y, v, Omega_1, Omega_2, w_1, w_2),
// solved by A's block inverse:
//   y' = v,  v' = Mq^-1 (-sum_i m_i L_i |w_i|^2 q_i + Mq g e3 + sum_i u_i||),
//   Mq = m_y I + sum_i m_i q_i q_i^T,
//   J_i Omega_i' = -Omega_i x J_i Omega_i + M_i,
//   w_i' = (1/L_i) q_i x v' - (g/L_i) q_i x e3 - (1/(m_i L_i)) q_i x u_i_|_,
// with R_i' = R_i hat(Omega_i), q_i' = w_i x q_i (36), the thrusts u_i of the load-transport
// controller (models/load_transport_controller.hpp) evaluated at the time of the call (the
// system is non-autonomous through the desired trajectory y_d(t)) and constant moments M_i,
// so that the attitudes are decoupled from (y, v, q, w).
//
// State P = (y, v, R_1, Omega_1, R_2, Omega_2, q_1, w_1, q_2, w_2) in R^42, R_i column-major.
// Views:
//   - LieGroupOde under R^6 x (SO(3) x R^3)^2 x SE(3)^2 (Section 6.1), the SE(3) factors acting
//     on TS^2 as in Section 5.1, with the generator
//     f(P) = (v, v', R_1 Omega_1, Omega_1', R_2 Omega_2, Omega_2', w_1, q_1 x w_1', w_2, q_2 x w_2')
//     (psi_*(f(P))|_P = F(P) because hat(R Omega) R = R hat(Omega) and (q x w') x q = w' for
//     w' normal to q);
//   - AmbientOde in R^42, projected by the nearest rotation, q_i normalised and w_i made
//     tangent.
// The model conserves nothing (it is driven); its defects are the blocks' |q_i| - 1, q_i . w_i,
// |R_i^T R_i - I| and det R_i - 1. Its named outputs are the tracking errors |y - y_d(t)| and
// |q_i - q_id(t)|, and it draws the load, the quadrotors and y_d(t) as curves, the links as the
// segments joining the quadrotors to the load.

#include <Eigen/Core>
#include <array>
#include <string_view>
#include <utility>
#include <vector>

#include "geometry/product_action.hpp"
#include "geometry/rotation_translation_action.hpp"
#include "geometry/tangent_sphere.hpp"
#include "geometry/translation_action.hpp"
#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/load_transport_controller.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class QuadrotorsPayload {
 public:
  static constexpr std::string_view kName = "quadrotors_payload";
  static constexpr std::string_view kDescription =
      "two quadrotors carrying a point-mass load on rigid links, tracking a parabola under a "
      "geometric controller (Celledoni Section 6)";
  // Half a second: with constant moments |Omega_i| grows by ~12 rad/s per second, and over
  // T = 1 Lie-Euler's attitude error is still pre-asymptotic at 4h (fitted 1.2 at h = 0.005) and
  // RKMK5's falls faster than h^5 (5.5); over T = 0.5 they fit 1.01 and 5.15 (RKMK4 4.02).
  static constexpr Exercise kExercise{"celledoni2021", 0.005, 0.5, 100.0};
  using Group = ProductAction<TranslationAction<6>, RotationTranslationAction,
                              RotationTranslationAction, TangentSphereProduct<1>,
                              TangentSphereProduct<1>>;
  using State = Group::Point;
  using Algebra = Group::Algebra;
  using Vec3 = Eigen::Vector3d;

  // Where each block starts in the state (the order of Group's factors).
  static constexpr Eigen::Index kY = 0, kV = 3;
  static constexpr std::array<Eigen::Index, 2> kR = {6, 18}, kOmega = {15, 27}, kQ = {30, 36},
                                               kW = {33, 39};

  static ParameterSet default_parameters();
  static const std::vector<Preset<QuadrotorsPayload>>& presets();

  explicit QuadrotorsPayload(const ParameterSet& p);

  Eigen::Index dimension() const { return Group::kPointDim; }

  void rhs(double t, const State& y, State& dy) const;
  void generator(double t, const State& y, Algebra& xi) const;
  void project(State& y) const;

  static constexpr std::array<std::string_view, 3> kOutputs = {
      "load_tracking_error", "link1_direction_error", "link2_direction_error"};
  /// |y - y_d(t)|, |q_1 - q_1d(t)|, |q_2 - q_2d(t)| (Celledoni Figs. 16-17; NOTES 4.5's choice).
  std::array<double, 3> outputs(double t, const State& y) const;

  static constexpr std::array<std::string_view, 4> kCurves = {"load", "quadrotor 1",
                                                              "quadrotor 2", "desired load"};
  static constexpr std::array<std::pair<int, int>, 2> kCurveLinks = {{{0, 1}, {0, 2}}};
  /// y, y_1 = y - L_1 q_1, y_2 = y - L_2 q_2 and y_d(t).
  std::array<Vec3, 4> curve_points(double t, const State& y) const;

  const LoadTransportController& controller() const { return controller_; }
  LoadTransportController::Motion motion(const State& y) const;

  // ---- The model contract (models/model_contract.hpp) -----------------------------------
  const StateLayout& state_layout() const { return layout_; }
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& /*y*/, double* /*out*/) const {}

 private:
  struct Accelerations {
    Vec3 v;
    std::array<Vec3, 2> Omega, w;
  };
  Accelerations accelerations(double t, const State& y) const;

  LoadTransportController controller_;
  std::array<Vec3, 2> inertia_, moment_;  // diagonals of J_i; M_i
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
