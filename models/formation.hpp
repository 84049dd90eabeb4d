#pragma once
// A model whose curves (models/curves.hpp) form a formation, for a study's `formation` plot:
// M::kCurveLinks lists pairs {a, b} of indices into kCurves, each a segment drawn between curve
// a's and curve b's points at each formation time (a load and the quadrotors carrying it on
// cables, Celledoni 2021 Sec. 6). A pair is a std::pair or a std::array of two indices.

#include <cstddef>
#include <tuple>
#include <utility>

#include "models/curves.hpp"

namespace geomint {

template <class M>
concept DrawsFormation = DrawsCurves<M> && requires {
  { M::kCurveLinks.size() } -> std::convertible_to<std::size_t>;
  { std::get<0>(M::kCurveLinks[0]) } -> std::convertible_to<std::size_t>;
  { std::get<1>(M::kCurveLinks[0]) } -> std::convertible_to<std::size_t>;
};

/// Whether every link joins two different curves of kCurves.
template <DrawsFormation M>
constexpr bool links_within_curves() {
  for (const auto& link : M::kCurveLinks) {
    const auto a = static_cast<std::size_t>(std::get<0>(link)), b = static_cast<std::size_t>(std::get<1>(link));
    if (a >= M::kCurves.size() || b >= M::kCurves.size() || a == b) return false;
  }
  return true;
}

}  // namespace geomint
