#pragma once
// An explicit Runge-Kutta method whose tableau is data given at run time (a method a study spec
// defines by its coefficients, studies/README.md), on the AmbientOde view, optionally
// reprojected onto the manifold after every step. It steps with the code of the built-in
// methods (detail::explicit_rk_step, integrators/explicit_rk.hpp); only the coefficients and
// the declaration are per object.

#include <cstdint>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "integrators/options.hpp"
#include "integrators/order_conditions.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

/// What a built-in method struct (integrators/classical_methods.hpp) gives as constants. The
/// declaration's strings are owned by whoever owns the method (studies/user_method.hpp).
struct RuntimeRkMethod {
  Declaration declaration;
  ButcherTableau<kDynamicStages> tableau;
  bool reproject = false;
};

/// Refuses a tableau that is not an explicit method of the declared order
/// (integrators/order_conditions.hpp), naming the method and the first violated condition.
inline void require_order_conditions(const ButcherTableau<kDynamicStages>& tableau,
                                     const Declaration& declaration) {
  if (const auto defect = tableau_defect(tableau, declaration.order))
    throw InputError(std::string(declaration.name) + ": " + defect->what);
}

template <AmbientOde M>
class RuntimeExplicitRk {
 public:
  using Model = M;
  using State = typename M::State;
  /// Per object, unlike the built-ins' compile-time constant; integrate() reads either.
  const Declaration declaration;

  /// `method` must outlive the integrator.
  RuntimeExplicitRk(const M& model, const IntegratorOptions& opt, const RuntimeRkMethod& method)
      : declaration(method.declaration),
        model_(model),
        method_(method),
        h_(checked_step_size(opt, declaration.name)) {
    require_order_conditions(method.tableau, declaration);
    stage_.resize(model.dimension());
    size_stages(k_, method.tableau.stages(), model.dimension());
  }

  double step_size() const { return h_; }
  const Work& work() const { return work_; }

  void step(double t, State& y, double h) {
    detail::explicit_rk_step(model_, method_.tableau, t, y, h, stage_, k_);
    if (method_.reproject) model_.project(y);
    ++work_.steps;
    work_.f_evals += static_cast<std::int64_t>(k_.size());
  }

 private:
  const M& model_;
  const RuntimeRkMethod& method_;
  double h_;
  State stage_;
  std::vector<State> k_;
  Work work_;
};

}  // namespace geomint
