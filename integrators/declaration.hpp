#pragma once
// What an integrator promises. Tests and studies read these declarations instead of
// hard-coding orders or properties (odeint's order_value, GeometricIntegrators' issymmetric).

#include <string_view>

namespace geomint {

enum class Family { Classical, Variational, LieGroup, Reference };

constexpr std::string_view to_string(Family f) {
  switch (f) {
    case Family::Classical: return "classical";
    case Family::Variational: return "variational";
    case Family::LieGroup: return "lie_group";
    case Family::Reference: return "reference";
  }
  return "unknown";
}

struct Declaration {
  std::string_view name;         // as used on the command line and in studies
  std::string_view description;  // one line, with the paper and equation it implements
  Family family;
  int order;                     // nominal order of convergence
  bool adaptive;                 // step size chosen by error control (else fixed h)
  bool symplectic;               // and hence no energy drift, momentum maps conserved
  bool symmetric;
  bool stays_on_manifold;        // |q_i| = 1 and q_i . w_i = 0 up to round-off
};

}  // namespace geomint
