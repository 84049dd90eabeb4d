#pragma once
// Which of a model's invariants (models/invariant.hpp) are the momentum maps of its symmetry.

#include <cstddef>
#include <vector>

#include "models/invariant.hpp"

namespace geomint::testing {

/// The indices, in all_invariants order, of the conserved invariants of kind Momentum.
template <class Model>
std::vector<std::size_t> momentum_indices(const Model& model) {
  std::vector<std::size_t> out;
  const auto all = all_invariants(model);
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].kind == InvariantKind::Momentum && all[i].conserved) out.push_back(i);
  return out;
}

}  // namespace geomint::testing
