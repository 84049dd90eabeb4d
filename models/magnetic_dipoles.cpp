#include "models/magnetic_dipoles.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "models/sphere_state.hpp"

namespace geomint {

ParameterSet MagneticDipoles::default_parameters() {
  return {{"rows", 4.0, "", "rows of the grid, stacked along -e2", ParameterDomain::whole(1, 1000)},
          {"columns", 4.0, "", "magnets per row, along e1", ParameterDomain::whole(1, 1000)},
          {"m", 0.05, "kg", "mass of every magnet", ParameterDomain::positive()},
          {"l", 0.02, "m", "length of every magnet", ParameterDomain::positive()},
          {"nu", 0.1, "A m^2", "magnitude of every magnetic moment", ParameterDomain::positive()},
          {"spacing", 1.2, "", "edge of a grid square, in units of l", ParameterDomain::positive()},
          {"mu", 4e-7 * std::numbers::pi, "N/A^2", "permeability constant",
           ParameterDomain::positive()}};
}

MagneticDipoles::MagneticDipoles(const ParameterSet& p) {
  const auto rows = static_cast<Eigen::Index>(p["rows"]);
  const auto columns = static_cast<Eigen::Index>(p["columns"]);
  const Eigen::Index n = rows * columns;
  if (n < 2)
    throw InputError(std::string(kName) + ": the grid needs at least 2 magnets, got " +
                     std::to_string(n));
  const double m = p["m"], l = p["l"], nu = p["nu"], mu = p["mu"];
  const double a = p["spacing"] * l;
  inertia_ = Inertia::constant(n, m * l * l / 12.0);
  pivots_.clear();
  for (Eigen::Index r = 0; r < rows; ++r)
    for (Eigen::Index c = 0; c < columns; ++c)
      pivots_.push_back(
          a * (static_cast<double>(c) * Vec3::UnitX() - static_cast<double>(r) * Vec3::UnitY()));
  pairs_.clear();
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j) {
      const Vec3 r = pivot(j) - pivot(i);
      const double d = r.norm();
      pairs_.push_back({i, j, r / d, mu * nu * nu / (4.0 * std::numbers::pi * d * d * d)});
    }
  allocate_scratch(n);
}

// LLM Example 5, with the double sum over i != j taken once over i < j.
double MagneticDipoles::potential(const Points& q) const {
  double v = 0.0;
  for (const auto& pr : pairs_) {
    const auto qi = q.col(pr.i), qj = q.col(pr.j);
    v += pr.strength * (qi.dot(qj) - 3.0 * qi.dot(pr.u) * qj.dot(pr.u));
  }
  return v;
}

// LLM (3.25): dV/dq_i = sum_{j != i} mu nu^2 / (4 pi |r_ij|^3) [q_j - 3 r_ij (q_j.r_ij)/|r_ij|^2].
void MagneticDipoles::potential_gradient(const Points& q, Points& grad) const {
  grad.setZero();
  for (const auto& pr : pairs_) {
    const auto qi = q.col(pr.i), qj = q.col(pr.j);
    grad.col(pr.i) += pr.strength * (qj - 3.0 * qj.dot(pr.u) * pr.u);
    grad.col(pr.j) += pr.strength * (qi - 3.0 * qi.dot(pr.u) * pr.u);
  }
}

const std::vector<Preset<MagneticDipoles>>& MagneticDipoles::presets() {
  static const std::vector<Preset<MagneticDipoles>> list = {
      {"lee2009",
       "LLM Example 5: a 4 x 4 grid of spacing 1.2 l, m_i = 0.05 kg, l_i = 0.02 m, "
       "nu_i = 0.1 A m^2, mu = 4 pi 1e-7 N/A^2; q_i = e1 and w_i = 0 for every magnet except q_16 "
       "= "
       "(sqrt2/4, sqrt2/4, -sqrt3/2) (printed rounded as (0.3536, 0.3536, -0.8660)) and "
       "w_1 = (0, 0.5, 0) rad/s. The journal text gives w_16 = (0, 0.5, 0), which is not tangent "
       "to q_16; the arXiv version gives w_1, tangent to q_1 = e1, which we use. Our choices: "
       "the grid in the e1-e2 plane, numbered row by row as a page is read from above (e1 to "
       "the right, e2 up): magnet k = 4r + c + 1 at 1.2 l (c e1 - r e2), magnet 1 at the "
       "top-left corner, 16 at the bottom-right one (3.6 l, -3.6 l, 0), the rows along e1 so the "
       "magnets start head to tail along the rows. Neither the horizon nor the step is stated; "
       "T = 9 s and h = 3e-4 s reproduce the figures (studies/lee2009.yaml).",
       [](ParameterSet& p) {
         p.set("rows", 4);
         p.set("columns", 4);
         p.set("m", 0.05);
         p.set("l", 0.02);
         p.set("nu", 0.1);
         p.set("spacing", 1.2);
         p.set("mu", 4e-7 * std::numbers::pi);
       },
       [](const MagneticDipoles& model) {
         if (model.bodies() != 16)
           throw InputError("magnetic_dipoles: preset lee2009 is for the 4 x 4 grid, got " +
                            std::to_string(model.bodies()) + " magnets");
         std::vector<Vec3> q(16, Vec3::UnitX()), w(16, Vec3::Zero());
         const double s2 = std::sqrt(2.0), s3 = std::sqrt(3.0);
         q[15] = Vec3(s2 / 4, s2 / 4, -s3 / 2);
         w[0] = Vec3(0, 0.5, 0);
         return make_sphere_state<State>(q, w);
       }}};
  return list;
}

}  // namespace geomint
