// Its own header by the name beside it, so that the pair moves to models/ unedited.
#include "duffing_oscillator.hpp"

namespace geomint {

ParameterSet DuffingOscillator::default_parameters() {
  return {{"k", 1.0, "1/s^2", "linear stiffness", ParameterDomain::positive()},
          {"eps", 1.0, "1/(m^2 s^2)", "cubic stiffness", ParameterDomain::non_negative()}};
}

DuffingOscillator::DuffingOscillator(const ParameterSet& p) : k_(p["k"]), eps_(p["eps"]) {
  layout_.add("x", Manifold::Rn, 1, "x");
  layout_.add("v", Manifold::Rn, 1, "v");
  declared_ = {{"energy", InvariantKind::Energy, true}};
}

const std::vector<Preset<DuffingOscillator>>& DuffingOscillator::presets() {
  static const std::vector<Preset<DuffingOscillator>> list = {
      {"swing", "x(0) = 1, v(0) = 0 with k = eps = 1", [](ParameterSet&) {},
       [](const DuffingOscillator&) { return State(1.0, 0.0); }}};
  return list;
}

}  // namespace geomint
