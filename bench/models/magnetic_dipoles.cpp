// bench_integrators entries of the 4 x 4 magnetic dipoles (LLM Example 5), as
// bench/model_benchmarks.hpp describes; h and T as in studies/matrix.yaml.

#include "bench/model_benchmarks.hpp"
#include "bench/models/register.hpp"
#include "models/magnetic_dipoles.hpp"

namespace geomint::bench {

void register_magnetic_dipoles() {
  register_model_benchmarks(preset_problem<MagneticDipoles>("lee2009", /*h*/ 0.001, /*T*/ 1.0));
}

}  // namespace geomint::bench
