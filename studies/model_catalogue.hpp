#pragma once
// Every model of the registry (catalogue/model_registry.txt), by name: its description, parameters and
// presets, and the entry points that run a case on it and give its exact solution (the study
// level's type erasure).

#include <Eigen/Core>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/state_blocks.hpp"
#include "models/parameters.hpp"
#include "studies/case.hpp"

namespace geomint {

struct ModelEntry {
  std::string_view name;
  std::string_view description;
  Exercise exercise;
  ParameterSet (*default_parameters)();
  std::vector<std::pair<std::string, std::string>> (*presets)();  // name, description
  /// The defaults, then the preset's values, then the overrides.
  ParameterSet (*parameters_for)(const std::string& preset, const std::map<std::string, double>& overrides);
  CaseResult (*run)(const CaseSpec&, const CaseHooks&);
  /// The state layout and every invariant (declared, then the blocks' defects) of the model
  /// with its default parameters.
  std::pair<StateLayout, std::vector<Invariant>> (*declarations)();
  bool has_exact_solution;  // can be a study's exact reference
  /// The exact state at the case's T from its initial state (InputError without one).
  Eigen::VectorXd (*exact_final_state)(const CaseSpec&);
  /// Builds the case's model and initial state without running (InputError if not valid), so
  /// that a spec is checked whole before anything runs; returns the state layout and every
  /// invariant of the model with the case's parameters.
  std::pair<StateLayout, std::vector<Invariant>> (*check_initial_state)(const CaseSpec&);
  /// The model this one is another formulation of (models/formulation.hpp), or empty; and
  /// its final state of a case (built with the case's parameters) mapped to that model's state.
  std::string_view formulation_of;
  Eigen::VectorXd (*state_in_other_formulation)(const CaseSpec&, const Eigen::VectorXd&);
  bool has_bodies;  // bodies on S^2, of which a study can take snapshots
  int curves;  // how many named curves in R^3 it draws (models/curves.hpp), for a `curves` plot
  /// The pairs of curves joined at each time of a `formation` plot (models/formation.hpp).
  std::vector<std::pair<int, int>> curve_links;
  int outputs;  // how many named outputs it has (models/outputs.hpp), for an `outputs` plot
};

const std::vector<ModelEntry>& model_catalogue();

/// The entry of a model; an unknown name is an InputError listing the known ones.
const ModelEntry& find_model(std::string_view name);

/// Runs one case (dispatching on the model's name).
CaseResult run_case(const CaseSpec& spec, const CaseHooks& hooks);

}  // namespace geomint
