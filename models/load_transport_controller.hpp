#pragma once
// The geometric load-transport controller of two quadrotors carrying a point mass, as the
// authors of Celledoni 2021 Section 6 run it (NOTES-celledoni 4.5, after Lee, Sreenath & Kumar
// [50]; j != i):
//   e_y = y - y_d,  F_d = m_y (-k_y e_y - k_v e_y' + y_d'' - g e3)
//   mu_i = c_i (F_d . q_i) q_i,  c_i = 1 / ((r_id . e3) |r_1d + r_2d|)
//   u_i|| = m_i L_i |w_i|^2 q_i + mu_i + (m_i/m_y) q_i q_i^T (mu_1 + mu_2)          (load)
//   u_i_|_ = m_i L_i hat(q_i) (-k_q e_qi - k_w e_wi - (q_i . w_id) q_i' - hat(q_i)^2 w_id')
//            - (m_i/m_y) hat(q_i)^2 mu_j                                           (links)
// with the desired link directions q_id = Q_d r_id, Q_d the frame of columns
//   -hat(F_d)^2 s_d / |.|,  -hat(F_d) s_d / |.|,  -F_d / |F_d|,
// w_id = q_id x q_id', e_qi = q_id x q_i and e_wi = w_i + hat(q_i)^2 w_id. The law needs F_d's
// first two derivatives along the motion; under u|| the load moves by y'' = g e3 + (mu_1 +
// mu_2)/m_y exactly, which gives them in closed form (NOTES-celledoni 4.5), and q_id's jet follows
// from F_d's by the jet arithmetic below.
//
// The moments M_i are constant (the paper "neglects the construction of the controllers M_i"),
// so the attitudes do not enter this law: the thrusts are applied as the vectors u_i.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <array>

#include "models/desired_load_trajectory.hpp"

namespace geomint {

struct LoadTransportController {
  using Vec3 = Eigen::Vector3d;

  /// The load's and the links' part of the state.
  struct Motion {
    Vec3 y, v;
    std::array<Vec3, 2> q, w;
  };
  /// A curve's value and its first two time derivatives along the motion.
  struct Jet {
    Vec3 x, dx, ddx;
  };
  /// What the law applies: u_i = parallel_i + perpendicular_i.
  struct Forces {
    std::array<Vec3, 2> parallel, perpendicular;
  };

  double m_y, g;
  std::array<double, 2> m, L;
  double k_y, k_v, k_q, k_w;
  std::array<Vec3, 2> r_d;  // the desired formation r_1d, r_2d (unit vectors)
  Vec3 s_d;                 // fixes Q_d's rotation about F_d
  DesiredLoadTrajectory trajectory;

  Forces forces(double t, const Motion& x) const;
  /// The desired link directions q_1d, q_2d with their derivatives along the motion.
  std::array<Jet, 2> desired_directions(double t, const Motion& x) const;
};

}  // namespace geomint
