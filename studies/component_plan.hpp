#pragma once
// What a study's `components` plot draws against t (series/<case_id>-components.csv): chosen
// state components (`w1_y`), their time derivatives from the model's vector field (`dw1_y/dt`),
// invariants (`E`), named outputs (models/outputs.hpp) and coordinates of named curves
// (`Q X_z`, models/curves.hpp), each named as the spec names it and resolved against what the
// model offers.

#include <cstddef>
#include <string>
#include <vector>

#include "models/invariant.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class ModelFace;

enum class ComponentKind { State, Derivative, Invariant, Output, Curve };

/// Where a component's value comes from: the index of the state entry (State, Derivative), of
/// the invariant in all_invariants' order, of the output, or 3 * curve + axis.
struct ComponentSource {
  ComponentKind kind;
  std::size_t index;
};

/// What a model offers a components plot, by name.
struct OfferedComponents {
  std::vector<std::string> state;       // StateLayout::column_names()
  std::vector<std::string> invariants;  // declared, then the blocks' defects
  std::vector<std::string> outputs;
  std::vector<std::string> curves;      // <curve>_x, _y, _z per curve
  bool derivatives = false;             // it gives y' = F(t, y): d<state>/dt
};

OfferedComponents offered_components(const ModelFace& model, const StateLayout& layout,
                                     const std::vector<Invariant>& invariants);

/// Each name's source; an InputError names the first unknown one and what the model offers.
std::vector<ComponentSource> resolve_components(const std::vector<std::string>& names,
                                                const OfferedComponents& offered);

}  // namespace geomint
