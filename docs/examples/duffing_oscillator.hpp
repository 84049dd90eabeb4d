#pragma once
// The example of docs/adding-a-model.md: the undamped Duffing oscillator
//   x'' = -k x - eps x^3,  energy E = 1/2 v^2 + 1/2 k x^2 + 1/4 eps x^4,
// a model on the free blocks x, v in R^1 with one conserved invariant, offering AmbientOde
// only, so that the classical and reference solvers run on it. To put it on the bench, copy
// this file pair to models/duffing_oscillator.{hpp,cpp}, its unit test
// (test_duffing_oscillator.cpp) to tests/unit/models/, and add the line
//   duffing_oscillator DuffingOscillator
// to catalogue/model_registry.txt (docs/adding-a-model.md; tests/docs/adding_a_model.sh does
// exactly that). tests/unit/studies/test_documented_examples.cpp compiles it and runs a case on
// it through the case runner, as the registry would.

#include <Eigen/Core>
#include <string_view>
#include <vector>

#include "models/exercise.hpp"
#include "models/invariant.hpp"
#include "models/parameters.hpp"
#include "models/preset.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

class DuffingOscillator {
 public:
  static constexpr std::string_view kName = "duffing_oscillator";
  static constexpr std::string_view kDescription = "undamped Duffing oscillator (docs example)";
  static constexpr Exercise kExercise{"swing", 0.01, 1.0, 1000.0};
  using State = Eigen::Vector2d;  // (x, v)

  static ParameterSet default_parameters();
  static const std::vector<Preset<DuffingOscillator>>& presets();
  explicit DuffingOscillator(const ParameterSet& p);

  // AmbientOde
  Eigen::Index dimension() const { return 2; }
  void rhs(double /*t*/, const State& y, State& dy) const {
    dy << y(1), -k_ * y(0) - eps_ * y(0) * y(0) * y(0);
  }
  void project(State& /*y*/) const {}  // R^2 is the whole phase space

  // The model contract
  const StateLayout& state_layout() const { return layout_; }
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& y, double* out) const {
    const double x2 = y(0) * y(0);
    out[0] = 0.5 * y(1) * y(1) + 0.5 * k_ * x2 + 0.25 * eps_ * x2 * x2;
  }

 private:
  double k_, eps_;
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
