#pragma once
// Fixed-step explicit Runge-Kutta methods on the AmbientOde view, from a Butcher tableau,
// optionally reprojected onto the manifold after every step.

#include <array>
#include <cmath>

#include "integrators/declaration.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/parameters.hpp"
#include "models/views.hpp"

namespace geomint {

/// Reject a step size that is not a positive finite number.
inline double checked_step_size(const IntegratorOptions& opt, std::string_view integrator) {
  if (!(opt.h > 0.0) || !std::isfinite(opt.h))
    throw InputError(std::string(integrator) + ": the step size h must be a positive number");
  return opt.h;
}

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

  /// y <- y + h sum_i b_i k_i,  k_i = F(t + c_i h, y + h sum_{j<i} a_ij k_j).
  void step(double t, State& y, double h) {
    constexpr auto& tab = Method::tableau;
    for (std::size_t i = 0; i < tab.kStages; ++i) {
      stage_ = y;
      for (std::size_t j = 0; j < i; ++j)
        if (tab.a[i][j] != 0.0) stage_ += (h * tab.a[i][j]) * k_[j];
      model_.rhs(t + tab.c[i] * h, stage_, k_[i]);
    }
    for (std::size_t i = 0; i < tab.kStages; ++i)
      if (tab.b[i] != 0.0) y += (h * tab.b[i]) * k_[i];
    if constexpr (Method::kReproject) model_.project(y);
    ++work_.steps;
    work_.f_evals += static_cast<std::int64_t>(tab.kStages);
  }

 private:
  const M& model_;
  double h_;
  State stage_;
  std::array<State, Method::tableau.kStages> k_;
  Work work_;
};

}  // namespace geomint
