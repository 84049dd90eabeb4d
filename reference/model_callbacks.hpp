#pragma once
// A model's right-hand side and projection as the plain C-style callbacks the SUNDIALS cores
// (reference/cvode.cpp, reference/arkode.cpp) call on their own arrays.

#include <Eigen/Core>

#include "models/views.hpp"

namespace geomint::detail {

/// dy = f(t, y) for arrays of the solver's length. It may throw: the cores carry the exception
/// across the C frames and rethrow it.
using RhsCallback = void (*)(double t, const double* y, double* dy, void* user_data);
/// y <- the model's projection of y onto its manifold, in place. It may throw, as RhsCallback.
using ProjectCallback = void (*)(double* y, void* user_data);

/// Adapts M's rhs and project to RhsCallback and ProjectCallback (user_data = this), through
/// preallocated State buffers: the model takes its own State type, which may be fixed-size.
/// The cores hold `this`, so it must not move.
template <AmbientOde M>
class ModelCallbacks {
 public:
  using State = typename M::State;

  explicit ModelCallbacks(const M& model) : model_(model) {
    y_.resize(model.dimension());
    dy_.resize(model.dimension());
  }
  ModelCallbacks(const ModelCallbacks&) = delete;
  ModelCallbacks& operator=(const ModelCallbacks&) = delete;

  static void rhs(double t, const double* y, double* dy, void* self) {
    auto& me = *static_cast<ModelCallbacks*>(self);
    const Eigen::Index n = me.y_.size();
    me.y_ = Eigen::Map<const State>(y, n);
    me.model_.rhs(t, me.y_, me.dy_);
    Eigen::Map<State>(dy, n) = me.dy_;
  }

  static void project(double* y, void* self) {
    auto& me = *static_cast<ModelCallbacks*>(self);
    const Eigen::Index n = me.y_.size();
    me.y_ = Eigen::Map<const State>(y, n);
    me.model_.project(me.y_);
    Eigen::Map<State>(y, n) = me.y_;
  }

 private:
  const M& model_;
  State y_, dy_;
};

}  // namespace geomint::detail
