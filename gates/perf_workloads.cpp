// The perf gate's workloads (scripts/perf-gate, gates/README.md): small, deterministic runs
// whose instructions callgrind counts.
//
//   perf_workloads --list        the workload names, one a line
//   perf_workloads NAME          runs that workload; prints {"workload", "steps", "f_evals"}
//
// A workload is 20 steps of one catalogued integrator of our own (adaptive ones: an
// integration over as long a time at rtol 1e-6) on one model of the registry, from the preset
// and step of the model's Exercise (models/exercise.hpp), so that a new integrator or model gets
// its workloads by its registry line; or one short study through the study engine
// (gates/perf_study.yaml). Only the workload itself is counted: the program runs under
// `valgrind --tool=callgrind --instr-atstart=no` and switches instrumentation on around it,
// so start-up, static initialisation, preset set-up and YAML parsing are left out. Each
// workload runs once uninstrumented first, so that lazy symbol binding and function-local
// statics are not counted either: what is counted is the steady state, the same on every run.
// Instrumentation (rather than callgrind's collection state) delimits the region because it
// is global: the study engine's worker thread is counted too.

#include <unistd.h>
#include <valgrind/callgrind.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/model_types.hpp"
#include "gates/workload.hpp"
#include "studies/engine.hpp"
#include "studies/spec.hpp"

namespace geomint {
namespace {

/// A temporary directory, removed with everything in it when the last owner lets go.
struct TemporaryDirectory {
  std::filesystem::path path;
  TemporaryDirectory()
      : path(std::filesystem::temp_directory_path() /
             ("geomint-perf-study-" + std::to_string(getpid()))) {}
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  ~TemporaryDirectory() { std::filesystem::remove_all(path); }
};

/// gates/perf_study.yaml through the study engine, one worker thread, each run into a fresh
/// directory (a study resumes from what it finds in its directory).
Workload study_workload() {
  return {"study/perf_study", [] {
            const auto spec =
                std::make_shared<StudySpec>(load_study_spec(GEOMINT_GATES_DIR "/perf_study.yaml"));
            const auto dir = std::make_shared<TemporaryDirectory>();
            auto runs = std::make_shared<int>(0);
            return std::function<Work()>([spec, dir, runs] {
              StudyOptions options;
              options.out_dir = (dir->path / std::to_string(++*runs)).string();
              options.jobs = 1;
              options.progress = false;
              options.timed_seconds = 0.0;  // one timed run: a count that does not depend on the clock
              const StudySummary summary = run_study(*spec, options);
              if (summary.failed > 0) throw std::runtime_error("perf_study: a case failed");
              return Work{};
            });
          }};
}

std::vector<Workload> workloads() {
  std::vector<Workload> out;
  for_each_model_type([&]<class Model>() { add_integrators<Model>(out); });
  // The 642 molecules of LLM Example 6, where the pair sum dominates: two explicit-VI steps.
  out.push_back(integrator_workload(compiled_integrator<SphereLennardJones>("vi_explicit"),
                                    "lee2009", 2, SphereLennardJones::kExercise.h));
  out.push_back(study_workload());
  return out;
}

int run(std::string_view name) {
  for (const auto& w : workloads()) {
    if (w.name != name) continue;
    const auto workload = w.prepare();
    workload();  // warm-up, uncounted
    CALLGRIND_START_INSTRUMENTATION;
    const Work work = workload();
    CALLGRIND_STOP_INSTRUMENTATION;
    std::printf("{\"workload\": \"%s\", \"steps\": %lld, \"f_evals\": %lld}\n", w.name.c_str(),
                static_cast<long long>(work.steps), static_cast<long long>(work.f_evals));
    return 0;
  }
  std::fprintf(stderr, "perf_workloads: unknown workload '%.*s' (see --list)\n",
               static_cast<int>(name.size()), name.data());
  return 2;
}

}  // namespace
}  // namespace geomint

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: perf_workloads --list | NAME\n");
    return 2;
  }
  const std::string_view arg = argv[1];
  try {
    if (arg != "--list") return geomint::run(arg);
    for (const auto& w : geomint::workloads()) std::printf("%s\n", w.name.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perf_workloads %s: %s\n", argv[1], e.what());
    return 1;
  }
}
