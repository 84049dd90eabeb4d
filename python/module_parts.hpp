#pragma once
// The areas of the Python module `geomint` (python/geomint_module.cpp), one source file each:
// adding a function to the module is a bind_* here, its file, and one call in the module.

#include <pybind11/pybind11.h>

namespace geomint::python {

/// geomint.IntegrationFailure and its kinds, geomint.MissingView, and the translation of
/// geomint's C++ errors into Python exceptions (python/errors.cpp).
void bind_errors(pybind11::module_& m);
/// geomint.models(), geomint.integrators(), geomint.Model (python/models.cpp).
void bind_models(pybind11::module_& m);
/// geomint.run() and geomint.RunResult (python/run.cpp).
void bind_run(pybind11::module_& m);
/// geomint.study() (python/study.cpp).
void bind_study(pybind11::module_& m);
/// geomint.verify() (python/verify.cpp).
void bind_verify(pybind11::module_& m);

}  // namespace geomint::python
