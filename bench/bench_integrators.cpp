// For every model of the catalogue: the bare evaluations (vector field, potential gradient, Lie
// algebra generator), one step of every integrator that runs on it, and one integration of
// every adaptive one, Boost.Odeint, CVODE and ARKODE included (bench/model_benchmarks.hpp,
// one translation unit per model in bench/models/); and Dormand-Prince against Boost.Odeint's
// dopri5 at equal global error (bench/dopri_vs_odeint.cpp). Entries follow the integrator
// catalogue, so a new integrator gets its benchmarks by being catalogued.
//
//   build/release/bench/bench_integrators --benchmark_format=json > out/bench.json

#include <benchmark/benchmark.h>

#include "bench/models/register.hpp"

int main(int argc, char** argv) {
  using namespace geomint::bench;
  register_spherical_pendulum();
  register_double_spherical_pendulum();
  register_pendulum_chain();
  register_sphere_nbody();
  register_spring_pendula();
  register_elastic_rod();
  register_magnetic_dipoles();
  register_sphere_lj();
  register_dopri_vs_odeint();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
