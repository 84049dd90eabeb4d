#include "models/spring_pendula.hpp"

#include <cmath>
#include <numbers>

#include "models/sphere_state.hpp"

namespace geomint {

ParameterSet SpringPendula::default_parameters() {
  return {{"m", 0.1, "kg", "mass of every bob", ParameterDomain::positive()},
          {"l", 0.1, "m", "length of every link", ParameterDomain::positive()},
          {"g", 9.81, "m/s^2", "gravitational acceleration, along +e3"},
          {"d", 0.1, "m", "side of the square of pivots: r_12 = -r_34 = d e1, r_23 = -r_41 = -d e2",
           ParameterDomain::positive()},
          {"kappa12", 10.0, "N/m", "spring constant between pendula 1 and 2 (0: no spring)",
           ParameterDomain::non_negative()},
          {"kappa23", 20.0, "N/m", "spring constant between pendula 2 and 3 (0: no spring)",
           ParameterDomain::non_negative()},
          {"kappa34", 30.0, "N/m", "spring constant between pendula 3 and 4 (0: no spring)",
           ParameterDomain::non_negative()},
          {"kappa41", 40.0, "N/m", "spring constant between pendula 4 and 1 (0: no spring)",
           ParameterDomain::non_negative()}};
}

SpringPendula::SpringPendula(const ParameterSet& p) {
  const double m = p["m"], l = p["l"], d = p["d"];
  inertia_ = Inertia::constant(4, m * l * l);
  weight_ = m * p["g"] * l;
  half_length_ = 0.5 * l;
  const Vec3 e1 = Vec3::UnitX(), e2 = Vec3::UnitY();
  springs_ = {Spring{0, 1, d * e1, p["kappa12"], d}, Spring{1, 2, -d * e2, p["kappa23"], d},
              Spring{2, 3, -d * e1, p["kappa34"], d}, Spring{3, 0, d * e2, p["kappa41"], d}};
  Points pivots;  // p_1 = 0, p_2 = d e1, p_3 = d e1 - d e2, p_4 = -d e2
  pivots << 0, d, d, 0,  //
      0, 0, -d, -d,      //
      0, 0, 0, 0;
  set_bodies(l, pivots);
  allocate_scratch(4);
}

// LLM Example 3: the spring (i, j) joins the link midpoints p_i + l/2 q_i and p_j + l/2 q_j,
// so its vector is s = r_ij + l/2 q_j - l/2 q_i.
double SpringPendula::potential(const Points& q) const {
  double v = -weight_ * q.row(2).sum();
  for (const auto& s : springs_) {
    const double stretch = (s.r + half_length_ * (q.col(s.j) - q.col(s.i))).norm() - s.rest;
    v += 0.5 * s.kappa * stretch * stretch;
  }
  return v;
}

// dV/dq_j = +-kappa_ij (|s| - |r_ij|) s/|s| l/2 for the two ends of each spring, and
// -m g l e3 from gravity; this is what (3.22) crosses with q_i.
void SpringPendula::potential_gradient(const Points& q, Points& grad) const {
  grad.setZero();
  grad.row(2).setConstant(-weight_);
  for (const auto& s : springs_) {
    const Vec3 v = s.r + half_length_ * (q.col(s.j) - q.col(s.i));
    const double length = v.norm();
    const Vec3 f = (s.kappa * (length - s.rest) * half_length_ / length) * v;
    grad.col(s.j) += f;
    grad.col(s.i) -= f;
  }
}

// Gravity is linear in q. A spring's vector s = r_ij - l/2 (q_i - q_j) has, as a function of
// d = q_i - q_j, the Hessian of 1/2 kappa (|s| - |r_ij|)^2
//   (l/2)^2 kappa [u u^T + (1 - |r_ij| / |s|) (I - u u^T)],   u = s / |s|.
void SpringPendula::ambient_potential_hessian(const Points& q, PositionMatrix& hess) const {
  hess.setZero();
  for (const auto& s : springs_) {
    const Vec3 v = s.r + half_length_ * (q.col(s.j) - q.col(s.i));
    const double length = v.norm();
    const Vec3 u = v / length;
    const Eigen::Matrix3d along = u * u.transpose();
    const Eigen::Matrix3d b =
        (half_length_ * half_length_ * s.kappa) *
        (along + (1.0 - s.rest / length) * (Eigen::Matrix3d::Identity() - along));
    add_difference_hessian(s.i, s.j, b, hess);
  }
}

const std::vector<Preset<SpringPendula>>& SpringPendula::presets() {
  static const std::vector<Preset<SpringPendula>> list = {
      {"lee2009",
       "LLM Example 3: m_i = 0.1 kg, l_i = 0.1 m, pivots r_12 = -r_34 = l e1, r_23 = -r_41 = "
       "-l e2 (d = l = 0.1 m), kappa_12, kappa_23, kappa_34, kappa_41 = 10, 20, 30, 40 N/m (the "
       "paper's text writes 'kappa_12' four times); q1 = q2 = q4 = e3 (hanging down), q3 = "
       "(sin30 cos20, sin30 sin20, cos30) (printed rounded as (0.4698, 0.1710, 0.8660), off the "
       "sphere by 4e-5), w1 = (-10, 4, 0) rad/s, w2 = w3 = w4 = 0. The paper's 'e1 = [0, 0, 1]' "
       "is a slip for e1 = (1, 0, 0). g is not stated: 9.81 m/s^2. Neither the horizon nor the "
       "step is stated either; studies/lee2009.yaml names the ones that reproduce the figures.",
       [](ParameterSet& p) {
         p.set("m", 0.1);
         p.set("l", 0.1);
         p.set("g", 9.81);
         p.set("d", 0.1);
         p.set("kappa12", 10.0);
         p.set("kappa23", 20.0);
         p.set("kappa34", 30.0);
         p.set("kappa41", 40.0);
       },
       [](const SpringPendula&) {
         const double deg = std::numbers::pi / 180.0;
         const Vec3 q3(std::sin(30 * deg) * std::cos(20 * deg),
                       std::sin(30 * deg) * std::sin(20 * deg), std::cos(30 * deg));
         return make_sphere_state<State>({{0, 0, 1}, {0, 0, 1}, q3, {0, 0, 1}},
                                         {{-10, 4, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}});
       }}};
  return list;
}

}  // namespace geomint
