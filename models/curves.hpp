#pragma once
// A model that draws named curves of its motion in R^3, for a study's `curves` plot (the heavy
// top: Q X and M l Q^{-1} Gamma0 of Celledoni Fig. 2). M::kCurves names them (no commas: they
// head CSV columns); curve_points gives each curve's point at a state, in that order.

#include <Eigen/Core>
#include <array>
#include <string_view>

namespace geomint {

template <class M>
concept DrawsCurves = requires(const M& m, const typename M::State& y) {
  { M::kCurves.size() } -> std::convertible_to<std::size_t>;
  { m.curve_points(y) } -> std::same_as<std::array<Eigen::Vector3d, M::kCurves.size()>>;
  { M::kCurves[0] } -> std::convertible_to<std::string_view>;
};

}  // namespace geomint
