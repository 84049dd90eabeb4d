#pragma once
// Runge-Kutta-Munthe-Kaas methods (Celledoni Section 2.2), written once against the model's
// Lie group interface (exp-action, dexpinv, bracket) and a Butcher tableau: a classical RK
// method applied to the ODE (6) for sigma in the Lie algebra,
//   sigma' = dexpinv_sigma(f(exp(sigma) . y_n)),  sigma(0) = 0,
// then y_{n+1} = exp(sigma_1) . y_n. Stage by stage:
//   sigma_i = h sum_{j<i} a_ij k_j,   k_i = dexpinv_{sigma_i}(f(exp(sigma_i) . y_n)),
//   sigma_1 = h sum_i b_i k_i.
// dexpinv is the exact one of the group (Celledoni 2.2-2.3) or the series (8) truncated after
// ad^p (`Method::kDexpinvPower`, -1 for exact).

#include <array>

#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

template <class Method, LieGroupOde M>
class Rkmk {
 public:
  using Model = M;
  using State = typename M::State;
  using Algebra = typename M::Algebra;
  using Group = typename M::Group;
  static constexpr Declaration declaration = Method::declaration;

  Rkmk(const M& model, const IntegratorOptions& opt)
      : model_(model), h_(checked_step_size(opt, declaration.name)) {
    const auto dim = model.dimension();
    for (auto& k : k_) k.resize(dim);
    sigma_.resize(dim);
    f_.resize(dim);
    stage_.resize(dim);
  }

  double step_size() const { return h_; }
  const Work& work() const { return work_; }

  void step(double t, State& y, double h) {
    constexpr auto& tab = Method::tableau;
    for (std::size_t i = 0; i < tab.kStages; ++i) {
      sigma_.setZero();
      bool at_y = true;
      for (std::size_t j = 0; j < i; ++j)
        if (tab.a[i][j] != 0.0) {
          sigma_ += (h * tab.a[i][j]) * k_[j];
          at_y = false;
        }
      if (at_y) {  // sigma = 0: exp(0) . y = y and dexpinv_0 = identity
        model_.generator(t + tab.c[i] * h, y, k_[i]);
      } else {
        stage_ = y;
        Group::exp_act(sigma_, stage_);
        ++work_.exponentials;
        model_.generator(t + tab.c[i] * h, stage_, f_);
        dexpinv(sigma_, f_, k_[i]);
      }
    }
    sigma_.setZero();
    for (std::size_t i = 0; i < tab.kStages; ++i)
      if (tab.b[i] != 0.0) sigma_ += (h * tab.b[i]) * k_[i];
    Group::exp_act(sigma_, y);
    ++work_.exponentials;
    ++work_.steps;
    work_.f_evals += static_cast<std::int64_t>(tab.kStages);
  }

 private:
  static void dexpinv(const Algebra& u, const Algebra& v, Algebra& out) {
    if constexpr (Method::kDexpinvPower < 0)
      Group::dexpinv(u, v, out);
    else
      Group::dexpinv_series(u, v, Method::kDexpinvPower, out);
  }

  const M& model_;
  double h_;
  std::array<Algebra, Method::tableau.kStages> k_;
  Algebra sigma_, f_;
  State stage_;
  Work work_;
};

}  // namespace geomint
