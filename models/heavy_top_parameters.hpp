#pragma once
// The physical top that Celledoni's three heavy-top formulations share (Section 3.4): its
// parameters, as all three models declare them, and its presets. Numbers and readings:
// ../shared/seeds/NOTES-celledoni-sections-3-and-6.md Section 3.
//
// The potential is V(Q) = kappa . (Q X) with kappa = s M g l e3: e3 points up, X is the unit
// body vector from the fixed point to the centre of mass, and s = gravity_sign is the reading
// of the paper's gravity. s = +1 is physical gravity along -e3 (V = M g times the height of the
// centre of mass); s = -1 is the literal reading of the paper's Gamma0 = (0, 0, -9.81) as
// kappa = M l Gamma0, gravity reversed. The paper defines Gamma0 as the upward unit axis and
// then gives a downward one that includes g; we take the physical reading by default.

#include <Eigen/Core>
#include <string>
#include <vector>

#include "models/parameters.hpp"
#include "models/preset.hpp"

namespace geomint {

struct HeavyTopParameters {
  Eigen::Vector3d inertia;          // principal moments about the fixed point (body axes)
  Eigen::Vector3d inverse_inertia;  // their inverses
  Eigen::Vector3d axis;             // X: unit, body frame, fixed point to centre of mass
  Eigen::Vector3d kappa;            // s M g l e3, in space
  bool lagrange;                    // X an axis of symmetry of the inertia: Pi . X is conserved

  explicit HeavyTopParameters(const ParameterSet& p);

  /// The spatial angular velocity omega = Q I^{-1} Q^T pi of attitude Q and spatial momentum pi.
  Eigen::Vector3d angular_velocity(const Eigen::Matrix3d& q, const Eigen::Vector3d& pi) const {
    return q * inverse_inertia.cwiseProduct(q.transpose() * pi);
  }
  static ParameterSet defaults();
};

/// A named top and its initial body angular velocity Omega0 (Q0 = I for every preset).
struct HeavyTopPreset {
  std::string name;
  std::string description;
  void (*set_parameters)(ParameterSet&);
  Eigen::Vector3d omega0;
};
const std::vector<HeavyTopPreset>& heavy_top_presets();

/// The presets as a model's, each with the initial state `initial(model, Omega0)`.
template <class Model, class Initial>
std::vector<Preset<Model>> heavy_top_presets_of(Initial initial) {
  std::vector<Preset<Model>> out;
  for (const auto& p : heavy_top_presets())
    out.push_back({p.name, p.description, p.set_parameters,
                   [initial, omega0 = p.omega0](const Model& m) { return initial(m, omega0); }});
  return out;
}

}  // namespace geomint
