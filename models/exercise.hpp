#pragma once
// How the bench exercises a model when nothing else says: one of its presets, a step size at
// which every fixed-step integrator is stable and in its asymptotic range, and a short horizon
// on the model's time scale. The matrix (studies/matrix.yaml) runs every integrator at 2h, h
// and h/2 over T from this preset; the benchmarks and the perf gate's workloads step at h; the
// typed test suites take their problems from it. One declaration per model, so that a model
// added to the registry is in all of them.

#include <string_view>

namespace geomint {

struct Exercise {
  std::string_view preset;
  double h;
  double T;
};

}  // namespace geomint
