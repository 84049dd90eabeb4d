#pragma once
// Registers bench_integrators' entries of one model at its Exercise (bench/model_benchmarks.hpp).
// Specialised for every model of catalogue/model_registry.txt in the model's own translation
// unit (generated from bench/model_bench.cpp.in), so that main() can register them all with
// for_each_model_type without compiling them again.

namespace geomint::bench {

template <class Model>
void register_exercise_benchmarks();

}  // namespace geomint::bench
