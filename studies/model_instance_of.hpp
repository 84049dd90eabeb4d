#pragma once
// The model instance (studies/model_instance.hpp) of registry model M: each capability from the
// concept that says M has it. Instantiated once per model, in that model's case-runner unit
// (studies/run_model.cpp.in), which compiles M's code already.

#include <Eigen/Core>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/model_contract.hpp"
#include "models/preset.hpp"
#include "models/views.hpp"
#include "studies/model_instance.hpp"

namespace geomint {

template <Model M>
class ModelInstanceOf final : public ModelInstance {
 public:
  using State = typename M::State;

  ModelInstanceOf(const std::string& preset, const std::map<std::string, double>& overrides)
      : parameters_(preset_parameters(find_preset<M>(preset), overrides)),
        model_(parameters_),
        invariants_(all_invariants(model_)),
        initial_(find_preset<M>(preset).initial_state(model_)) {}

  std::string_view name() const override { return M::kName; }
  const ParameterSet& parameters() const override { return parameters_; }
  const StateLayout& layout() const override { return model_.state_layout(); }
  const std::vector<Invariant>& invariants() const override { return invariants_; }
  const Eigen::VectorXd& initial_state() const override { return initial_; }
  std::vector<std::string_view> views() const override {
    return offered<view::AmbientOde, view::SphereLagrangian, view::DiagonalSphereLagrangian,
                   view::LieGroupOde, view::CotangentLieGroup, view::ConstrainedLagrangian>();
  }

  Eigen::VectorXd rhs(double t, const Eigen::VectorXd& y) const override {
    const State s = state(y);
    State dy = s;  // sized as the state, which a dynamic one needs
    model_.rhs(t, s, dy);
    return dy;
  }
  Eigen::VectorXd project(const Eigen::VectorXd& y) const override {
    State s = state(y);
    model_.project(s);
    return s;
  }
  Eigen::VectorXd invariant_values(const Eigen::VectorXd& y) const override {
    std::vector<double> values;
    evaluate_all_invariants(model_, state(y), values);
    return Eigen::Map<const Eigen::VectorXd>(values.data(),
                                             static_cast<Eigen::Index>(values.size()));
  }

  Eigen::Index algebra_dimension() const override {
    if constexpr (LieGroupOde<M>)
      return geomint::algebra_dimension(model_);
    else
      throw missing_view(view::LieGroupOde::name);
  }
  Eigen::VectorXd generator(double t, const Eigen::VectorXd& y) const override {
    if constexpr (LieGroupOde<M>) {
      typename M::Algebra xi = M::Algebra::Zero(algebra_dimension());
      model_.generator(t, state(y), xi);
      return xi;
    } else {
      throw missing_view(view::LieGroupOde::name);
    }
  }
  Eigen::VectorXd exp_act(const Eigen::VectorXd& xi, const Eigen::VectorXd& y) const override {
    if constexpr (LieGroupOde<M>) {
      State s = state(y);
      M::Group::exp_act(element(xi), s);
      return s;
    } else {
      throw missing_view(view::LieGroupOde::name);
    }
  }
  Eigen::VectorXd dexpinv(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const override {
    if constexpr (LieGroupOde<M>) {
      typename M::Algebra out = M::Algebra::Zero(algebra_dimension());
      M::Group::dexpinv(element(a), element(b), out);
      return out;
    } else {
      throw missing_view(view::LieGroupOde::name);
    }
  }
  Eigen::VectorXd bracket(const Eigen::VectorXd& a, const Eigen::VectorXd& b) const override {
    if constexpr (LieGroupOde<M>) {
      typename M::Algebra out = M::Algebra::Zero(algebra_dimension());
      M::Group::bracket(element(a), element(b), out);
      return out;
    } else {
      throw missing_view(view::LieGroupOde::name);
    }
  }

  bool has_exact_solution() const override {
    return requires(const M& m, const State& y) { m.exact_solution(y, 1.0); };
  }
  Eigen::VectorXd exact_solution(const Eigen::VectorXd& y0, double t) const override {
    if constexpr (requires(const M& m, const State& y) { m.exact_solution(y, 1.0); })
      return model_.exact_solution(state(y0), t);
    else
      throw MissingView(std::string(M::kName) + " has no exact solution");
  }

 private:
  template <class... Views>
  static std::vector<std::string_view> offered() {
    std::vector<std::string_view> names;
    ((Views::template offered_by<M> ? names.push_back(Views::name) : void()), ...);
    return names;
  }

  MissingView missing_view(std::string_view view) const {
    std::string offered_names;
    for (std::string_view v : views())
      offered_names += (offered_names.empty() ? "" : ", ") + std::string(v);
    return MissingView(std::string(M::kName) + " has no " + std::string(view) +
                       " view (it offers " + offered_names + ")");
  }

  static void check_size(const Eigen::VectorXd& v, Eigen::Index size, const char* what) {
    if (v.size() != size)
      throw InputError(std::string(M::kName) + ": " + what + " has " + std::to_string(size) +
                       " entries, got " + std::to_string(v.size()));
  }
  State state(const Eigen::VectorXd& y) const {
    check_size(y, model_.dimension(), "the state");
    return State(y);
  }
  auto element(const Eigen::VectorXd& xi) const {
    check_size(xi, algebra_dimension(), "an element of the Lie algebra");
    return typename M::Algebra(xi);
  }

  ParameterSet parameters_;
  M model_;
  std::vector<Invariant> invariants_;
  Eigen::VectorXd initial_;
};

/// The instance of model M with the preset's parameters and the overrides (InputError for an
/// unknown preset or parameter, or a value outside its domain).
template <Model M>
std::unique_ptr<ModelInstance> make_model_instance(const std::string& preset,
                                                   const std::map<std::string, double>& overrides) {
  return std::make_unique<ModelInstanceOf<M>>(preset, overrides);
}

}  // namespace geomint
