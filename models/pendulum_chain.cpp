#include "models/pendulum_chain.hpp"

#include <cmath>
#include <string>

namespace geomint {

ParameterSet PendulumChain::default_parameters() {
  return {{"N", 2.0, "", "number of pendulums", ParameterDomain::whole(1, 10000)},
          {"m", 1.0, "kg", "mass of every bob", ParameterDomain::positive()},
          {"L", 1.0, "m", "length of every link", ParameterDomain::positive()},
          {"g", 9.81, "m/s^2", "gravitational acceleration, along -e3"}};
}

PendulumChain::PendulumChain(const ParameterSet& p) {
  const auto n = static_cast<Eigen::Index>(p["N"]);
  const double m = p["m"], length = p["L"], g = p["g"];
  length_ = length;
  inertia_.resize(n, n);
  weight_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    weight_(i) = static_cast<double>(n - i) * m * g * length;  // bobs i..N hang below link i
    for (Eigen::Index j = 0; j < n; ++j)
      inertia_(i, j) = static_cast<double>(n - std::max(i, j)) * m * length * length;
  }
  allocate_scratch(n);
}

const std::vector<Preset<PendulumChain>>& PendulumChain::presets() {
  static const std::vector<Preset<PendulumChain>> list = [] {
    std::vector<Preset<PendulumChain>> l;
    const auto initial = [](const PendulumChain& model) {
      // Celledoni Section 5.3: (q_i, w_i) = (sqrt2/2, 0, sqrt2/2, 0, 1, 0) for every i.
      const Eigen::Index n = model.bodies();
      State y(6 * n);
      for (Eigen::Index i = 0; i < n; ++i) {
        y.segment<3>(3 * i) = Eigen::Vector3d(std::sqrt(0.5), 0.0, std::sqrt(0.5));
        y.segment<3>(3 * (n + i)) = Eigen::Vector3d(0.0, 1.0, 0.0);
      }
      return y;
    };
    for (int n = 2; n <= 20; ++n) {
      const std::string tag = "celledoni2021_N" + std::to_string(n);
      l.push_back({tag,
                   "Celledoni Section 5.3: N = " + std::to_string(n) +
                       ", m_i = L_i = 1, (q_i, w_i) = (sqrt2/2, 0, sqrt2/2, 0, 1, 0); g = 9.81 "
                       "(not stated in the paper)",
                   [n](ParameterSet& p) {
                     p.set("N", n);
                     p.set("m", 1.0);
                     p.set("L", 1.0);
                   },
                   initial});
      l.push_back({tag + "_total5",
                   "Celledoni Section 5.3, Fig. 10: N = " + std::to_string(n) +
                       ", m_i = 1, L_i = 5/N (a chain of total length 5), the same initial "
                       "condition; g = 9.81",
                   [n](ParameterSet& p) {
                     p.set("N", n);
                     p.set("m", 1.0);
                     p.set("L", 5.0 / n);
                   },
                   initial});
    }
    return l;
  }();
  return list;
}

}  // namespace geomint
