#pragma once
// One perf-gate workload (gates/perf_workloads.cpp): a name and how to set it up, and the
// integrator workloads of one model, which gates/model_workloads.cpp.in registers from a
// translation unit of their own per model, as the study runner's (studies/run_model.cpp.in),
// so that the compiler inlines the model's right-hand side into the steps as it does there.

#include <functional>
#include <string>
#include <vector>

#include "integrators/integrate.hpp"
#include "integrators/work.hpp"
#include "models/preset.hpp"
#include "studies/integrator_catalogue.hpp"

namespace geomint {

/// Fixed-step workloads take kSteps steps; adaptive ones integrate over as long a time at
/// these tolerances.
constexpr int kSteps = 20;
constexpr double kRtol = 1e-6, kAtol = 1e-9;

/// A workload: `prepare` sets it up (uncounted) and returns the run that is counted, which may
/// be called more than once and does the same work each time.
struct Workload {
  std::string name;
  std::function<std::function<Work()>()> prepare;
};

/// The workloads registered before main() runs (gates/model_workloads.cpp.in).
std::vector<Workload>& registered_workloads();

template <class Model, class Integrator>
Workload integrator_workload(const std::string& preset, int steps, double h) {
  std::string name =
      std::string(Model::kName) + "/" + preset + "/" + std::string(Integrator::declaration.name);
  return {std::move(name), [preset, steps, h] {
            const auto& p = find_preset<Model>(preset);
            const Model model(preset_parameters(p, {}));
            const typename Model::State y0 = p.initial_state(model);
            return std::function<Work()>([model, y0, steps, h] {
              IntegratorOptions opt;
              opt.h = h;
              opt.rtol = kRtol;
              opt.atol = kAtol;
              opt.T = steps * h;
              Integrator integrator(model, opt);
              typename Model::State y = y0;
              integrate(integrator, y, 0.0, opt.T, [](double, const typename Model::State&) {});
              return integrator.work();
            });
          }};
}

/// Every catalogued integrator of our own (the reference solvers are others' code) on the
/// model, if it offers the view, from the model's Exercise (models/exercise.hpp).
template <class Model>
void add_integrators(std::vector<Workload>& out) {
  for_each_integrator([&]<class Entry>() {
    if constexpr (Entry::declaration.family != Family::Reference && Entry::template runs_on<Model>)
      out.push_back(integrator_workload<Model, typename Entry::template type<Model>>(
          std::string(Model::kExercise.preset), kSteps, Model::kExercise.h));
  });
}

}  // namespace geomint
