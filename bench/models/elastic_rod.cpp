// bench_integrators entries of the elastic rod of 10 elements (LLM Example 4), as
// bench/model_benchmarks.hpp describes; h and T as in studies/matrix.yaml, which the stiff rod
// needs.

#include "bench/model_benchmarks.hpp"
#include "bench/models/register.hpp"
#include "models/elastic_rod.hpp"

namespace geomint::bench {

void register_elastic_rod() {
  register_model_benchmarks(preset_problem<ElasticRod>("lee2009", /*h*/ 2.5e-5, /*T*/ 0.1));
}

}  // namespace geomint::bench
