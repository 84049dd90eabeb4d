// bench_integrators entries of the N = 5 pendulum chain (Celledoni Section 5.3), as
// bench/model_benchmarks.hpp describes; h and T as in studies/matrix.yaml.

#include "bench/model_benchmarks.hpp"
#include "bench/models/register.hpp"
#include "models/pendulum_chain.hpp"

namespace geomint::bench {

void register_pendulum_chain() {
  register_model_benchmarks(preset_problem<PendulumChain>("celledoni2021_N5", /*h*/ 0.0025, /*T*/ 1.0));
}

}  // namespace geomint::bench
