#include "models/free_rigid_body.hpp"

#include <cmath>

#include "models/rigid_body_solution.hpp"

namespace geomint {

ParameterSet FreeRigidBody::default_parameters() {
  return {{"I1", 1.0, "kg m^2", "principal moment of inertia about e1", ParameterDomain::positive()},
          {"I2", 2.0, "kg m^2", "principal moment of inertia about e2", ParameterDomain::positive()},
          {"I3", 3.0, "kg m^2", "principal moment of inertia about e3", ParameterDomain::positive()},
          {"L", std::sqrt(10.0), "kg m^2/s",
           "|Pi|, the coadjoint orbit the body angular momentum moves on (the initial Pi must lie on it)",
           ParameterDomain::positive()}};
}

FreeRigidBody::FreeRigidBody(const ParameterSet& p)
    : inertia_(p["I1"], p["I2"], p["I3"]),
      inverse_inertia_(inertia_.cwiseInverse()),
      angular_momentum_(p["L"]) {
  layout_.add("Pi", Manifold::so3_dual, 3, "Pi");
  declared_ = {{"energy", InvariantKind::Energy, true},
               {"casimir", InvariantKind::Casimir, true},
               {"orbit", InvariantKind::ManifoldDefect, true}};
}

FreeRigidBody::State FreeRigidBody::exact_solution(const State& pi0, double t) const {
  return RigidBodySolution(inertia_, pi0).at(t);
}

const std::vector<Preset<FreeRigidBody>>& FreeRigidBody::presets() {
  static const std::vector<Preset<FreeRigidBody>> list = {
      {"elliptic",
       "I = (1, 2, 3) kg m^2, Omega(0) = (1, 0, 1) rad/s, so Pi(0) = (1, 0, 3) and L = sqrt(10): "
       "rotation about the axis of largest inertia, L^2 = 10 > 2 E I2 = 8, elliptic modulus "
       "k^2 = 1/3 (our choice; exact solution in Jacobi elliptic functions)",
       [](ParameterSet& p) {
         p.set("I1", 1.0);
         p.set("I2", 2.0);
         p.set("I3", 3.0);
         p.set("L", std::sqrt(10.0));
       },
       [](const FreeRigidBody&) { return State(1.0, 0.0, 3.0); }},
      {"near_separatrix",
       "I = (1, 2, 3) kg m^2, Pi(0) = (1, 0, 1.8): close to the separatrix through the middle "
       "axis, k^2 = 0.926, so the motion lingers near the unstable axis (our choice; exact "
       "solution in Jacobi elliptic functions)",
       [](ParameterSet& p) {
         p.set("I1", 1.0);
         p.set("I2", 2.0);
         p.set("I3", 3.0);
         p.set("L", std::sqrt(1.0 + 1.8 * 1.8));
       },
       [](const FreeRigidBody&) { return State(1.0, 0.0, 1.8); }}};
  return list;
}

}  // namespace geomint
