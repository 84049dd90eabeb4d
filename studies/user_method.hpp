#pragma once
// A method a study spec defines by its coefficients (`methods:`, studies/README.md): an explicit
// Runge-Kutta method on the AmbientOde view, an RKMK method or a commutator-free method on the
// LieGroupOde view; or an integrator outside geomint given as a command
// (studies/external_command.hpp), which integrates the model's AmbientOde itself. The spec checks it when it is read (integrators/order_conditions.hpp); its
// runs name it in `integrators:` like a built-in integrator, and the case runner runs it with
// the runtime-coefficient integrators (studies/user_method_runner.hpp).

#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json_fwd.hpp>

#include "integrators/declaration.hpp"
#include "integrators/runtime_commutator_free.hpp"
#include "integrators/runtime_explicit_rk.hpp"
#include "integrators/runtime_rkmk.hpp"
#include "studies/external_command.hpp"

namespace geomint {

enum class UserMethodKind { RungeKutta, Rkmk, CommutatorFree, Command };

/// As in a spec's `kind:`.
constexpr std::string_view to_string(UserMethodKind k) {
  switch (k) {
    case UserMethodKind::RungeKutta:
      return "runge_kutta";
    case UserMethodKind::Rkmk:
      return "rkmk";
    case UserMethodKind::CommutatorFree:
      return "commutator_free";
    case UserMethodKind::Command:
      return "command";
  }
  return "unknown";
}

/// The coefficients, one alternative per kind (a command's template and promises).
using UserMethodCoefficients = std::variant<RuntimeRkMethod, RuntimeRkmkMethod, RuntimeCfMethod, ExternalCommand>;

/// Owns the strings its declaration views, so it is neither copied nor moved: cases share it
/// as a shared_ptr<const UserMethod> (CaseSpec::user_method).
class UserMethod {
 public:
  /// `coefficients` carries the declaration's numbers and flags; its name and description are
  /// replaced by views of this object's copies of `name` and `description`.
  UserMethod(std::string name, std::string description, UserMethodCoefficients coefficients);
  UserMethod(const UserMethod&) = delete;
  UserMethod& operator=(const UserMethod&) = delete;

  const std::string& name() const { return name_; }
  UserMethodKind kind() const { return static_cast<UserMethodKind>(coefficients_.index()); }
  const Declaration& declaration() const;
  const UserMethodCoefficients& coefficients() const { return coefficients_; }
  /// It declares that it conserves the model's momentum maps: a symplectic method, or a
  /// command that says so (ExternalCommand::momentum).
  bool declares_momentum() const;

  /// Everything a case's numbers depend on (for the case hash, studies/case_keys.cpp): the kind,
  /// the declared order and properties, and every coefficient as an exact double; a command's
  /// template, folder, timeout and the digests of its files.
  nlohmann::json as_json() const;

 private:
  std::string name_, description_;
  UserMethodCoefficients coefficients_;
};

}  // namespace geomint
