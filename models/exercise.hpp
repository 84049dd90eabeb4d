#pragma once
// How the bench exercises a model when nothing else says: one of its presets, a step size at
// which every fixed-step integrator is stable and in its asymptotic range, and a short horizon
// on the model's time scale. The matrix (studies/matrix.yaml) runs every integrator at 2h, h
// and h/2 over T from this preset; the benchmarks and the perf gate's workloads step at h; the
// typed test suites take their problems from it. The long-time matrix
// (studies/long_time_matrix.yaml) runs every integrator once from the same preset at h over
// long_T: 10^5 steps where an RK4 step costs under 10 us, 2 10^4 steps for the elastic rod and
// the Lennard-Jones molecules, whose RK4 steps cost 13.6 and 10.9 us (2-core VM, 2026-11-28),
// keeping each of their fixed-step cells within about 0.3 s. One declaration per model, so that
// a model added to the registry is in all of them.

#include <string_view>

namespace geomint {

struct Exercise {
  std::string_view preset;
  double h;
  double T;
  double long_T;
};

}  // namespace geomint
