// bench_integrators entries of the spherical pendulum (preset swing), as bench/model_benchmarks.hpp
// describes; h and T as these entries always had.

#include "bench/model_benchmarks.hpp"
#include "bench/models/register.hpp"
#include "models/spherical_pendulum.hpp"

namespace geomint::bench {

void register_spherical_pendulum() {
  register_model_benchmarks(preset_problem<SphericalPendulum>("swing", /*h*/ 0.01, /*T*/ 1.0));
}

}  // namespace geomint::bench
