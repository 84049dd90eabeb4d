// bench_integrators entries of the double spherical pendulum (LLM Example 1 initial condition), as
// bench/model_benchmarks.hpp describes; h and T as these entries always had.

#include "bench/model_benchmarks.hpp"
#include "bench/models/register.hpp"
#include "models/double_spherical_pendulum.hpp"

namespace geomint::bench {

void register_double_spherical_pendulum() {
  register_model_benchmarks(preset_problem<DoubleSphericalPendulum>("lee2009", /*h*/ 0.01, /*T*/ 1.0));
}

}  // namespace geomint::bench
