// bench_integrators entries of the spring-coupled pendula (LLM Example 3), as
// bench/model_benchmarks.hpp describes; h and T as in studies/matrix.yaml.

#include "bench/model_benchmarks.hpp"
#include "bench/models/register.hpp"
#include "models/spring_pendula.hpp"

namespace geomint::bench {

void register_spring_pendula() {
  register_model_benchmarks(preset_problem<SpringPendula>("lee2009", /*h*/ 0.001, /*T*/ 0.5));
}

}  // namespace geomint::bench
