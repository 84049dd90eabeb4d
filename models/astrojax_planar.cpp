#include "models/astrojax_planar.hpp"

#include <cmath>
#include <string>

#include "models/astrojax_planar_runs.hpp"

namespace geomint {

ParameterSet AstrojaxPlanar::default_parameters() {
  return {
      {"m1", 1.0, "kg", "mass of the bead sliding on the tether", ParameterDomain::positive()},
      {"m2", 1.0, "kg", "mass at the end of the tether", ParameterDomain::positive()},
      {"l", 1.0, "m", "tether length", ParameterDomain::positive()},
      {"g", 9.81, "m/s^2", "gravitational acceleration, along -e3", ParameterDomain::positive()}};
}

AstrojaxPlanar::AstrojaxPlanar(const ParameterSet& p)
    : m1_(p["m1"]), m2_(p["m2"]), l_(p["l"]), g_(p["g"]) {
  for (const char* name : {"lambda", "theta1", "theta2", "lambda_dot", "theta1_dot", "theta2_dot"})
    layout_.add(name, Manifold::Rn, 1, name);
  declared_ = {{"energy", InvariantKind::Energy, true}};
}

// NOTES-dutoit 1.3, with D = th1 - th2, c = cos D, s = sin D.
Eigen::Matrix3d AstrojaxPlanar::mass_matrix(const Eigen::Vector3d& q) const {
  const double lambda = q(0), rest = l_ - lambda, c = std::cos(q(1) - q(2)),
               s = std::sin(q(1) - q(2));
  Eigen::Matrix3d m;
  m << m1_ + 2 * m2_ * (1 - c), m2_ * lambda * s, m2_ * rest * s,                //
      m2_ * lambda * s, (m1_ + m2_) * lambda * lambda, m2_ * lambda * rest * c,  //
      m2_ * rest * s, m2_ * lambda * rest * c, m2_ * rest * rest;
  return m;
}

// NOTES-dutoit 1.3: f = 1/2 d/dq (q'^T M q') - (d/dt M) q' - dV/dq, written out.
Eigen::Vector3d AstrojaxPlanar::force(const Eigen::Vector3d& q, const Eigen::Vector3d& qdot) const {
  const double lambda = q(0), rest = l_ - lambda, c = std::cos(q(1) - q(2)),
               s = std::sin(q(1) - q(2));
  const double rate = qdot(0), w1 = qdot(1), w2 = qdot(2);
  const double c1 = std::cos(q(1)), c2 = std::cos(q(2));
  return {g_ * ((m1_ + m2_) * c1 - m2_ * c2) + lambda * w1 * w1 * (m1_ + m2_ * (1 - c)) -
              m2_ * rest * w2 * w2 * (1 - c) - 2 * m2_ * rate * (w1 - w2) * s,
          -lambda * ((m1_ + m2_) * g_ * std::sin(q(1)) + m2_ * rest * w2 * w2 * s +
                     2 * rate * ((m1_ + m2_) * w1 - m2_ * w2 * c)),
          m2_ * rest * (-g_ * std::sin(q(2)) + lambda * w1 * w1 * s - 2 * rate * (w1 * c - w2))};
}

double AstrojaxPlanar::energy(const State& y) const {
  const Eigen::Vector3d q = y.head<3>(), qdot = y.tail<3>();
  return 0.5 * qdot.dot(mass_matrix(q) * qdot) - (m1_ + m2_) * g_ * q(0) * std::cos(q(1)) -
         m2_ * g_ * (l_ - q(0)) * std::cos(q(2));
}

AstrojaxState AstrojaxPlanar::cartesian_state(const State& y) const {
  const double lambda = y(0), rest = l_ - lambda;
  const Eigen::Vector3d e1 = astrojax_direction(y(1), 0.0), e2 = astrojax_direction(y(2), 0.0);
  const Eigen::Vector3d de1(std::cos(y(1)), 0.0, std::sin(y(1)));  // d e / d theta
  const Eigen::Vector3d de2(std::cos(y(2)), 0.0, std::sin(y(2)));
  const Eigen::Vector3d q1 = lambda * e1, v1 = y(3) * e1 + lambda * y(4) * de1;
  AstrojaxState out;
  out << q1, q1 + rest * e2, v1, v1 - y(3) * e2 + rest * y(5) * de2;
  return out;
}

const std::vector<Preset<AstrojaxPlanar>>& AstrojaxPlanar::presets() {
  static const std::vector<Preset<AstrojaxPlanar>> list = [] {
    std::vector<Preset<AstrojaxPlanar>> l;
    for (const AstrojaxPlanarRun& run : kAstrojaxPlanarRuns)
      l.push_back({std::string(run.name), std::string(run.description),
                   [run](ParameterSet& p) {
                     p.set("m1", run.m1);
                     p.set("m2", run.m2);
                     p.set("l", 1.0);
                     p.set("g", 9.81);
                   },
                   [run](const AstrojaxPlanar& m) {
                     State y;
                     y << 0.5 * m.l_, run.theta1, run.theta2, 0.0, 0.0, 0.0;
                     return y;
                   }});
    return l;
  }();
  return list;
}

}  // namespace geomint
