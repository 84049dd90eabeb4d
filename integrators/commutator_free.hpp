#pragma once
// Commutator-free Lie group methods (Celledoni Section 2.2; Celledoni, Marthinsen & Owren 2003),
// which include the Crouch-Grossman methods, written once against the model's Lie group
// interface (exp-action only: no dexpinv, no bracket). A scheme is data: each stage point and
// the update are products of exponentials of combinations of the frozen vector fields,
//   Y_{n,r} = exp(h sum_k alpha_{r,J}^k f_{n,k}) ... exp(h sum_k alpha_{r,1}^k f_{n,k}) . base,
//   f_{n,r} = f(Y_{n,r}),
// where base is y_n, or an earlier stage point whose exponentials are thereby reused
// (Celledoni (9): Y_{n,4} = exp(h f_{n,3} - h/2 f_{n,1}) . Y_{n,2}). An embedded pair adds a
// second update y~_{n+1} of lower order (Celledoni Section 4.2), compared with y_{n+1} by a
// distance on the manifold.
//
// Work counts every group exponential actually applied, so reused ones are not counted twice.

#include <array>
#include <concepts>
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <vector>

#include "integrators/butcher_tableau.hpp"
#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

/// The most exponentials in one point of any scheme in the catalogue (Crouch-Grossman 3's update).
inline constexpr std::size_t kCfMaxExponentials = 3;
/// `CfPoint::base` value: the point starts from y_n.
inline constexpr int kFromStart = -1;

/// exp(h sum_k alpha[J-1][k] f_k) ... exp(h sum_k alpha[0][k] f_k) . base, J = exponentials.
template <std::size_t S>
struct CfPoint {
  int base = kFromStart;         // kFromStart (y_n) or the index r of the stage point Y_{n,r}
  std::size_t exponentials = 0;  // J; zero with base y_n is y_n itself
  std::array<std::array<double, S>, kCfMaxExponentials> alpha{};
};

/// S stages, the update, and (for an embedded pair) the lower-order update.
template <std::size_t S>
struct CommutatorFreeScheme {
  static constexpr std::size_t kStages = S;
  std::array<CfPoint<S>, S> stages;
  CfPoint<S> update;
  CfPoint<S> embedded;
};

/// A point of a scheme given at run time (integrators/runtime_commutator_free.hpp, which checks
/// its shape): any number of exponentials, each with a weight per stage.
template <>
struct CfPoint<kDynamicStages> {
  int base = kFromStart;
  std::size_t exponentials = 0;            // = alpha.size()
  std::vector<std::vector<double>> alpha;  // alpha[j][k], j < exponentials, k < s
};

/// A scheme given at run time: s = stages.size(); no embedded update (it is fixed-step).
template <>
struct CommutatorFreeScheme<kDynamicStages> {
  static constexpr std::size_t kStages = kDynamicStages;
  std::vector<CfPoint<kDynamicStages>> stages;
  CfPoint<kDynamicStages> update;
};

/// A compile-time scheme T as a type whose members are constants, as ConstantTableau
/// (integrators/butcher_tableau.hpp): detail::CfStages takes a built-in method's scheme as this.
template <const auto& T>
struct ConstantScheme {
  static constexpr std::size_t kStages = std::remove_cvref_t<decltype(T)>::kStages;
  static constexpr const auto& stages = T.stages;
  static constexpr const auto& update = T.update;
  static constexpr const auto& embedded = T.embedded;
};

/// A compile-time scheme's stages and update as a run-time scheme.
template <std::size_t S>
CommutatorFreeScheme<kDynamicStages> to_dynamic(const CommutatorFreeScheme<S>& scheme) {
  const auto point = [](const CfPoint<S>& p) {
    CfPoint<kDynamicStages> d{p.base, p.exponentials, {}};
    for (std::size_t j = 0; j < p.exponentials; ++j)
      d.alpha.emplace_back(p.alpha[j].begin(), p.alpha[j].end());
    return d;
  };
  CommutatorFreeScheme<kDynamicStages> d;
  for (const auto& p : scheme.stages) d.stages.push_back(point(p));
  d.update = point(scheme.update);
  return d;
}

/// A model whose group can measure how far apart two states are (for error control).
template <class M>
concept LieGroupOdeWithDistance =
    LieGroupOde<M> && requires(const typename M::State& y) {
      { M::Group::distance(y, y) } -> std::convertible_to<double>;
    };

/// A method's commutator-free scheme: how FixedStepMethod (integrators/fixed_step_base.hpp)
/// picks the coefficients of a commutator-free method.
inline constexpr auto kSchemeOf = [](const auto& method) -> const auto& { return method.scheme; };

namespace detail {

/// The node c of a point: its base's node plus all its coefficients (Celledoni 2.2:
/// a_r^k = sum_j alpha_{r,j}^k).
template <class Scheme, class Point>
constexpr double cf_node(const Scheme& scheme, const Point& point) {
  double c = point.base == kFromStart
                 ? 0.0
                 : cf_node(scheme, scheme.stages[static_cast<std::size_t>(point.base)]);
  for (std::size_t j = 0; j < point.exponentials; ++j)
    for (double a : point.alpha[j]) c += a;
  return c;
}

/// 1 + the last stage a point needs, as a frozen field or as its base.
template <std::size_t S>
constexpr std::size_t cf_stages_needed(const CfPoint<S>& point) {
  std::size_t needed = point.base == kFromStart ? 0 : static_cast<std::size_t>(point.base) + 1;
  for (std::size_t j = 0; j < point.exponentials; ++j)
    for (std::size_t k = 0; k < point.alpha[j].size(); ++k)
      if (point.alpha[j][k] != 0.0 && k + 1 > needed) needed = k + 1;
  return needed;
}

/// The stage points Y_{n,r}, their frozen fields f_{n,r}, and the points built from them, for
/// a scheme with S stages (kDynamicStages: a scheme given at run time,
/// integrators/runtime_commutator_free.hpp).
template <LieGroupOde M, std::size_t S>
class CfStages {
 public:
  using State = typename M::State;
  using Algebra = typename M::Algebra;
  using Group = typename M::Group;

  /// `stages` = S, or the run-time scheme's stage count.
  CfStages(const M& model, std::size_t stages) {
    size_stages(f_, stages, algebra_dimension(model));
    size_stages(points_, stages, model.dimension());
    xi_.resize(algebra_dimension(model));
  }

  /// Y_{n,r} and f_{n,r} for r < count. `scheme`: a built-in method's as a ConstantScheme, or
  /// a CommutatorFreeScheme<kDynamicStages>.
  template <class Scheme>
  void evaluate(const Scheme& scheme, const M& model, double t, const State& y, double h,
                std::size_t count, Work& work) {
    for (std::size_t r = 0; r < count; ++r) {
      build(scheme.stages[r], y, h, points_[r], work);
      model.generator(t + cf_node(scheme, scheme.stages[r]) * h, points_[r], f_[r]);
      ++work.f_evals;
    }
  }

  /// out = the point `p` for the step (y, h), from the stages evaluated so far.
  void build(const CfPoint<S>& p, const State& y, double h, State& out, Work& work) {
    out = p.base == kFromStart ? y : points_[static_cast<std::size_t>(p.base)];
    for (std::size_t j = 0; j < p.exponentials; ++j) {
      xi_.setZero();
      for (std::size_t k = 0; k < p.alpha[j].size(); ++k)
        if (p.alpha[j][k] != 0.0) xi_ += (h * p.alpha[j][k]) * f_[k];
      Group::exp_act(xi_, out);
      ++work.exponentials;
    }
  }

 private:
  StageArray<Algebra, S> f_;
  StageArray<State, S> points_;
  Algebra xi_;
};

}  // namespace detail

/// A fixed-step commutator-free method. `Method` is a built-in method struct providing
/// `scheme` (a CommutatorFreeScheme) and `declaration` (integrators/lie_group_methods.hpp), or
/// RuntimeCfMethod, one given at run time (integrators/runtime_commutator_free.hpp;
/// integrators/method_source.hpp). Stages the update does not need (an embedded pair's extra
/// stages) are not evaluated.
template <class Method, LieGroupOde M>
class CommutatorFree : public FixedStepMethod<M, Method, ConstantScheme, kSchemeOf> {
 public:
  explicit CommutatorFree(const M& model, const auto&... method)
      : CommutatorFree::FixedStepMethod(model, method...),
        stages_(model, this->coefficients().stages.size()) {}

  void step(double t, typename M::State& y, double h) {
    const std::size_t used = this->template counted<kStagesUsed>();
    stages_.evaluate(this->coefficients(), this->model_, t, y, h, used, this->work_);
    stages_.build(this->coefficients().update, y, h, y, this->work_);
    ++this->work_.steps;
  }

 private:
  static constexpr auto kStagesUsed = [](const auto& scheme) {
    return detail::cf_stages_needed(scheme.update);
  };
  detail::CfStages<M, CommutatorFree::kStages> stages_;
};

/// One attempted step of an embedded commutator-free pair (Celledoni Section 4.2), for
/// EmbeddedPairIntegrator (integrators/embedded_pair.hpp). `Method` also provides
/// `kEstimatorOrder` p^. Such methods have no linear space in which the two results live, so
/// the estimate is e_{n+1} = d(y_{n+1}, y~_{n+1}) with the group's distance on the manifold
/// (for (TS^2)^N: TangentSphereProduct::distance), not a difference in the ambient space.
template <class Method, LieGroupOdeWithDistance M>
class CommutatorFreePairStepper {
 public:
  using Model = M;
  using State = typename M::State;
  static constexpr Declaration declaration = Method::declaration;
  static constexpr int kEstimatorOrder = Method::kEstimatorOrder;
  static constexpr std::size_t kStages = std::remove_cvref_t<decltype(Method::scheme)>::kStages;

  explicit CommutatorFreePairStepper(const M& model)
      : model_(model), stages_(model, kStages) {
    embedded_.resize(model.dimension());
  }

  /// Writes the propagated solution to ynew and returns d(ynew, y~_{n+1}).
  double attempt(double t, const State& y, double h, State& ynew, Work& work) {
    stages_.evaluate(ConstantScheme<Method::scheme>{}, model_, t, y, h, kStages, work);
    stages_.build(Method::scheme.update, y, h, ynew, work);
    stages_.build(Method::scheme.embedded, y, h, embedded_, work);
    return M::Group::distance(ynew, embedded_);
  }

  void accept() {}

 private:
  const M& model_;
  detail::CfStages<M, kStages> stages_;
  State embedded_;
};

}  // namespace geomint
