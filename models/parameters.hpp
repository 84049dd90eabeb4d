#pragma once
// Named model parameters, carrying the papers' names (m1, l1, g, ...) and the domain each
// value must lie in (a value outside it is an InputError).

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "models/parameter_domain.hpp"

namespace geomint {

struct Parameter {
  std::string name;
  double value;
  std::string unit;
  std::string description;
  /// Last, with a default, so that a parameter written {name, value, unit, description} is one
  /// that takes any finite number.
  ParameterDomain domain = ParameterDomain::finite();
};

/// An ordered list of named parameters with their defaults, units, meaning and domains. Values
/// change only through set(), so every value lies in its domain and a model's constructor checks
/// only what relates two parameters.
class ParameterSet {
 public:
  ParameterSet() = default;
  ParameterSet(std::initializer_list<Parameter> list) : list_(list) {}

  const std::vector<Parameter>& list() const { return list_; }

  double operator[](std::string_view name) const { return find(name).value; }

  /// Set an existing parameter; an unknown name, or a value outside the parameter's domain, is
  /// an InputError (the latter naming the parameter, the value and the domain).
  void set(std::string_view name, double value) {
    Parameter& p = find(name);
    if (!p.domain.contains(value))
      throw InputError("parameter " + p.name + " = " + number_text(value) +
                       " is outside its domain (" + p.domain.describe() + ")");
    p.value = value;
  }

  bool contains(std::string_view name) const {
    for (const auto& p : list_)
      if (p.name == name) return true;
    return false;
  }

 private:
  const Parameter& find(std::string_view name) const {
    for (const auto& p : list_)
      if (p.name == name) return p;
    throw InputError("unknown parameter '" + std::string(name) + "' (known: " + known() + ")");
  }
  Parameter& find(std::string_view name) {
    return const_cast<Parameter&>(static_cast<const ParameterSet&>(*this).find(name));
  }
  std::string known() const {
    std::string s;
    for (const auto& p : list_) s += (s.empty() ? "" : ", ") + p.name;
    return s;
  }

  std::vector<Parameter> list_;
};

}  // namespace geomint
