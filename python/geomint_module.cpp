// The Python module `geomint`: the bench's models, integrators and studies from Python, numbers
// as NumPy float64 arrays. Each area is bound in a file of its own (python/module_parts.hpp).
#include <pybind11/pybind11.h>

#include "python/module_parts.hpp"

PYBIND11_MODULE(geomint, m) {
  m.doc() =
      "geomint: a verification bench for geometric integrators of mechanical systems.\n\n"
      "models() and Model(name, preset=..., params=...): a model's parameters, presets, state\n"
      "layout and invariants, its vector field, projection, Lie group action and exact\n"
      "solution at states you choose. run(model, integrator, h=..., T=...): one run through the\n"
      "study engine, as `geomint run`. study(spec, out): a study spec into a result folder, as\n"
      "`geomint study`. verify(integrator, models=..., out=..., order=...): its promises verified, as\n"
      "`geomint verify`. Bad input raises ValueError, an integration failure a subclass of\n"
      "IntegrationFailure, an input/output failure OSError.";
  geomint::python::bind_errors(m);
  geomint::python::bind_models(m);
  geomint::python::bind_run(m);
  geomint::python::bind_study(m);
  geomint::python::bind_verify(m);
}
