// geomint's errors in Python. The C++ errors of errors/exit_status_errors.hpp cross as
//   InputError          ValueError, with its one-line message
//   MissingView         geomint.MissingView, a NotImplementedError (studies/model_instance.hpp)
//   IoError             OSError
//   IntegrationFailure  geomint.IntegrationFailure, a RuntimeError, through the subclass of its
//                       kind (geomint.NonConvergence, ...), with kind, time, step and partial
// Anything else is a bug, and crosses as pybind11's RuntimeError.
#include "python/errors.hpp"

#include <array>
#include <exception>
#include <utility>

#include "errors/exit_status_errors.hpp"
#include "python/module_parts.hpp"
#include "studies/model_instance.hpp"

namespace py = pybind11;

namespace geomint::python {

namespace {

constexpr std::array kFailureKinds = {FailureKind::NonConvergence, FailureKind::StepSizeUnderflow,
                                      FailureKind::LeftManifold, FailureKind::NonFinite,
                                      FailureKind::TooMuchWork};

// The exception classes, made once when the module is imported and kept for the life of the
// process (a static py::object would be released after the interpreter has gone).
struct Classes {
  PyObject* missing_view = nullptr;
  PyObject* integration_failure = nullptr;
  std::array<PyObject*, kFailureKinds.size()> kinds{};
};
Classes classes;

PyObject* new_class(py::module_& m, const char* name, const char* doc, PyObject* base) {
  const std::string qualified = "geomint." + std::string(name);
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!cls) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // the module takes a reference; ours is kept
  return cls;
}

PyObject* kind_class(std::string_view kind) {
  for (std::size_t i = 0; i < kFailureKinds.size(); ++i)
    if (to_string(kFailureKinds[i]) == kind) return classes.kinds[i];
  return classes.integration_failure;
}

/// Sets geomint.<kind> as the Python error.
void set_integration_failure(std::string_view kind, double time, long long step,
                             const std::string& message, py::object partial) {
  py::handle cls = kind_class(kind);
  py::object error = cls(message);
  error.attr("kind") = py::str(std::string(kind));
  error.attr("time") = time;
  error.attr("step") = step < 0 ? py::object(py::none()) : py::object(py::int_(step));
  error.attr("partial") = std::move(partial);
  PyErr_SetObject(cls.ptr(), error.ptr());
}

}  // namespace

void raise_integration_failure(std::string_view kind, double time, long long step,
                               const std::string& message, py::object partial) {
  set_integration_failure(kind, time, step, message, std::move(partial));
  throw py::error_already_set();
}

void bind_errors(py::module_& m) {
  classes.missing_view = new_class(
      m, "MissingView",
      "The model does not offer the view (AmbientOde, LieGroupOde, ...) or the exact solution "
      "asked of it; the message names it and the views the model offers.",
      PyExc_NotImplementedError);
  classes.integration_failure = new_class(
      m, "IntegrationFailure",
      "An integration failed. Attributes: kind (its class's name), time (t at the failure), step "
      "(the step that failed, or None), partial (the RunResult up to the failure, or None).",
      PyExc_RuntimeError);
  for (std::size_t i = 0; i < kFailureKinds.size(); ++i) {
    const std::string name(to_string(kFailureKinds[i]));
    classes.kinds[i] = new_class(m, name.c_str(), "A kind of geomint.IntegrationFailure.",
                                 classes.integration_failure);
  }

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const MissingView& e) {
      PyErr_SetString(classes.missing_view, e.what());
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const IoError& e) {
      PyErr_SetString(PyExc_OSError, e.what());
    } catch (const IntegrationFailure& e) {
      set_integration_failure(to_string(e.kind()), e.time(), -1, e.what(), py::none());
    }
  });
}

}  // namespace geomint::python
