#include "models/heavy_top_quadratic.hpp"

namespace geomint {

HeavyTopQuadratic::HeavyTopQuadratic(const ParameterSet& p) : top_(p) {
  layout_.add("Q", Manifold::SO3, 9, "Q");
  layout_.add("pi", Manifold::R3, 3, "pi");
  layout_.add("q", Manifold::R3, 3, "q");
  layout_.add("p", Manifold::R3, 3, "p");
  declared_ = {{"energy", InvariantKind::Energy, true},
               {"pi_dot_e3", InvariantKind::Casimir, true},
               {"Pi_dot_X", InvariantKind::Momentum, top_.lagrange},
               {"p_x", InvariantKind::Momentum, true},
               {"p_y", InvariantKind::Momentum, true},
               {"p_z", InvariantKind::Momentum, true}};
}

const std::vector<Preset<HeavyTopQuadratic>>& HeavyTopQuadratic::presets() {
  static const auto list = heavy_top_presets_of<HeavyTopQuadratic>(
      [](const HeavyTopQuadratic& m, const Eigen::Vector3d& omega0) {
        State y = State::Zero();
        Eigen::Map<Mat3>(y.data()).setIdentity();                  // Q0 = I
        y.segment<3>(9) = m.top_.inertia.cwiseProduct(omega0);      // pi0 = Pi0 = I Omega0
        y.tail<3>() = -(m.top_.kappa.z() * m.top_.axis);            // p0 = -s M g l X
        return y;
      });
  return list;
}

}  // namespace geomint
