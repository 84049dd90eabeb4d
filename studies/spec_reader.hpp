#pragma once
// The reader of a study spec's keys, once the text and the shape of its YAML have been
// checked (studies/spec.cpp). Its parts are read in files of their own, one section of the
// spec each:
//   spec_top_level.cpp        the top-level keys, and the list of experiments
//   spec_methods.cpp          methods: (studies/user_method.hpp)
//   spec_command_method.cpp   a method of kind command (studies/external_command.hpp)
//   spec_experiment.cpp       one experiment: model, preset, parameters, initial state, plots
//   spec_reference.cpp        an experiment's reference:
//   spec_evoke.cpp            an experiment's evoke: (studies/pattern_evocation.hpp)
//   spec_runs.cpp             an experiment's runs: and all_integrators:, its cases
//   spec_published.cpp        an experiment's published: rows
//   spec_claims.cpp           an experiment's claims:
//   spec_known_deviations.cpp known_deviations:
//   spec_figures.cpp          figures:
// Not for use outside the spec reader.

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catalogue/integrator_declarations.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/spec.hpp"
#include "studies/spec_values.hpp"

namespace geomint::spec_reading {

const inline std::set<std::string> kTopLevelKeys = {
    "name",        "kind",        "title",   "description", "methods",
    "experiments", "every_model", "figures", "max_steps",   "max_output",
    "window_search", "known_deviations"};

/// What the case runner would refuse of an experiment's model and initial state before it
/// integrates (an unknown block, a block of the wrong size, a state off the manifold without
/// project_initial), found by the runner's own code; whether the model has bodies on S^2
/// to take snapshots of; and its state layout and invariants with the case's parameters.
struct ModelCheck {
  std::optional<std::string> initial_problem;
  bool has_bodies = false;
  StateLayout layout;
  std::vector<Invariant> invariants;
};

/// The keys of a method of kind `command`.
const inline std::set<std::string> kCommandMethodKeys = {
    "name", "kind", "description", "command", "order", "adaptive", "symplectic", "symmetric",
    "stays_on_manifold", "momentum", "timeout", "directory", "files"};

/// A method of kind `command`, checked: its template's placeholders, its folder (relative to
/// `spec_folder`) and files, its timeout and declared promises.
ExternalCommand read_command_method(const YAML::Node& node, const Context& mc, const std::filesystem::path& spec_folder);

/// The settings of a case, as a message names it.
std::string setting_text(const CaseSpec& c);

class SpecReader {
 public:
  SpecReader(const Source& source, StudySpec& spec) : source_(source), spec_(spec) {}

  void read(const YAML::Node& root);

 private:
  // -- the top level --
  void read_names(const YAML::Node& root, const Context& ctx);
  void read_limits(const YAML::Node& root, const Context& ctx);
  void read_every_model(const YAML::Node& root, const Context& ctx);
  void read_experiments(const YAML::Node& root, const Context& ctx);
  void read_experiment_entry(const YAML::Node& e, const Context& ec);
  void check_matrix(const YAML::Node& root, const Context& ctx) const;
  void add_experiment(ExperimentSpec ex, const YAML::Node& node, const Context& ctx);

  // -- methods --
  void read_methods(const YAML::Node& list, const Context& ctx);
  std::shared_ptr<const UserMethod> read_method(const YAML::Node& node, const Context& ctx);
  std::shared_ptr<const UserMethod> user_method(const std::string& name) const;
  const Declaration& declaration_of(const std::string& name, const YAML::Node& node,
                                    const Context& ctx) const;

  // -- experiments --
  ExperimentSpec read_experiment(const YAML::Node& node, const Context& outer,
                                 const std::string& preset_override,
                                 const ModelFace* exercise_of);
  const ModelFace& read_model(const YAML::Node& node, const Context& ec,
                               const std::string& preset_override, ExperimentSpec& ex) const;
  const ModelFace& find_model_at(const YAML::Node& at, const Context& ctx, const std::string& name) const;
  CaseSpec base_case(const ExperimentSpec& ex) const;
  void read_cases(const YAML::Node& node, const Context& ec, ExperimentSpec& ex, const CaseSpec& base,
                  const ModelFace* exercise_of);

  // -- an experiment's reference --
  ReferenceSpec read_reference(const YAML::Node& ref, const Context& ec,
                               const ModelFace& model) const;
  void check_other_formulation(const YAML::Node& ref, const Context& ec, const ExperimentSpec& ex) const;

  // -- an experiment's evoke --
  static EvokeSpec read_evoke(const YAML::Node& v, const Context& ctx, const ExperimentSpec& ex,
                              const ModelCheck& model);
  static std::pair<double, double> rate_range(const YAML::Node& v, const Context& ctx, const std::string& key,
                                              const std::string& what);
  static void check_evoked_cases(const ExperimentSpec& ex, const YAML::Node& experiment, const Context& ctx);

  // -- an experiment's cases --
  void add_case(ExperimentSpec& ex, CaseSpec c, const YAML::Node& node, const Context& ctx);
  static std::string run_key(const std::string& integrator, double h, double rtol, double atol);
  bool has_run(const std::string& integrator, double h, double rtol, double atol) const;
  std::vector<std::pair<double, double>> tolerances(const YAML::Node& run,
                                                    const Context& ctx) const;
  void read_runs(const YAML::Node& runs, const Context& ctx, ExperimentSpec& ex,
                 const CaseSpec& base);
  void read_same_steps_run(const YAML::Node& run, const Context& rc, ExperimentSpec& ex,
                           const CaseSpec& base);
  void read_setting_run(const YAML::Node& run, const Context& rc, ExperimentSpec& ex,
                        const CaseSpec& base);
  void read_all_integrators(const YAML::Node& all, const Context& ac, ExperimentSpec& ex,
                            const CaseSpec& base, std::optional<double> exercise_h);

  // -- an experiment's published rows and claims --
  void read_published(const YAML::Node& list, const Context& ctx, ExperimentSpec& ex);
  void read_claims(const YAML::Node& list, const Context& ctx, ExperimentSpec& ex);

  // -- after the experiments --
  void read_known_deviations(const YAML::Node& list, const Context& ctx);
  void read_figures(const YAML::Node& list, const Context& ctx);

  const Source& source_;
  StudySpec& spec_;
  std::size_t cases_ = 0;
  std::set<std::string> case_settings_, run_settings_;  // of the experiment being read
  std::set<std::string> figure_names_;
  std::map<std::string, std::shared_ptr<const UserMethod>> methods_by_name_;
  std::map<std::string, std::set<std::string>> parameter_names_;  // by model
};

}  // namespace geomint::spec_reading
