#pragma once
// Where a fixed-step integrator's method comes from, so that one class per family serves both
// kinds: a built-in method struct (integrators/classical_methods.hpp, lie_group_methods.hpp),
// whose declaration and coefficients are compile-time constants (its zero coefficients then
// cost nothing, and loops over its stages have constant bounds), or a method given at run time
// (a study spec's `methods:`, built by studies/user_method.hpp), whose declaration and
// coefficients are a value held by reference.

#include <concepts>
#include <cstddef>
#include <type_traits>

#include "integrators/declaration.hpp"

namespace geomint {

/// A method given at run time: its declaration is a data member of a value, not a constant.
template <class Method>
concept RunTimeMethod = std::is_member_object_pointer_v<decltype(&Method::declaration)>;

/// What a fixed-step class's constructor takes after the model: the method given at run time
/// (which must outlive the integrator), or nothing for a built-in one.
template <class Method, class... Given>
concept MethodArguments = sizeof...(Given) == (RunTimeMethod<Method> ? 1 : 0) &&
                          (std::same_as<Given, Method> && ...);

/// A built-in method `Method` of a family whose coefficients (a Butcher tableau, a
/// commutator-free scheme) `Coefficients` picks from a method: they are the constant
/// `Constant<...>` (integrators/butcher_tableau.hpp: ConstantTableau), and counted() gives a
/// count of them as a constant.
template <class Method, template <const auto&> class Constant, auto Coefficients>
class MethodSource {
 public:
  static constexpr Declaration declaration = Method::declaration;

 protected:
  static constexpr auto coefficients() { return Constant<Coefficients(Method{})>{}; }
  /// Count(coefficients), e.g. the stages a step evaluates.
  template <auto Count>
  static std::size_t counted() {
    constexpr std::size_t kCount = Count(Coefficients(Method{}));
    return kCount;
  }
};

/// A method given at run time: the declaration is per object (integrate() reads either), the
/// coefficients a reference into the method.
template <RunTimeMethod Method, template <const auto&> class Constant, auto Coefficients>
class MethodSource<Method, Constant, Coefficients> {
 public:
  const Declaration declaration;

 protected:
  explicit MethodSource(const Method& method) : declaration(method.declaration), method_(method) {}
  const auto& coefficients() const { return Coefficients(method_); }
  template <auto Count>
  std::size_t counted() const {
    return Count(coefficients());
  }
  const Method& method() const { return method_; }

 private:
  const Method& method_;
};

}  // namespace geomint
