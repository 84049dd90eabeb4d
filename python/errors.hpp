#pragma once
// Raising geomint's typed integration failure in Python (the classes are made by bind_errors,
// python/errors.cpp).

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>

namespace geomint::python {

/// Raises geomint.<kind> (a subclass of geomint.IntegrationFailure) with its attributes kind,
/// time, step, and partial (what was computed up to the failure, or None).
[[noreturn]] void raise_integration_failure(std::string_view kind, double time, long long step,
                                            const std::string& message, pybind11::object partial);

}  // namespace geomint::python
