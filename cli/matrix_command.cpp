// geomint matrix [--spec studies/matrix.yaml] --out DIR: every integrator on every model.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/limit_options.hpp"
#include "errors/exit_status_errors.hpp"
#include "studies/build_info.hpp"
#include "studies/engine.hpp"
#include "studies/process_group.hpp"
#include "studies/spec.hpp"
#include "studies/verdicts.hpp"

namespace geomint::cli {

namespace {
struct MatrixOptions {
  std::string spec, out;
  int jobs = 0;
  LimitOptions limits;
};
}  // namespace

Subcommand add_matrix_command(CLI::App& app) {
  auto o = std::make_shared<MatrixOptions>();
  o->spec = (std::filesystem::path(build_info::kSourceDir) / "studies" / "matrix.yaml").string();
  auto* cmd = app.add_subcommand(
      "matrix", "Run every integrator on every model for a short horizon at a few step sizes and "
                "tolerances (a pair that cannot run is reported n/a, with the view it lacks), and "
                "write a result directory whose report has the matrix page");
  cmd->add_option("--spec", o->spec, "the matrix spec (default: studies/matrix.yaml)");
  cmd->add_option("--out", o->out, "result directory")->required();
  cmd->add_option("--jobs", o->jobs, "worker threads (default: one per hardware thread; under MPI, each rank's share of its machine's)")
      ->check(CLI::NonNegativeNumber);
  o->limits.add_to(*cmd);
  return {cmd, [o] {
            const StudySpec spec = on_every_rank([&] {
              StudySpec loaded = load_study_spec(o->spec);
              o->limits.apply_to(loaded);
              if (loaded.kind != "matrix")
                throw InputError(o->spec + ": not a matrix spec (it needs kind: matrix)");
              return loaded;
            });
            StudyOptions options;
            options.out_dir = o->out;
            options.jobs = o->jobs;
            const StudySummary s = run_study(spec, options);
            if (process_rank() != 0) return 0;  // rank 0 reports
            std::fprintf(stderr, "geomint matrix: %d cases (%d n/a, %d failed, %d added by the window search) -> %s\n",
                         s.cases, s.not_applicable, s.failed, s.added, o->out.c_str());
            std::fprintf(stderr, "%s\n", verdict_summary(read_verdict_counts(o->out), o->out).c_str());
            return 0;
          }};
}

}  // namespace geomint::cli
