#pragma once
// Casas & Owren's RKMK4 with two commutators (Casas & Owren 2003; Celledoni Section 2.2):
// the classical RK4 tableau in the RKMK format, with the dexpinv series replaced by the two
// commutators that order four needs, written against the group's exp-action and bracket:
//   f_{n,1} = h f(y_n),
//   f_{n,2} = h f(exp(1/2 f_{n,1}) . y_n),
//   f_{n,3} = h f(exp(1/2 f_{n,2} - 1/8 [f_{n,1}, f_{n,2}]) . y_n),
//   f_{n,4} = h f(exp(f_{n,3}) . y_n),
//   y_{n+1} = exp(1/6 (f_{n,1} + 2 f_{n,2} + 2 f_{n,3} + f_{n,4} - 1/2 [f_{n,1}, f_{n,4}])) . y_n.
// Four f evaluations, four exponentials and two brackets per step.

#include "integrators/declaration.hpp"
#include "integrators/explicit_rk.hpp"
#include "integrators/fixed_step_base.hpp"
#include "integrators/work.hpp"
#include "models/views.hpp"

namespace geomint {

/// `Method` provides `declaration`.
template <class Method, LieGroupOde M>
class CasasOwrenRkmk4 : public FixedStepBase<M> {
 public:
  using State = typename M::State;
  using Algebra = typename M::Algebra;
  using Group = typename M::Group;
  static constexpr Declaration declaration = Method::declaration;

  explicit CasasOwrenRkmk4(const M& model)
      : FixedStepBase<M>(model) {
    for (Algebra* v : {&f1_, &f2_, &f3_, &f4_, &u_, &bracket_}) v->resize(algebra_dimension(model));
    stage_.resize(model.dimension());
  }

  void step(double t, State& y, double h) {
    model_.generator(t, y, f1_);
    f1_ *= h;
    u_ = 0.5 * f1_;
    evaluate(t + 0.5 * h, y, h, f2_);
    Group::bracket(f1_, f2_, bracket_);
    u_ = 0.5 * f2_ - 0.125 * bracket_;
    evaluate(t + 0.5 * h, y, h, f3_);
    u_ = f3_;
    evaluate(t + h, y, h, f4_);
    Group::bracket(f1_, f4_, bracket_);
    u_ = (f1_ + 2.0 * f2_ + 2.0 * f3_ + f4_ - 0.5 * bracket_) / 6.0;
    Group::exp_act(u_, y);
    work_.exponentials += 4;
    work_.f_evals += 4;
    ++work_.steps;
  }

 private:
  /// out = h f(exp(u_) . y).
  void evaluate(double t, const State& y, double h, Algebra& out) {
    stage_ = y;
    Group::exp_act(u_, stage_);
    model_.generator(t, stage_, out);
    out *= h;
  }

  using FixedStepBase<M>::model_;
  using FixedStepBase<M>::work_;
  Algebra f1_, f2_, f3_, f4_, u_, bracket_;
  State stage_;
};

}  // namespace geomint
