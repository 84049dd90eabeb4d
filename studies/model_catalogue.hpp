#pragma once
// Every model of the registry (catalogue/model_registry.txt), by name, behind one named run-time
// face: its description, parameters and presets, running a case on it, its exact solution and
// what else it can do (the study level's type erasure over models).

#include <Eigen/Core>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/state_blocks.hpp"
#include "models/parameters.hpp"
#include "studies/case.hpp"
#include "studies/model_instance.hpp"

namespace geomint {

/// A model of the registry at run time, by name: what it is, how to run a case on it, and what
/// it can do (the capability queries answer "no" unless the model offers the capability).
/// Implemented once, for every registry model, by ModelFaceOf<M> (studies/model_catalogue.cpp).
class ModelFace {
 public:
  virtual ~ModelFace() = default;

  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  /// The preset, step and horizon its exercises run by default (models/exercise.hpp).
  virtual const Exercise& exercise() const = 0;
  virtual ParameterSet default_parameters() const = 0;
  /// Its presets: name, description.
  virtual std::vector<std::pair<std::string, std::string>> presets() const = 0;
  /// The defaults, then the preset's values, then the overrides.
  virtual ParameterSet parameters_for(const std::string& preset,
                                      const std::map<std::string, double>& overrides) const = 0;
  /// The state layout and every invariant (declared, then the blocks' defects) of the model
  /// with its default parameters.
  virtual std::pair<StateLayout, std::vector<Invariant>> declarations() const = 0;
  /// The catalogue integrators that run on it (it offers the view each needs), in catalogue
  /// order.
  virtual std::vector<std::string_view> integrators() const = 0;

  virtual CaseResult run(const CaseSpec& spec, const CaseHooks& hooks) const = 0;
  /// Builds the case's model and initial state without running (InputError if not valid), so
  /// that a spec is checked whole before anything runs; returns the state layout and every
  /// invariant of the model with the case's parameters.
  virtual std::pair<StateLayout, std::vector<Invariant>> check_initial_state(
      const CaseSpec& spec) const = 0;
  /// The model built with the preset's parameters and the overrides, to be evaluated at states
  /// the caller chooses (studies/model_instance.hpp); an InputError names an unknown preset or
  /// parameter, or a value outside its domain.
  virtual std::unique_ptr<ModelInstance> instance(
      const std::string& preset, const std::map<std::string, double>& overrides) const = 0;

  /// It has an exact solution, which can be a study's reference.
  virtual bool has_exact_solution() const { return false; }
  /// The exact state at the case's T from its initial state (InputError without one).
  virtual Eigen::VectorXd exact_final_state(const CaseSpec& spec) const = 0;
  /// The model this one is another formulation of (models/formulation.hpp), or empty.
  virtual std::string_view formulation_of() const { return {}; }
  /// A final state of a case (built with the case's parameters) mapped to that model's state
  /// (InputError if it is no other model's formulation).
  virtual Eigen::VectorXd state_in_other_formulation(const CaseSpec& spec,
                                                     const Eigen::VectorXd& y) const;
  /// It has bodies on S^2, of which a study can take snapshots.
  virtual bool has_bodies() const { return false; }
  /// The names of the curves in R^3 it draws (models/curves.hpp), for a `curves` plot.
  virtual std::vector<std::string> curve_names() const { return {}; }
  /// The pairs of curves joined at each time of a `formation` plot (models/formation.hpp).
  virtual std::vector<std::pair<int, int>> curve_links() const { return {}; }
  /// The names of its outputs (models/outputs.hpp), for an `outputs` plot.
  virtual std::vector<std::string> output_names() const { return {}; }
  /// It gives y' = F(t, y) (models/views.hpp: AmbientOde), whose components a `components`
  /// plot can draw.
  virtual bool has_vector_field() const { return false; }
  /// It draws its configuration as a chain of points (models/configuration.hpp), which a
  /// `paths` plot draws instead of its S^2 blocks.
  virtual bool draws_configuration() const { return false; }
};

/// Every registry model, in registry order.
const std::vector<const ModelFace*>& model_catalogue();

/// The entry of a model; an unknown name is an InputError listing the known ones.
const ModelFace& find_model(std::string_view name);

/// Runs one case (dispatching on the model's name).
CaseResult run_case(const CaseSpec& spec, const CaseHooks& hooks);

}  // namespace geomint
