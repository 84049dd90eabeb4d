#pragma once
// Runge-Kutta-Munthe-Kaas methods (Celledoni Section 2.2), written once against the model's
// Lie group interface (exp-action, dexpinv, bracket) and a Butcher tableau: a classical RK
// method applied to the ODE (6) for sigma in the Lie algebra,
//   sigma' = dexpinv_sigma(f(exp(sigma) . y_n)),  sigma(0) = 0,
// then y_{n+1} = exp(sigma_1) . y_n. Stage by stage:
//   sigma_i = h sum_{j<i} a_ij k_j,   k_i = dexpinv_{sigma_i}(f(exp(sigma_i) . y_n)),
//   sigma_1 = h sum_i b_i k_i.
//
// Which dexpinv: `Method::kDexpinvPower` = kGroupDexpinv uses `M::Group::dexpinv`, the group's
// own. The group decides what that is: the exact one where its algebra has a closed form
// (so(3), se(3) and their products, Celledoni 2.2-2.3, as TangentSphereProduct does), else the
// series (8) to as many terms as it needs. A power p >= 0 truncates the series (8) after ad^p,
// which keeps order q when p >= q - 2 (Munthe-Kaas 1999); p = 0 is dexpinv = identity.
//
// The state is passed in on every call; the classes below keep only scratch memory.

#include <array>
#include <cmath>
#include <cstddef>

#include "integrators/butcher_tableau.hpp"
#include "integrators/compensated_sum.hpp"
#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

/// `Method::kDexpinvPower` value: the group's own dexpinv (exact where it has a closed form).
inline constexpr int kGroupDexpinv = -1;

namespace detail {

/// The stages of one RKMK step of a tableau with S stages (kDynamicStages: a tableau given at
/// run time, integrators/runtime_rkmk.hpp): k_i and, for the last stage evaluated, its point
/// exp(sigma_i) . y_n and its raw f (for first-same-as-last pairs). `DexpinvPower` is a
/// method's kDexpinvPower.
template <LieGroupOde M, std::size_t S, int DexpinvPower>
class RkmkStages {
 public:
  using State = typename M::State;
  using Algebra = typename M::Algebra;
  using Group = typename M::Group;

  /// `stages` = S, or the run-time tableau's stage count.
  RkmkStages(const M& model, std::size_t stages) {
    size_stages(k_, stages, algebra_dimension(model));
    sigma_.resize(algebra_dimension(model));
    f_.resize(algebra_dimension(model));
    point_.resize(model.dimension());
  }

  /// k_i for first <= i < count at the step (t, y, h); k_0 = f(y) when first = 1 was kept.
  /// `tableau`: a built-in method's as a ConstantTableau, or a ButcherTableau<kDynamicStages>.
  template <class Tableau>
  void evaluate(const Tableau& tableau, const M& model, double t, const State& y, double h,
                std::size_t first, std::size_t count, Work& work) {
    for (std::size_t i = first; i < count; ++i) {
      sigma_.setZero();
      bool at_y = true;
      for (std::size_t j = 0; j < i; ++j)
        if (tableau.a[i][j] != 0.0) {
          sigma_ += (h * tableau.a[i][j]) * k_[j];
          at_y = false;
        }
      ++work.f_evals;
      if (at_y) {  // sigma = 0: exp(0) . y = y and dexpinv_0 = identity
        model.generator(t + tableau.c[i] * h, y, k_[i]);
        f_ = k_[i];
        point_ = y;
        continue;
      }
      point_ = y;
      Group::exp_act(sigma_, point_);
      ++work.exponentials;
      model.generator(t + tableau.c[i] * h, point_, f_);
      dexpinv(sigma_, f_, k_[i]);
    }
  }

  /// out = h sum_i w_i k_i over the first `count` stages.
  template <class Weights>
  void combine(const Weights& w, double h, std::size_t count, Algebra& out) const {
    out.setZero();
    for (std::size_t i = 0; i < count; ++i)
      if (w[i] != 0.0) out += (h * w[i]) * k_[i];
  }

  Algebra& k(std::size_t i) { return k_[i]; }
  /// exp(sigma_i) . y_n and f there, for the last stage evaluated.
  const State& last_point() const { return point_; }
  const Algebra& last_f() const { return f_; }

 private:
  static void dexpinv(const Algebra& u, const Algebra& v, Algebra& out) {
    if constexpr (DexpinvPower == kGroupDexpinv)
      Group::dexpinv(u, v, out);
    else if constexpr (DexpinvPower == 0)
      out = v;
    else
      Group::dexpinv_series(u, v, DexpinvPower, out);
  }

  StageArray<Algebra, S> k_;
  Algebra sigma_, f_;
  State point_;
};

/// 1 + the last stage with a nonzero weight: later stages cannot change the result.
template <class Weights>
constexpr std::size_t stages_used(const Weights& w) {
  std::size_t used = 0;
  for (std::size_t i = 0; i < w.size(); ++i)
    if (w[i] != 0.0) used = i + 1;
  return used;
}

/// Whether the last stage is evaluated at exp(sigma_1) . y_n, i.e. a_{s,j} = b_j.
template <class Tableau>
constexpr bool first_same_as_last(const Tableau& tab) {
  for (std::size_t j = 0; j < tab.kStages; ++j)
    if (tab.a[tab.kStages - 1][j] != tab.b[j]) return false;
  return tab.c[tab.kStages - 1] == 1.0;
}

}  // namespace detail

/// A fixed-step RKMK method. `Method` is a built-in method struct providing `tableau`,
/// `kDexpinvPower` and `declaration` (integrators/lie_group_methods.hpp), or RuntimeRkmkMethod,
/// one given at run time (integrators/runtime_rkmk.hpp; integrators/method_source.hpp). Stages
/// after the last one with a nonzero weight b_i (the FSAL stage of Dormand-Prince) are not
/// evaluated. With compensated summation (compensate(), where the group offers
/// exp_act_increment) the update is y_{n+1} = y_n + (exp(sigma_1) . y_n - y_n), that increment
/// formed in closed form and summed as integrators/compensated_sum.hpp says.
template <class Method, LieGroupOde M>
class Rkmk : public FixedStepMethod<M, Method, ConstantTableau, kTableauOf> {
 public:
  using Algebra = typename M::Algebra;
  using Group = typename M::Group;

  explicit Rkmk(const M& model, const auto&... method)
      : Rkmk::FixedStepMethod(model, method...), stages_(model, this->coefficients().stages()) {
    sigma_.resize(algebra_dimension(model));
  }

  void step(double t, typename M::State& y, double h) {
    const std::size_t used = this->template counted<kStagesUsed>();
    stages_.evaluate(this->coefficients(), this->model_, t, y, h, 0, used, this->work_);
    stages_.combine(this->coefficients().b, h, used, sigma_);
    update(y);
    ++this->work_.exponentials;
    ++this->work_.steps;
  }

  /// Compensated summation of the update exp(sigma_1) . y_n (integrators/compensated_sum.hpp).
  void compensate()
    requires IncrementalAction<Group>
  {
    compensated_ = true;
    carry_ = M::State::Zero(this->model_.dimension());
  }

 private:
  /// y <- exp(sigma_1) . y.
  void update(typename M::State& y) {
    if constexpr (IncrementalAction<Group>)
      if (compensated_) [[unlikely]] {
        update_compensated(y);
        return;
      }
    Group::exp_act(sigma_, y);
  }

  /// Cold and out of line, as the explicit VI's compensated step is: the plain step's code stays
  /// as it is without the option.
  [[gnu::cold, gnu::noinline]] void update_compensated(typename M::State& y)
    requires IncrementalAction<Group>
  {
    Group::exp_act_increment(sigma_, y, increment_);
    compensated_add(y, increment_, carry_);
  }

  static constexpr auto kStagesUsed = [](const auto& tableau) { return detail::stages_used(tableau.b); };
  detail::RkmkStages<M, Rkmk::kStages, Method::kDexpinvPower> stages_;
  Algebra sigma_;
  bool compensated_ = false;
  typename M::State increment_, carry_;  // the update's increment and compensation, when compensated_
};

/// One attempted step of an embedded RKMK pair (Celledoni Section 4.1), for
/// EmbeddedPairIntegrator (integrators/embedded_pair.hpp). `Method` also provides
/// `error_weights` e = b - b^ and `kEstimatorOrder` p^.
///
/// The local error is estimated in the Lie algebra: e_{n+1} = ‖sigma_1 - sigma^_1‖_2 =
/// h ‖sum_i e_i k_i‖_2. Both sigma_1 and sigma^_1 approximate the same sigma(h) of the ODE (6)
/// in the linear space g, so this is the classical pair's estimate, with its theory unchanged
/// (Celledoni 4.1), and it needs no second exponential. The state error follows from it:
/// d(exp(sigma_1) . y_n, exp(sigma^_1) . y_n) <= C ‖sigma_1 - sigma^_1‖ for the smooth action.
///
/// For a first-same-as-last tableau (Dormand-Prince) the last stage is evaluated at
/// exp(sigma_1) . y_n = y_{n+1}: that point is the step's result (no extra exponential), and its
/// raw f(y_{n+1}) is the next step's k_1 (its k_s = dexpinv_{sigma_1} f(y_{n+1}) is not, which
/// is why the k's themselves cannot be carried over as in the classical method).
template <class Method, LieGroupOde M>
class RkmkPairStepper {
 public:
  using Model = M;
  using State = typename M::State;
  using Algebra = typename M::Algebra;
  using Group = typename M::Group;
  static constexpr Declaration declaration = Method::declaration;
  static constexpr int kEstimatorOrder = Method::kEstimatorOrder;
  static constexpr auto& tableau = Method::tableau;
  static constexpr bool kFsal = detail::first_same_as_last(tableau);

  explicit RkmkPairStepper(const M& model)
      : model_(model), stages_(model, tableau.stages()) {
    sigma_.resize(algebra_dimension(model));
    error_.resize(algebra_dimension(model));
  }

  /// Writes the propagated solution to ynew and returns the error estimate (a length in g).
  double attempt(double t, const State& y, double h, State& ynew, Work& work) {
    stages_.evaluate(ConstantTableau<Method::tableau>{}, model_, t, y, h, have_f0_ ? 1 : 0,
                     tableau.kStages, work);
    have_f0_ = true;  // k_1 = f(y_n) serves every retry from the same y_n
    stages_.combine(tableau.b, h, tableau.kStages, sigma_);
    stages_.combine(Method::error_weights, h, tableau.kStages, error_);
    if constexpr (kFsal) {
      ynew = stages_.last_point();
    } else {
      ynew = y;
      Group::exp_act(sigma_, ynew);
      ++work.exponentials;
    }
    return error_.norm();
  }

  /// The attempt was accepted: the next one starts from its ynew.
  void accept() {
    if constexpr (kFsal)
      stages_.k(0) = stages_.last_f();
    else
      have_f0_ = false;
  }

 private:
  const M& model_;
  detail::RkmkStages<M, tableau.kStages, Method::kDexpinvPower> stages_;
  Algebra sigma_, error_;
  bool have_f0_ = false;
};

}  // namespace geomint
