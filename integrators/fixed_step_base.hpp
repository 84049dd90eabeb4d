#pragma once
// What every fixed-step integrator class holds alike, written once: the model it steps (by
// reference: the model outlives the integrator), its State, and the work it has done. The step
// size is not among them: step(t, y, h) is given it (integrators/integrator_concepts.hpp).
// Plain bases with no virtual function: the step path is the derived class's own code.

#include <cstddef>
#include <type_traits>
#include <utility>

#include "integrators/method_source.hpp"
#include "integrators/work.hpp"

namespace geomint {

template <class M>
class FixedStepBase {
 public:
  using Model = M;
  using State = typename M::State;

  const Work& work() const { return work_; }

 protected:
  explicit FixedStepBase(const M& model) : model_(model) {}

  const M& model_;
  Work work_;
};

/// A fixed-step class of a family that steps a built-in method or one given at run time by
/// their coefficients (integrators/method_source.hpp): ExplicitRk, Rkmk, CommutatorFree.
template <class M, class Method, template <const auto&> class Constant, auto Coefficients>
class FixedStepMethod : public FixedStepBase<M>, public MethodSource<Method, Constant, Coefficients> {
 protected:
  /// The method's count of stages, a constant of its coefficients' type.
  static constexpr std::size_t kStages =
      std::remove_cvref_t<decltype(Coefficients(std::declval<Method>()))>::kStages;

  template <class... Given>
    requires MethodArguments<Method, Given...>
  explicit FixedStepMethod(const M& model, const Given&... method)
      : FixedStepBase<M>(model), MethodSource<Method, Constant, Coefficients>(method...) {}
};

}  // namespace geomint
