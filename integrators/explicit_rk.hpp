#pragma once
// Fixed-step explicit Runge-Kutta methods on the AmbientOde view, from a Butcher tableau,
// optionally reprojected onto the manifold after every step.

#include <array>
#include <cmath>
#include <cstddef>

#include "errors/exit_status_errors.hpp"
#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

/// Reject a step size that is not a positive finite number.
inline double checked_step_size(const IntegratorOptions& opt, std::string_view integrator) {
  if (!(opt.h > 0.0) || !std::isfinite(opt.h))
    throw InputError(std::string(integrator) + ": the step size h must be a positive number");
  return opt.h;
}

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

/// `Method` provides `tableau`, `declaration` and `kReproject` (see classical_methods.hpp).
template <class Method, AmbientOde M>
class ExplicitRk {
 public:
  using Model = M;
  using State = typename M::State;
  static constexpr Declaration declaration = Method::declaration;

  ExplicitRk(const M& model, const IntegratorOptions& opt)
      : model_(model), h_(checked_step_size(opt, declaration.name)) {
    stage_.resize(model.dimension());
    for (auto& k : k_) k.resize(model.dimension());
  }

  double step_size() const { return h_; }
  const Work& work() const { return work_; }

  void step(double t, State& y, double h) {
    detail::explicit_rk_step(model_, ConstantTableau<Method::tableau>{}, t, y, h, stage_, k_);
    if constexpr (Method::kReproject) model_.project(y);
    ++work_.steps;
    work_.f_evals += static_cast<std::int64_t>(Method::tableau.kStages);
  }

 private:
  const M& model_;
  double h_;
  State stage_;
  std::array<State, Method::tableau.kStages> k_;
  Work work_;
};

}  // namespace geomint
