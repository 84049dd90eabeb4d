// What the streamed long-time statistics (studies/long_time_statistics.hpp) cost, side by side
// in one run, on the cheapest step of the bench (the explicit VI on the spherical pendulum, ~35
// ns) and on the double pendulum's implicit VI: 10^5 steps at the model's Exercise h,
//   long_time/bare/<model>/<integrator>        the silent integration (no observer)
//   long_time/invariants/<model>/<integrator>  observed at every step, every invariant and
//                                              manifold defect evaluated (what a study case's
//                                              metrics cost)
//   long_time/statistics/<model>/<integrator>  the statistics alone: the invariants evaluated and
//                                              added only where the statistics sample
//                                              (LongTimeStatistics::wants, ~256 points a bin)
// Counter s_per_step. The statistics' cost is statistics - bare; the bound is 5 % of
// bare (bench/README.md gives the ratios measured).

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "catalogue/integrator_on_model.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/model_contract.hpp"
#include "models/preset.hpp"
#include "models/spherical_pendulum.hpp"
#include "studies/long_time_statistics.hpp"

namespace geomint::bench {
namespace {

enum class Observed { Nothing, Invariants, Statistics };

template <class Model>
void run(benchmark::State& state, const char* integrator, Observed observed) {
  const auto& preset = find_preset<Model>(Model::kExercise.preset);
  const Model model(preset_parameters(preset, {}));
  const double h = Model::kExercise.h, T = 1e5 * h;
  const CompiledIntegrator<Model>& method = compiled_integrator<Model>(integrator);
  std::vector<double> values;
  LongTimeStatistics stats;
  for (auto _ : state) {
    state.PauseTiming();
    typename Model::State y = preset.initial_state(model);
    auto stepper = method.make(model, FixedStep{h}, 0.0, T);
    stats.start(long_time_quantities(all_invariants(model)), 0.0, T);
    state.ResumeTiming();
    if (observed == Observed::Nothing) {
      stepper->integrate(y, 0.0, T, 1e9);
    } else {
      stepper->integrate(y, 0.0, T, [&](double t, const typename Model::State& s) {
        if (observed == Observed::Statistics && !stats.wants(t)) return;
        evaluate_all_invariants(model, s, values);
        if (observed == Observed::Statistics) stats.add(t, values);
      }, 1e9);
    }
    benchmark::DoNotOptimize(y);
  }
  // Steps per second, inverted: the time per step (shown in seconds, e.g. 3.6e-08).
  state.counters["s_per_step"] = benchmark::Counter(1e5, benchmark::Counter::kIsIterationInvariantRate |
                                                              benchmark::Counter::kInvert);
}

template <class Model>
void register_entries(const char* integrator) {
  const std::string name = std::string(Model::kName) + "/" + integrator;
  for (const auto& [label, observed] : {std::pair{"bare", Observed::Nothing}, {"invariants", Observed::Invariants},
                                        {"statistics", Observed::Statistics}})
    benchmark::RegisterBenchmark(("long_time/" + std::string(label) + "/" + name).c_str(),
                                 [integrator, o = observed](benchmark::State& s) { run<Model>(s, integrator, o); })
        ->Unit(benchmark::kMillisecond);
}

const bool registered = [] {
  register_entries<SphericalPendulum>("vi_explicit");
  register_entries<DoubleSphericalPendulum>("vi_implicit");
  return true;
}();

}  // namespace
}  // namespace geomint::bench
