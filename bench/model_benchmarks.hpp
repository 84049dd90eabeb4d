#pragma once
// The bench_integrators entries of one model, compiled in its own translation unit (generated
// from bench/model_bench.cpp.in for every model of catalogue/model_registry.txt, at the model's
// Exercise) and registered by bench_integrators.cpp's main(). The integrators are the model's compiled catalogue (catalogue/integrator_on_model.hpp),
// the code geomint runs: a step/ entry times one virtual call into it per step, an integrate_
// entry one call per integration.
//
//   rhs/<label>                                  the bare vector field f(t, y0)
//   potential_gradient/<label>                   dV/dq at q0 (SphereLagrangian models)
//   generator/<label>                            the Lie algebra generator (LieGroupOde models)
//   step/<label>/<integrator>                    one step of every integrator that runs on the
//                                                model: fixed-step ones at h, adaptive ones one
//                                                advance() at kRtol, kAtol
//   integrate_T<T>_rtol1e-8/<label>/<integrator> every adaptive integrator, the peers (Boost.
//                                                Odeint, CVODE, ARKODE) included, from 0 to T
//                                                at kRtol, kAtol, set-up included
//
// Steps follow the trajectory from y0 and start again from y0 (a new integrator, out of the
// timing) when they reach T, so that every step is taken in the regime the integrate_ entries
// see, and no method is run past the horizon its step size is meant for.
//
// Counters: f_evals, the vector-field evaluations (potential gradients for the variational
// integrators) per step or per integration, difference-quotient Jacobians included; steps, per
// integration; s_per_f_eval, the CPU time per evaluation: against the bare rhs/ entry (or
// potential_gradient/, for the variational integrators), the ratio is the integrator's own
// overhead per evaluation (1 = none).

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#include "catalogue/integrator_on_model.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/step_control.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/views.hpp"

namespace geomint::bench {

// The tolerances of every adaptive entry, peers included (the names say rtol1e-8).
inline constexpr double kRtol = 1e-8;
inline constexpr double kAtol = 1e-11;

/// A model, its initial state and how the entries on it run.
template <class Model>
struct BenchProblem {
  std::string label;  // the model in the entry names
  std::function<ParameterSet()> parameters;
  std::function<typename Model::State(const Model&)> initial_state;
  double h;  // the step of the fixed-step step/ entries, from the model's time scale
  double T;  // the horizon of the integrate_ entries, and where step/ entries start again
  /// Which integrators get entries (by catalogue name); false leaves one out.
  std::function<bool(std::string_view)> benchmarks = [](std::string_view) { return true; };
  bool integrate_entries = true;  // register the integrate_ entries
};

/// A problem from one of the model's presets.
template <class Model>
BenchProblem<Model> preset_problem(const std::string& preset, double h, double T) {
  const auto& p = find_preset<Model>(preset);
  return {std::string(Model::kName), [&p] { return preset_parameters(p, {}); },
          p.initial_state, h, T};
}

/// The model's default exercise (models/exercise.hpp): its preset, h and T.
template <class Model>
BenchProblem<Model> exercise_problem() {
  return preset_problem<Model>(std::string(Model::kExercise.preset), Model::kExercise.h,
                               Model::kExercise.T);
}

namespace detail {

template <class Model>
struct Fixture {
  Model model;
  typename Model::State y0;
  explicit Fixture(const BenchProblem<Model>& p)
      : model(p.parameters()), y0(p.initial_state(model)) {}
};

/// The f_evals and s_per_f_eval counters for `evals` evaluations over the whole run.
inline void count_evaluations(benchmark::State& st, std::int64_t evals) {
  const auto n = static_cast<double>(evals);
  st.counters["f_evals"] = benchmark::Counter(n, benchmark::Counter::kAvgIterations);
  st.counters["s_per_f_eval"] =
      benchmark::Counter(n, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

inline std::string format_T(double T) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", T);
  return buf;
}

template <class Model>
void time_steps(benchmark::State& st, const BenchProblem<Model>& p,
                const CompiledIntegrator<Model>& method) {
  const Fixture<Model> f(p);
  const StepControl control = control_for(*method.entry, FixedStep{p.h}, Tolerances{kRtol, kAtol});
  const auto steps_to_T = static_cast<std::int64_t>(std::llround(p.T / p.h));
  const bool adaptive = method.entry->adaptive;
  auto integrator = method.make(f.model, control, 0.0, p.T);
  auto y = f.y0;
  double t = 0.0;
  std::int64_t k = 0, evals = 0;
  const typename IntegratorOnModel<Model>::Observer ignore = [](double, const typename Model::State&) {};
  try {
    for (auto _ : st) {
      if (adaptive ? !(t < p.T) : k == steps_to_T) {
        st.PauseTiming();
        evals += integrator->work().f_evals;
        integrator = method.make(f.model, control, 0.0, p.T);
        y = f.y0;
        t = 0.0;
        k = 0;
        st.ResumeTiming();
      }
      if (adaptive) {
        integrator->advance(t, y, p.T, ignore);
      } else {
        integrator->step(t, y, p.h);
        t = static_cast<double>(++k) * p.h;
      }
      benchmark::DoNotOptimize(y.data());
    }
  } catch (const IntegrationFailure& e) {
    st.SkipWithError(e.what());
    return;
  }
  count_evaluations(st, evals + integrator->work().f_evals);
}

template <class Model>
void time_integration(benchmark::State& st, const BenchProblem<Model>& p,
                      const CompiledIntegrator<Model>& method) {
  const Fixture<Model> f(p);
  const Tolerances tolerances{kRtol, kAtol};
  std::int64_t steps = 0, evals = 0;
  try {
    for (auto _ : st) {
      auto y = f.y0;
      const Work work = method.run(f.model, tolerances, 0.0, p.T, y);
      steps = work.steps;
      evals += work.f_evals;
      benchmark::DoNotOptimize(y.data());
    }
  } catch (const IntegrationFailure& e) {
    st.SkipWithError(e.what());
    return;
  }
  st.counters["steps"] = static_cast<double>(steps);
  count_evaluations(st, evals);
}

}  // namespace detail

/// Registers every entry of `p` (see the top of this file).
template <class Model>
void register_model_benchmarks(const BenchProblem<Model>& p) {
  using detail::Fixture;
  benchmark::RegisterBenchmark(("rhs/" + p.label).c_str(), [p](benchmark::State& st) {
    Fixture<Model> f(p);
    typename Model::State dy(f.y0.size());
    for (auto _ : st) {
      benchmark::DoNotOptimize(f.y0);  // else the compiler may evaluate f(y0) once, outside
      f.model.rhs(0.0, f.y0, dy);
      benchmark::DoNotOptimize(dy.data());
    }
    detail::count_evaluations(st, static_cast<std::int64_t>(st.iterations()));
  });
  if constexpr (SphereLagrangian<Model>) {
    benchmark::RegisterBenchmark(("potential_gradient/" + p.label).c_str(),
                                 [p](benchmark::State& st) {
                                   Fixture<Model> f(p);
                                   typename Model::Points q = Model::positions(f.y0), g = q;
                                   for (auto _ : st) {
                                     benchmark::DoNotOptimize(q);
                                     f.model.potential_gradient(q, g);
                                     benchmark::DoNotOptimize(g.data());
                                   }
                                   detail::count_evaluations(
                                       st, static_cast<std::int64_t>(st.iterations()));
                                 });
  }
  if constexpr (LieGroupOde<Model>) {
    benchmark::RegisterBenchmark(("generator/" + p.label).c_str(), [p](benchmark::State& st) {
      Fixture<Model> f(p);
      typename Model::Algebra xi(f.y0.size());
      for (auto _ : st) {
        benchmark::DoNotOptimize(f.y0);
        f.model.generator(0.0, f.y0, xi);
        benchmark::DoNotOptimize(xi.data());
      }
    });
  }
  const std::string integrate_prefix = "integrate_T" + detail::format_T(p.T) + "_rtol1e-8/";
  for (const CompiledIntegrator<Model>& method : compiled_integrators<Model>()) {
    const std::string name(method.name());
    if (!method.runs || !p.benchmarks(name)) continue;
    benchmark::RegisterBenchmark(("step/" + p.label + "/" + name).c_str(),
                                 [p, &method](benchmark::State& st) {
                                   detail::time_steps(st, p, method);
                                 });
    if (method.entry->adaptive && p.integrate_entries) {
      benchmark::RegisterBenchmark((integrate_prefix + p.label + "/" + name).c_str(),
                                   [p, &method](benchmark::State& st) {
                                     detail::time_integration(st, p, method);
                                   })
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace geomint::bench
