#pragma once
// How the bench exercises a model when nothing else says: one of its presets, a step size at
// which every fixed-step integrator is stable and in its asymptotic range, and a short horizon
// on the model's time scale. The matrix (studies/matrix.yaml) runs every integrator at 2h, h
// and h/2 over T from this preset; the benchmarks and the perf gate's workloads step at h; the
// typed test suites take their problems from it. The long-time matrix
// (studies/long_time_matrix.yaml) runs every integrator once from the same preset at h over
// long_T: 10^5 steps of h, the minimum for a long run, unless a cell of the model would
// then exceed the long-time matrix's CPU budget of about 40 s a cell (2-core VM, 2026-11-28), where
// it is 2 10^4 steps: the quadrotors, whose projected adaptive methods take about 70 steps for
// each of h (CVODE BDF: 85 s for 10^5 steps of h). The elastic rod's costliest cell, projected
// CVODE Adams, takes 3 s for 2 10^4 steps: it runs its 10^5. The Lennard-Jones molecules run their 10^5 steps (their energy error rises for a few
// hundred time units before it settles: at 2 10^4 steps the VIs' alpha read 0.6 to 1.1, at 10^5
// 0.28 to 0.47), their costliest cell, projected CVODE Adams, about 35 s, but for the two
// constrained integrators, whose dense Newton iteration makes a step about 1 ms (100 s a cell,
// 2026-11-29): the two cells over budget are kept rather than the molecules' horizon cut. One declaration per
// model, so that a model added to the registry is in all of them.

#include <string_view>

namespace geomint {

struct Exercise {
  std::string_view preset;
  double h;
  double T;
  double long_T;
  /// Whether a symplectic method's energy error over 200 horizons T from the preset (the
  /// energy-drift suite, tests/conservation/test_energy_drift.cpp) is a bounded band whose
  /// drift measures the method: false where the orbit itself forbids it (it meets a
  /// singularity, or its energy error has a transient longer than that), and the suite leaves
  /// the model out of its classes.
  bool long_run_regular = true;
};

}  // namespace geomint
