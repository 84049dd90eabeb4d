#pragma once
// One perf-gate workload (gates/perf_workloads.cpp): a name and how to set it up. The
// integrator workloads run the catalogue's compiled entries (catalogue/integrator_on_model.hpp),
// the code every study, test and benchmark runs, so the gate measures what is shipped.

#include <functional>
#include <string>
#include <vector>

#include "catalogue/integrator_on_model.hpp"
#include "integrators/work.hpp"
#include "models/preset.hpp"

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

/// `steps` steps of size h of the compiled entry (adaptive: over as long a time) on the preset.
template <class Model>
Workload integrator_workload(const CompiledIntegrator<Model>& integrator, const std::string& preset,
                             int steps, double h) {
  std::string name =
      std::string(Model::kName) + "/" + preset + "/" + std::string(integrator.name());
  return {std::move(name), [&integrator, preset, steps, h] {
            const auto& p = find_preset<Model>(preset);
            const Model model(preset_parameters(p, {}));
            const typename Model::State y0 = p.initial_state(model);
            return std::function<Work()>([&integrator, model, y0, steps, h] {
              const StepControl control =
                  control_for(*integrator.entry, FixedStep{h}, Tolerances{kRtol, kAtol});
              typename Model::State y = y0;
              return integrator.run(model, control, 0.0, steps * h, y);
            });
          }};
}

/// Every catalogued integrator of our own (the reference solvers are others' code) on the
/// model, if it offers the view, from the model's Exercise (models/exercise.hpp).
template <class Model>
void add_integrators(std::vector<Workload>& out) {
  for (const auto& c : compiled_integrators<Model>())
    if (c.runs && c.entry->family != Family::Reference)
      out.push_back(integrator_workload<Model>(c, std::string(Model::kExercise.preset), kSteps,
                                               Model::kExercise.h));
}

}  // namespace geomint
