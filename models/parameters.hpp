#pragma once
// Named model parameters, carrying the papers' names (m1, l1, g, ...), and the error
// raised for bad input anywhere in the bench.

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace geomint {

/// Malformed or meaningless input: an unknown name, a negative mass, a bad spec file.
/// The message is one line naming what is wrong.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Parameter {
  std::string name;
  double value;
  std::string unit;
  std::string description;
};

/// An ordered list of named parameters with their defaults, units and meaning.
class ParameterSet {
 public:
  ParameterSet() = default;
  ParameterSet(std::initializer_list<Parameter> list) : list_(list) {}

  const std::vector<Parameter>& list() const { return list_; }

  double operator[](std::string_view name) const { return find(name).value; }

  /// Set an existing parameter; an unknown name is an InputError listing the known ones.
  void set(std::string_view name, double value) { find(name).value = value; }

  bool contains(std::string_view name) const {
    for (const auto& p : list_)
      if (p.name == name) return true;
    return false;
  }

  /// Require a parameter to be positive (masses, lengths, ...).
  void require_positive(std::string_view model, std::string_view name) const {
    const double v = (*this)[name];
    if (!(v > 0.0))
      throw InputError(std::string(model) + ": parameter " + std::string(name) +
                       " must be positive, got " + std::to_string(v));
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
