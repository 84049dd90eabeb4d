// geomint verify (--integrator NAME | --command TEMPLATE --order P ...) --model M... --out DIR:
// the declared promises of one integrator, a built-in one or anyone's as a command
// (studies/external_command.hpp), verified on chosen models by a generated study
// (studies/verification.hpp), each verdict printed on a line of its own.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "errors/exit_status_errors.hpp"
#include "studies/process_group.hpp"
#include "studies/verification.hpp"

namespace geomint::cli {

namespace {

/// A promise broken: verify's own status beside the contract's 0, 2, 3 and 4 (cli/main.cpp).
constexpr int kPromiseBroken = 5;

struct VerifyOptions {
  VerificationRequest request;  // the models and settings, bound to their options directly
  std::string integrator, command, name = "external", out;
  CommandPromises promises;
  double timeout = 600.0;
  std::vector<std::string> files;
  bool quiet = false;
  int jobs = 0;
};

VerificationRequest request_from(const VerifyOptions& o, const CLI::App& cmd) {
  VerificationRequest r = o.request;
  if (!o.integrator.empty()) {
    for (const char* promise : {"--order", "--adaptive", "--symplectic", "--symmetric", "--stays-on-manifold",
                                "--momentum", "--timeout", "--file", "--name"})
      if (cmd.count(promise))
        throw InputError(std::string(promise) + " declares a command's promises: the built-in " + o.integrator +
                         " declares its own");
    r.name = o.integrator;
    return r;
  }
  if (!cmd.count("--order")) throw InputError("--command needs --order, the order it promises");
  r.name = o.name;
  r.command = command_in_current_folder(o.command, o.promises, o.timeout);
  r.command_files = o.files;
  return r;
}

/// "  spherical_pendulum  order  kept  fitted 2.01 ..." for every verdict, and the failures.
void print_verdicts(const std::vector<Verdict>& verdicts) {
  std::size_t width = 0;
  for (const Verdict& v : verdicts) width = std::max(width, v.experiment.size());
  for (const Verdict& v : verdicts) {
    const std::string state(to_string(v.state));
    std::printf("  %-*s  %-14s %-12s %s\n", static_cast<int>(width), v.experiment.c_str(), v.promise.c_str(),
                state.c_str(), v.reason.c_str());
  }
}

}  // namespace

Subcommand add_verify_command(CLI::App& app) {
  auto o = std::make_shared<VerifyOptions>();
  auto* cmd = app.add_subcommand(
      "verify",
      "Verify an integrator's declared promises on chosen models: a built-in one (--integrator), or yours in any "
      "language as a command template (--command, docs/external-integrators.md). Runs a generated study "
      "(DIR/verify.yaml) into DIR and prints every verdict. Exit status 5 when a promise is broken, else 3 when a "
      "run failed.");
  auto* integrator = cmd->add_option("--integrator", o->integrator, "a built-in integrator (geomint list integrators)");
  auto* command = cmd->add_option("--command", o->command,
                                  "your integrator as a command template, e.g. \"python3 rk.py --init {init} --out "
                                  "{out}\" (placeholders: docs/external-integrators.md)");
  integrator->excludes(command);
  cmd->add_option("--name", o->name, "the command's name in the results (default: external)");
  cmd->add_option("--order", o->promises.order, "the order the command promises")->check(CLI::Range(1, 20));
  cmd->add_flag("--adaptive", o->promises.adaptive, "the command chooses its steps: it takes {rtol} and {atol}, not {h}");
  cmd->add_flag("--symplectic", o->promises.symplectic, "the command promises a symplectic map (bounded energy, momentum maps)");
  cmd->add_flag("--symmetric", o->promises.symmetric, "the command promises a symmetric method (its reversibility is measured in the long experiment, which this adds)");
  cmd->add_flag("--stays-on-manifold", o->promises.stays_on_manifold, "the command promises to keep every manifold defect at round-off");
  cmd->add_flag("--momentum", o->promises.momentum, "the command promises to conserve the model's momentum maps");
  cmd->add_option("--timeout", o->timeout, "seconds a run of the command may last (default 600)")
      ->check(CLI::Range(1e-3, 86400.0));
  cmd->add_option("--file", o->files, "a file the command reads, keyed with its results (its script is found itself)");
  cmd->add_option("--model", o->request.models, "a model to verify on (repeat for several; geomint list models)")->required();
  cmd->add_option("--preset", o->request.preset, "the models' preset (default: each model's exercise preset)");
  cmd->add_option("--T", o->request.T, "the horizon (default: each model's exercise horizon)");
  cmd->add_option("--h", o->request.h, "the step sizes (default: 4h .. h/4 of each model's exercise step)")->delimiter(',');
  cmd->add_option("--rtol", o->request.rtol, "an adaptive method's tolerances (default 1e-4, 1e-6, 1e-8)")->delimiter(',');
  cmd->add_flag("--long", o->request.long_run, "also a long-time experiment over each model's long horizon");
  cmd->add_option("--out", o->out, "result directory")->required();
  cmd->add_option("--jobs", o->jobs, "worker threads (default: one per hardware thread)")->check(CLI::NonNegativeNumber);
  cmd->add_flag("--quiet", o->quiet, "no progress lines");
  return {cmd, [o, cmd] {
            if (o->integrator.empty() == o->command.empty())
              throw InputError("give the integrator to verify: --integrator NAME or --command TEMPLATE");
            const VerificationRequest request = request_from(*o, *cmd);
            StudyOptions options;
            options.out_dir = o->out;
            options.jobs = o->jobs;
            options.progress = !o->quiet;
            const VerificationResult result = run_verification(request, options);
            if (process_rank() != 0) return 0;
            const StudySummary& s = result.summary;
            std::printf("geomint verify %s on %zu model%s: %d runs, %d failed -> %s\n", request.name.c_str(),
                        request.models.size(), request.models.size() == 1 ? "" : "s", s.cases, s.failed,
                        o->out.c_str());
            print_verdicts(result.verdicts);
            const VerdictCounts counts = read_verdict_counts(o->out);
            std::printf("%s\n", verdict_summary(counts, o->out).c_str());
            const std::string failed = std::to_string(s.failed) + " of " + std::to_string(s.cases) + " runs of " +
                                       request.name + " failed (" +
                                       (std::filesystem::path(o->out) / "cases.csv").string() + ")";
            if (counts.broken > 0) {  // the verdict first: a failed run is part of its reason
              std::fprintf(stderr, "geomint: verify: %d promise%s of %s broken%s\n", counts.broken,
                           counts.broken == 1 ? "" : "s", request.name.c_str(),
                           s.failed > 0 ? ("; " + failed).c_str() : "");
              return kPromiseBroken;
            }
            if (s.failed > 0) {
              std::fprintf(stderr, "geomint: verify: %s; the first: %s\n", failed.c_str(), s.first_failure.c_str());
              return 3;
            }
            return 0;
          }};
}

}  // namespace geomint::cli
