#include "studies/component_plan.hpp"

#include <algorithm>

#include "errors/exit_status_errors.hpp"
#include "studies/model_catalogue.hpp"

namespace geomint {

namespace {

std::size_t position(const std::vector<std::string>& list, const std::string& name) {
  return static_cast<std::size_t>(std::find(list.begin(), list.end(), name) - list.begin());
}

/// The first names of a list, and how many there are when it is longer (a molecule cloud's state
/// has thousands of columns).
std::string joined(const std::vector<std::string>& list) {
  constexpr std::size_t kShown = 12;
  std::string text;
  for (std::size_t i = 0; i < std::min(list.size(), kShown); ++i) text += (text.empty() ? "" : ", ") + list[i];
  if (list.size() > kShown) text += ", ... (" + std::to_string(list.size()) + " in all)";
  return text.empty() ? "none" : text;
}

/// "dw1_y/dt" -> "w1_y"; empty for a name of another form.
std::string differentiated(const std::string& name) {
  if (name.size() < 5 || name.front() != 'd' || !name.ends_with("/dt")) return {};
  return name.substr(1, name.size() - 4);
}

}  // namespace

OfferedComponents offered_components(const ModelFace& model, const StateLayout& layout,
                                     const std::vector<Invariant>& invariants) {
  OfferedComponents offered;
  offered.state = layout.column_names();
  offered.outputs = model.output_names();
  offered.derivatives = model.has_vector_field();
  for (const auto& inv : invariants) offered.invariants.push_back(inv.name);
  for (const auto& curve : model.curve_names())
    for (const char* axis : {"_x", "_y", "_z"}) offered.curves.push_back(curve + axis);
  return offered;
}

std::vector<ComponentSource> resolve_components(const std::vector<std::string>& names,
                                                const OfferedComponents& offered) {
  std::vector<ComponentSource> sources;
  for (const auto& name : names) {
    const std::string of = differentiated(name);
    if (const auto k = position(offered.state, name); k < offered.state.size())
      sources.push_back({ComponentKind::State, k});
    else if (const auto d = position(offered.state, of); offered.derivatives && d < offered.state.size())
      sources.push_back({ComponentKind::Derivative, d});
    else if (const auto i = position(offered.invariants, name); i < offered.invariants.size())
      sources.push_back({ComponentKind::Invariant, i});
    else if (const auto o = position(offered.outputs, name); o < offered.outputs.size())
      sources.push_back({ComponentKind::Output, o});
    else if (const auto c = position(offered.curves, name); c < offered.curves.size())
      sources.push_back({ComponentKind::Curve, c});
    else
      throw InputError("unknown component '" + name + "' (the state: " + joined(offered.state) +
                       (offered.derivatives ? "; their rates d<component>/dt" : "") +
                       "; invariants: " + joined(offered.invariants) + "; outputs: " + joined(offered.outputs) +
                       "; curves: " + joined(offered.curves) + ")");
  }
  return sources;
}

}  // namespace geomint
