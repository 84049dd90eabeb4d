// For every model of the registry (catalogue/model_registry.txt): the bare evaluations (vector field,
// potential gradient, Lie algebra generator), one step of every integrator that runs on it, and
// one integration of every adaptive one, Boost.Odeint, CVODE and ARKODE included
// (bench/model_benchmarks.hpp, one generated translation unit per model, at its Exercise); the
// 642 and 10^4 Lennard-Jones molecules (bench/sphere_lj_lee2009.cpp); and Dormand-Prince
// against Boost.Odeint's dopri5 at equal global error (bench/dopri_vs_odeint.cpp). main()
// registers every registry model's entries, which follow the integrator catalogue, so a new
// integrator or model gets its benchmarks by being catalogued or registered.
//
//   build/release/bench/bench_integrators --benchmark_format=json > out/bench.json

#include <benchmark/benchmark.h>

#include "bench/exercise_benchmarks.hpp"
#include "catalogue/model_types.hpp"

int main(int argc, char** argv) {
  geomint::for_each_model_type([]<class Model>() { geomint::bench::register_exercise_benchmarks<Model>(); });
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
