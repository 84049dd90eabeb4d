#pragma once
// A registry model built with its parameters, behind one run-time face, for callers that evaluate
// a model at states they choose instead of running a case on it (the Python module, python/):
// its state layout, invariants and the preset's initial state, and what its views give at a
// state passed in as a vector (the vector field, the projection, the Lie group action) and its
// exact solution. A capability the model lacks throws MissingView, naming it. Implemented once,
// for every registry model, by ModelInstanceOf<M> (studies/model_instance_of.hpp); made by
// ModelFace::instance (studies/model_catalogue.hpp).
//
// An instance holds its model, whose evaluations use the model's scratch memory
// (models/sphere_model.hpp): one instance must not be used by two threads at once.

#include <Eigen/Core>
#include <string>
#include <string_view>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

/// Asked of a model for a capability it does not offer: "<model> has no <view> view (...)".
/// An InputError, so that the command line would report it with exit status 2.
class MissingView : public InputError {
 public:
  using InputError::InputError;
};

class ModelInstance {
 public:
  virtual ~ModelInstance() = default;

  virtual std::string_view name() const = 0;
  /// Its parameters: the defaults, then the preset's values, then the overrides.
  virtual const ParameterSet& parameters() const = 0;
  virtual const StateLayout& layout() const = 0;
  /// Every invariant: those it declares, then its blocks' manifold defects.
  virtual const std::vector<Invariant>& invariants() const = 0;
  /// The preset's initial state.
  virtual const Eigen::VectorXd& initial_state() const = 0;
  /// The views it offers, by the names the integrator x model matrix gives them (models/views.hpp).
  virtual std::vector<std::string_view> views() const = 0;

  // Every state below has the layout's dimension (else an InputError naming both sizes); every
  // model offers the AmbientOde view, the model contract's minimum.

  /// F(t, y) of y' = F(t, y) (AmbientOde).
  virtual Eigen::VectorXd rhs(double t, const Eigen::VectorXd& y) const = 0;
  /// y projected onto the model's manifold (AmbientOde).
  virtual Eigen::VectorXd project(const Eigen::VectorXd& y) const = 0;
  /// The invariants' values at y, in the order of invariants().
  virtual Eigen::VectorXd invariant_values(const Eigen::VectorXd& y) const = 0;

  // The LieGroupOde view: F(t, y) = psi_*(f(t, y))|_y with the group's exp-action (Celledoni
  // Section 2). Elements of the algebra have algebra_dimension() entries. MissingView without it.

  virtual Eigen::Index algebra_dimension() const = 0;
  /// f(t, y) in the algebra.
  virtual Eigen::VectorXd generator(double t, const Eigen::VectorXd& y) const = 0;
  /// exp(xi) . y.
  virtual Eigen::VectorXd exp_act(const Eigen::VectorXd& xi, const Eigen::VectorXd& y) const = 0;
  /// dexp^{-1}_a(b), exact (Celledoni Sections 2.2-2.3).
  virtual Eigen::VectorXd dexpinv(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const = 0;
  /// [a, b].
  virtual Eigen::VectorXd bracket(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const = 0;

  virtual bool has_exact_solution() const = 0;
  /// The exact state at time t of the solution through y0 at time 0; MissingView without one.
  virtual Eigen::VectorXd exact_solution(const Eigen::VectorXd& y0, double t) const = 0;
};

}  // namespace geomint
