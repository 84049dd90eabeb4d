#pragma once
// One mechanical system written as two models of the registry: a model that is another
// formulation of model M::kFormulationOf maps each of its states to that model's state, so that
// a study can measure runs of that model against a reference solved in this one (a reduced ODE
// against a constrained Cartesian form: the planar Astrojax, DuToit Section 5.1). The presets of
// the same name are the same initial conditions in both.

#include <Eigen/Core>
#include <concepts>
#include <string_view>

namespace geomint {

template <class M>
concept FormulationOfAnotherModel = requires(const M& m, const typename M::State& y) {
  { M::kFormulationOf } -> std::convertible_to<std::string_view>;
  { m.state_in_other_formulation(y) } -> std::convertible_to<Eigen::VectorXd>;
};

}  // namespace geomint
