#pragma once
// Where a fixed-step integrator's method comes from, so that one class per family serves both
// kinds: a built-in method struct (integrators/classical_methods.hpp, lie_group_methods.hpp),
// whose declaration and coefficients are compile-time constants (its zero coefficients then
// cost nothing), or a method given at run time (a study spec's `methods:`, built by
// studies/user_method.hpp), whose declaration and coefficients are a value held by reference.

#include <concepts>
#include <type_traits>

#include "integrators/declaration.hpp"

namespace geomint {

/// A method given at run time: its declaration is a data member of a value, not a constant.
template <class Method>
concept RunTimeMethod = std::is_member_object_pointer_v<decltype(&Method::declaration)>;

/// A built-in method: the integrator's declaration is the method's, a compile-time constant.
template <class Method>
class DeclaredBy {
 public:
  static constexpr Declaration declaration = Method::declaration;
};

/// A method given at run time: the declaration is per object (integrate() reads either), and
/// the method, which must outlive the integrator, is held by reference.
template <RunTimeMethod Method>
class DeclaredBy<Method> {
 public:
  const Declaration declaration;

 protected:
  explicit DeclaredBy(const Method& method) : declaration(method.declaration), method_(method) {}
  const Method& method() const { return method_; }

 private:
  const Method& method_;
};

}  // namespace geomint
