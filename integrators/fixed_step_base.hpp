#pragma once
// What every fixed-step integrator class holds alike, written once: the model it steps (by
// reference: the model outlives the integrator), its State, and the work it has done. The step
// size is not among them: step(t, y, h) is given it (integrators/integrator_concepts.hpp).
// A plain base with no virtual function: the step path is the derived class's own code.

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

}  // namespace geomint
