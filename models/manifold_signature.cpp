#include "models/manifold_signature.hpp"

#include <vector>

namespace geomint {

std::string manifold_signature(const StateLayout& layout) {
  const auto& blocks = layout.blocks();
  std::vector<bool> has_tangent(blocks.size(), false);
  for (const auto& b : blocks)
    if (b.manifold == Manifold::TangentS2) has_tangent[b.point] = true;
  std::vector<std::string> factors;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].manifold == Manifold::TangentS2) continue;  // counted with its S2 block
    factors.push_back(blocks[i].manifold == Manifold::S2 && has_tangent[i]
                          ? "TS2"
                          : std::string(to_string(blocks[i].manifold)));
  }
  std::string signature;
  for (std::size_t i = 0; i < factors.size(); ++i) {
    if (factors[i] == "TS2" && i > 0 && factors[i - 1] == "TS2") continue;  // in (TS2)^n
    if (!signature.empty()) signature += " x ";
    signature += factors[i] == "TS2" ? "(TS2)^n" : factors[i];
  }
  return signature;
}

}  // namespace geomint
