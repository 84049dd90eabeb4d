#pragma once
// What an integrator promises. Tests and studies read these declarations instead of
// hard-coding orders or properties (odeint's order_value, GeometricIntegrators' issymmetric).

#include <string_view>

namespace geomint {

// External: an integrator outside geomint, run as a command (studies/external_command.hpp).
enum class Family { Classical, Variational, LieGroup, SymplecticLieGroup, ConstrainedVariational, Reference, External };

constexpr std::string_view to_string(Family f) {
  switch (f) {
    case Family::Classical: return "classical";
    case Family::Variational: return "variational";
    case Family::LieGroup: return "lie_group";
    case Family::SymplecticLieGroup: return "symplectic_lie_group";
    case Family::ConstrainedVariational: return "constrained_variational";
    case Family::Reference: return "reference";
    case Family::External: return "external";
  }
  return "unknown";
}

/// Written with designated initialisers, naming only the promises a method makes:
///   {.name = "rk4", .description = "...", .family = Family::Classical, .order = 4}
struct Declaration {
  std::string_view name;         // as used on the command line and in studies
  std::string_view description;  // one line, with the paper and equation it implements
  Family family = Family::Classical;
  // Each promise below is checked for every catalogued integrator by a suite generated from
  // the catalogue and the model registry (tests/support/catalogue_cases.hpp).
  // The nominal order of convergence; a fixed-step method's is fitted within +-0.2
  // (tests/order/test_order.cpp).
  int order = 0;
  // The step size is chosen by error control (else fixed h).
  bool adaptive = false;
  // The one-step map preserves the symplectic form, the energy error has no drift, and the
  // momentum maps of the model's symmetry are conserved (tests/conservation:
  // declared_structure, energy_drift, momentum_maps); if false, the first two are shown to fail.
  bool symplectic = false;
  // Phi_{-h} o Phi_h = id (if false, shown not to hold)
  // (tests/conservation/test_declared_structure.cpp).
  bool symmetric = false;
  // Every manifold defect of the model at round-off, below 1e-12 over 10^4 steps
  // (tests/manifold/test_stays_on_manifold.cpp).
  bool stays_on_manifold = false;
};

/// The declaration of `plain`'s reprojection variant (`_proj`): the same method and promises,
/// its result put back on the manifold after every step, so that it stays there.
constexpr Declaration reprojected(Declaration plain, std::string_view name,
                                  std::string_view description) {
  plain.name = name;
  plain.description = description;
  plain.stays_on_manifold = true;
  return plain;
}

}  // namespace geomint
