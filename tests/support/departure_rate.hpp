#pragma once
// The exponential rate at which a run leaves a relative equilibrium: the least-squares slope of
// log D against t over the first stretch of the distances D(t) inside [low, high] (the linear
// regime: above round-off, below the nonlinear saturation), as the departure tests measure it
// against the linearisation's growth rate (models/relative_equilibrium.hpp).

#include <cmath>
#include <utility>
#include <vector>

namespace geomint::testing {

inline double departure_rate(const std::vector<std::pair<double, double>>& d, double low, double high) {
  double n = 0, st = 0, sy = 0, stt = 0, sty = 0;
  for (const auto& [t, dist] : d) {
    if (dist > high) break;
    if (dist < low) continue;
    const double y = std::log(dist);
    n += 1;
    st += t;
    sy += y;
    stt += t * t;
    sty += t * y;
  }
  return (n * sty - st * sy) / (n * stt - st * st);
}

}  // namespace geomint::testing
