#pragma once
// A quantity a model declares at every state: its name, what kind of quantity it is, and
// whether the exact flow conserves it. The study metrics read these declarations (energy
// error and drift, momentum and Casimir errors, the largest manifold defect) without knowing
// the model.

#include <string>
#include <string_view>

namespace geomint {

enum class InvariantKind { Energy, Momentum, Casimir, ManifoldDefect, ConstraintResidual };

constexpr std::string_view to_string(InvariantKind k) {
  switch (k) {
    case InvariantKind::Energy: return "energy";
    case InvariantKind::Momentum: return "momentum";
    case InvariantKind::Casimir: return "casimir";
    case InvariantKind::ManifoldDefect: return "manifold_defect";
    case InvariantKind::ConstraintResidual: return "constraint_residual";
  }
  return "?";
}

struct Invariant {
  std::string name;  // a column of `geomint run`'s output
  InvariantKind kind;
  bool conserved;    // by the exact flow: its change measures the integrator's error
};

}  // namespace geomint
