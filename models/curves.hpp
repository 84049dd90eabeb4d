#pragma once
// A model that draws named curves of its motion in R^3, for a study's `curves` and `formation`
// plots (the heavy top: Q X and M l Q^{-1} Gamma0 of Celledoni Fig. 2). M::kCurves names them
// (no commas: they head CSV columns); curve_points gives each curve's point at the state y of
// time t, in that order (t for a model whose curves move with time, e.g. a desired trajectory).

#include <Eigen/Core>
#include <array>
#include <string_view>

namespace geomint {

template <class M>
concept DrawsCurves = requires(const M& m, double t, const typename M::State& y) {
  { M::kCurves.size() } -> std::convertible_to<std::size_t>;
  { m.curve_points(t, y) } -> std::same_as<std::array<Eigen::Vector3d, M::kCurves.size()>>;
  { M::kCurves[0] } -> std::convertible_to<std::string_view>;
};

}  // namespace geomint
