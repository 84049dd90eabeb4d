#pragma once
// A model with named outputs: scalar functions of the time and the state that are neither
// invariants nor conserved (a controller's tracking errors, which depend on the desired
// trajectory at t), for a study's `outputs` plot and extra columns of `geomint run`.
// M::kOutputs names them (no commas: they head CSV columns); outputs(t, y) gives their values
// in that order.

#include <array>
#include <string_view>

namespace geomint {

template <class M>
concept HasOutputs = requires(const M& m, double t, const typename M::State& y) {
  { M::kOutputs.size() } -> std::convertible_to<std::size_t>;
  { M::kOutputs[0] } -> std::convertible_to<std::string_view>;
  { m.outputs(t, y) } -> std::same_as<std::array<double, M::kOutputs.size()>>;
};

}  // namespace geomint
