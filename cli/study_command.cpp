// geomint study SPEC --out DIR
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.hpp"
#include "cli/limit_options.hpp"
#include "studies/engine.hpp"
#include "studies/process_group.hpp"
#include "studies/spec.hpp"
#include "studies/verdicts.hpp"

namespace geomint::cli {

namespace {
struct StudyCommandOptions {
  std::string spec, out;
  int jobs = 0;
  LimitOptions limits;
  bool quiet = false;
};
}  // namespace

Subcommand add_study_command(CLI::App& app) {
  auto o = std::make_shared<StudyCommandOptions>();
  auto* cmd = app.add_subcommand(
      "study", "Run a study spec (studies/*.yaml) and write its result directory: manifest.json, "
               "cases.csv, orders.csv, reproduction.csv, series/ (see docs/result-files.md). An "
               "interrupted study resumes where it stopped.");
  cmd->add_option("spec", o->spec, "the study spec, e.g. studies/lee2009.yaml")
      ->required();
  cmd->add_option("--out", o->out, "result directory")->required();
  cmd->add_option("--jobs", o->jobs, "worker threads (default: one per hardware thread; under MPI, each rank's share of its machine's)")
      ->check(CLI::NonNegativeNumber);
  o->limits.add_to(*cmd);
  cmd->add_flag("--quiet", o->quiet, "no progress lines");
  return {cmd, [o] {
            const StudySpec spec = on_every_rank([&] {
              StudySpec loaded = load_study_spec(o->spec);
              o->limits.apply_to(loaded);
              return loaded;
            });
            StudyOptions options;
            options.out_dir = o->out;
            options.jobs = o->jobs;
            options.progress = !o->quiet;
            const StudySummary s = run_study(spec, options);
            if (process_rank() != 0) return 0;  // rank 0 reports
            std::fprintf(stderr, "geomint study %s: %d cases (%d resumed, %d failed, %d n/a, %d added by the window search) -> %s\n",
                         spec.name.c_str(), s.cases, s.resumed, s.failed, s.not_applicable, s.added,
                         o->out.c_str());
            std::fprintf(stderr, "%s\n", verdict_summary(read_verdict_counts(o->out), o->out).c_str());
            return 0;
          }};
}

}  // namespace geomint::cli
