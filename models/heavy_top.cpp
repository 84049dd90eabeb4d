#include "models/heavy_top.hpp"

namespace geomint {

HeavyTop::HeavyTop(const ParameterSet& p) : top_(p) {
  layout_.add("Q", Manifold::SO3, 9, "Q");
  layout_.add("pi", Manifold::R3, 3, "pi");
  declared_ = {{"energy", InvariantKind::Energy, true},
               {"pi_dot_e3", InvariantKind::Casimir, true},
               {"Pi_dot_X", InvariantKind::Momentum, top_.lagrange}};
}

const std::vector<Preset<HeavyTop>>& HeavyTop::presets() {
  static const auto list =
      heavy_top_presets_of<HeavyTop>([](const HeavyTop& m, const Eigen::Vector3d& omega0) {
        State y;
        Group::rotation(y).setIdentity();  // Q0 = I, so pi0 = Pi0 = I Omega0
        y.tail<3>() = m.top_.inertia.cwiseProduct(omega0);
        return y;
      });
  return list;
}

}  // namespace geomint
