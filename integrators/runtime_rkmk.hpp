#pragma once
// An RKMK method whose Butcher tableau is data given at run time (a method a study spec defines
// by its coefficients, studies/README.md), with the group's own dexpinv (exact where the
// algebra has a closed form), so that it has the classical order of its tableau (Munthe-Kaas
// 1999; Celledoni Section 2.2). It steps with the stages of the built-in RKMK methods
// (detail::RkmkStages, integrators/rkmk.hpp); only the coefficients and the declaration are
// per object.

#include <vector>

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/rkmk.hpp"
#include "integrators/runtime_explicit_rk.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

/// What a built-in RKMK method struct (integrators/lie_group_methods.hpp) gives as constants,
/// with kDexpinvPower = kGroupDexpinv. The declaration's strings are owned by whoever owns the
/// method (studies/user_method.hpp).
struct RuntimeRkmkMethod {
  Declaration declaration;
  ButcherTableau<kDynamicStages> tableau;
};

/// Stages after the last one with a nonzero weight b_i are not evaluated, as in Rkmk.
template <LieGroupOde M>
class RuntimeRkmk {
 public:
  using Model = M;
  using State = typename M::State;
  using Algebra = typename M::Algebra;
  using Group = typename M::Group;
  /// Per object, unlike the built-ins' compile-time constant; integrate() reads either.
  const Declaration declaration;

  /// `method` must outlive the integrator.
  RuntimeRkmk(const M& model, const IntegratorOptions& opt, const RuntimeRkmkMethod& method)
      : declaration(method.declaration),
        model_(model),
        method_(method),
        h_(checked_step_size(opt, declaration.name)),
        stages_used_(detail::stages_used(method.tableau.b)),
        stages_(model, method.tableau.stages()) {
    require_order_conditions(method.tableau, declaration);
    sigma_.resize(algebra_dimension(model));
  }

  double step_size() const { return h_; }
  const Work& work() const { return work_; }

  void step(double t, State& y, double h) {
    stages_.evaluate(method_.tableau, model_, t, y, h, 0, stages_used_, work_);
    stages_.combine(method_.tableau.b, h, stages_used_, sigma_);
    Group::exp_act(sigma_, y);
    ++work_.exponentials;
    ++work_.steps;
  }

 private:
  const M& model_;
  const RuntimeRkmkMethod& method_;
  double h_;
  std::size_t stages_used_;
  detail::RkmkStages<M, kDynamicStages, kGroupDexpinv> stages_;
  Algebra sigma_;
  Work work_;
};

}  // namespace geomint
