#pragma once
// Fixed-step explicit Runge-Kutta methods on the AmbientOde view, from a Butcher tableau,
// optionally reprojected onto the manifold after every step.

#include <array>
#include <cstdint>
#include <cstddef>

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

namespace detail {

/// y <- y + h sum_i b_i k_i,  k_i = F(t + c_i h, y + h sum_{j<i} a_ij k_j), with the stages
/// k and the stage point in the caller's scratch. `tab` is a built-in method's tableau as a
/// ConstantTableau (whose zero coefficients then cost nothing) or a run-time tableau
/// (integrators/runtime_explicit_rk.hpp).
template <class Tableau, AmbientOde M, class Stages>
inline void explicit_rk_step(const M& model, const Tableau& tab, double t, typename M::State& y,
                             double h, typename M::State& stage, Stages& k) {
  for (std::size_t i = 0; i < tab.stages(); ++i) {
    stage = y;
    for (std::size_t j = 0; j < i; ++j)
      if (tab.a[i][j] != 0.0) stage += (h * tab.a[i][j]) * k[j];
    model.rhs(t + tab.c[i] * h, stage, k[i]);
  }
  for (std::size_t i = 0; i < tab.stages(); ++i)
    if (tab.b[i] != 0.0) y += (h * tab.b[i]) * k[i];
}

}  // namespace detail

/// `Method` is a built-in method struct providing `tableau`, `declaration` and `kReproject`
/// (integrators/classical_methods.hpp), or RuntimeRkMethod, one given at run time
/// (integrators/runtime_explicit_rk.hpp), with the same members as values
/// (integrators/method_source.hpp).
template <class Method, AmbientOde M>
class ExplicitRk : public FixedStepMethod<M, Method, ConstantTableau, kTableauOf> {
 public:
  explicit ExplicitRk(const M& model, const auto&... method)
      : ExplicitRk::FixedStepMethod(model, method...) {
    stage_.resize(model.dimension());
    size_stages(k_, this->coefficients().stages(), model.dimension());
  }

  void step(double t, typename M::State& y, double h) {
    detail::explicit_rk_step(this->model_, this->coefficients(), t, y, h, stage_, k_);
    if (reproject()) this->model_.project(y);
    ++this->work_.steps;
    this->work_.f_evals += static_cast<std::int64_t>(k_.size());
  }

 private:
  bool reproject() const {
    if constexpr (RunTimeMethod<Method>)
      return this->method().reproject;
    else
      return Method::kReproject;
  }

  typename M::State stage_;
  StageArray<typename M::State, ExplicitRk::kStages> k_;
};

}  // namespace geomint
