#pragma once
// Symmetric composition of a symmetric second-order one-step method (Yoshida 1990; Hairer,
// Lubich & Wanner, Geometric Numerical Integration, II.4):
//   Psi_h = Phi_{g_s h} o ... o Phi_{g_1 h},
// with weights g_i symmetric (g_i = g_{s+1-i}) and summing to one. Composing a symplectic,
// symmetric method keeps it symplectic and symmetric and conserves what it conserves (the
// momentum map, the manifold), while raising the order: LLM Section 3.4 proposes exactly this
// for the variational integrators on (S^2)^n. Negative weights mean backward sub-steps, which
// a symmetric method takes as its own inverse.

#include <array>
#include <cstdint>

#include "integrators/compensated_sum.hpp"
#include "integrators/declaration.hpp"
#include "integrators/work.hpp"

namespace geomint {

/// Yoshida's triple jump, order 4: g1 = g3 = 1 / (2 - 2^(1/3)), g2 = -2^(1/3) / (2 - 2^(1/3)).
struct Yoshida4 {
  static constexpr double kCubeRoot2 = 1.2599210498948731647672106;
  static constexpr double kOuter = 1.0 / (2.0 - kCubeRoot2);
  static constexpr std::array<double, 3> kWeights = {kOuter, -kCubeRoot2 * kOuter, kOuter};
  static constexpr int kOrder = 4;
};

/// Yoshida's seven-stage order-6 composition, his solution A (values as in Hairer, Lubich &
/// Wanner, Section V.3.2).
struct Yoshida6 {
  static constexpr double kG1 = 0.78451361047755726381949763;
  static constexpr double kG2 = 0.23557321335935813368479318;
  static constexpr double kG3 = -1.17767998417887100694641568;
  static constexpr double kG4 = 1.31518632068391121888424973;
  static constexpr std::array<double, 7> kWeights = {kG1, kG2, kG3, kG4, kG3, kG2, kG1};
  static constexpr int kOrder = 6;
};

/// `Method` provides `declaration` and `Scheme` (the weights); Base is the composed method.
template <class Base, class Method>
class Composition {
 public:
  using Model = typename Base::Model;
  using State = typename Base::State;
  static constexpr Declaration declaration = Method::declaration;

  explicit Composition(const Model& model) : base_(model) {}

  /// Work of the composed steps: a step here is one composition, and the evaluations and
  /// nonlinear iterations of all its sub-steps are counted.
  const Work& work() const {
    work_ = base_.work();
    work_.steps = steps_;
    return work_;
  }

  void step(double t, State& y, double h) {
    for (double g : Method::Scheme::kWeights) {
      base_.step(t, y, g * h);
      t += g * h;
    }
    ++steps_;
  }

  /// Compensated summation in every sub-step, where the base method offers it
  /// (integrators/compensated_sum.hpp).
  void compensate()
    requires CompensatedUpdate<Base>
  {
    base_.compensate();
  }

  /// The composed map on the base method's own phase space, where it offers one (the symplectic
  /// Lie group integrators' T*G, integrators/symplectic_lie_group.hpp).
  template <class Point>
    requires requires(Base& b, Point& p) { b.step_point(0.0, p, 0.0); }
  void step_point(double t, Point& p, double h) {
    for (double g : Method::Scheme::kWeights) {
      base_.step_point(t, p, g * h);
      t += g * h;
    }
    ++steps_;
  }

 private:
  Base base_;
  std::int64_t steps_ = 0;
  mutable Work work_;
};

}  // namespace geomint
