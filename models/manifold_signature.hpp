#pragma once
// The manifold a model's state lives on, named from its state layout.

#include <string>

#include "models/state_blocks.hpp"

namespace geomint {

/// The manifold a layout's state lives on, as a signature: the sequence of its blocks'
/// manifolds joined by " x ", an S2 block and the T_qS2 block tangent to it counting as one
/// factor TS2, and a run of TS2 factors written (TS2)^n, so that every model on (TS^2)^n has
/// one signature whatever its n: e.g. "(TS2)^n", "so3*", "SO3 x R3". The catalogue suites
/// group models by it (tests/support/catalogue_cases.hpp) and the report's matrix its rows
/// (the study manifest's `state_space`, reports/manifolds.py).
std::string manifold_signature(const StateLayout& layout);

}  // namespace geomint
