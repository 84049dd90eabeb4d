// bench_integrators entries of three bodies on the sphere (LLM Example 2), as
// bench/model_benchmarks.hpp describes; h and T as in studies/matrix.yaml.

#include "bench/model_benchmarks.hpp"
#include "bench/models/register.hpp"
#include "models/sphere_nbody.hpp"

namespace geomint::bench {

void register_sphere_nbody() {
  register_model_benchmarks(preset_problem<SphereNBody>("lee2009", /*h*/ 0.005, /*T*/ 1.0));
}

}  // namespace geomint::bench
