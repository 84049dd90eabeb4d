// One step of every fixed-step integrator on every model it runs on, one integration to
// T = 1 of every adaptive one, and the bare evaluations they are built from (vector field,
// potential gradient, Lie algebra generator). Entries follow the integrator catalogue, so a
// new integrator gets its benchmark by being catalogued.
//
//   build/release/bench/bench_integrators --benchmark_format=json > out/bench.json

#include <benchmark/benchmark.h>

#include <string>

#include "integrators/integrate.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/spherical_pendulum.hpp"
#include "studies/integrator_catalogue.hpp"

namespace geomint {
namespace {

template <class Model>
struct Fixture {
  Model model;
  typename Model::State y0;
  explicit Fixture(const std::string& preset)
      : model(preset_parameters(find_preset<Model>(preset), {})),
        y0(find_preset<Model>(preset).initial_state(model)) {}
};

template <class Model>
void register_model(const std::string& preset) {
  const std::string model_name(Model::kName);
  benchmark::RegisterBenchmark(("rhs/" + model_name).c_str(), [preset](benchmark::State& st) {
    Fixture<Model> f(preset);
    typename Model::State dy(f.y0.size());
    for (auto _ : st) {
      f.model.rhs(0.0, f.y0, dy);
      benchmark::DoNotOptimize(dy.data());
    }
  });
  benchmark::RegisterBenchmark(("potential_gradient/" + model_name).c_str(),
                               [preset](benchmark::State& st) {
                                 Fixture<Model> f(preset);
                                 typename Model::Points q = Model::positions(f.y0), g = q;
                                 for (auto _ : st) {
                                   f.model.potential_gradient(q, g);
                                   benchmark::DoNotOptimize(g.data());
                                 }
                               });
  benchmark::RegisterBenchmark(("generator/" + model_name).c_str(), [preset](benchmark::State& st) {
    Fixture<Model> f(preset);
    typename Model::Algebra xi(f.y0.size());
    for (auto _ : st) {
      f.model.generator(0.0, f.y0, xi);
      benchmark::DoNotOptimize(xi.data());
    }
  });
  for_each_integrator([&]<class Entry>() {
    if constexpr (Entry::template runs_on<Model>) {
      using Integrator = typename Entry::template type<Model>;
      const std::string name(Entry::declaration.name);
      if constexpr (Entry::declaration.adaptive) {
        benchmark::RegisterBenchmark(
            ("integrate_T1_rtol1e-8/" + model_name + "/" + name).c_str(),
            [preset](benchmark::State& st) {
              Fixture<Model> f(preset);
              IntegratorOptions opt;
              opt.rtol = 1e-8;
              opt.atol = 1e-11;
              std::int64_t steps = 0, evals = 0;
              for (auto _ : st) {
                Integrator integrator(f.model, opt);
                auto y = f.y0;
                integrate(integrator, y, 0.0, 1.0, [](double, const auto&) {});
                steps = integrator.work().steps;
                evals = integrator.work().f_evals;
                benchmark::DoNotOptimize(y.data());
              }
              st.counters["steps"] = static_cast<double>(steps);
              st.counters["f_evals"] = static_cast<double>(evals);
            });
      } else {
        benchmark::RegisterBenchmark(("step/" + model_name + "/" + name).c_str(),
                                     [preset](benchmark::State& st) {
                                       Fixture<Model> f(preset);
                                       IntegratorOptions opt;
                                       opt.h = 0.01;
                                       Integrator integrator(f.model, opt);
                                       auto y = f.y0;
                                       double t = 0.0;
                                       for (auto _ : st) {
                                         integrator.step(t, y, 0.01);
                                         t += 0.01;
                                         benchmark::DoNotOptimize(y.data());
                                       }
                                     });
      }
    }
  });
}

}  // namespace
}  // namespace geomint

int main(int argc, char** argv) {
  geomint::register_model<geomint::SphericalPendulum>("swing");
  geomint::register_model<geomint::DoubleSphericalPendulum>("lee2009");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
