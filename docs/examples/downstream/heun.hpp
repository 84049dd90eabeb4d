#pragma once
// Heun's method, the explicit trapezoidal rule, on the AmbientOde view: an integrator of a project
// outside geomint, added to an installed geomint's catalogue by one geomint_add_integrator() call
// (CMakeLists.txt here; docs/adding-an-integrator.md, "From your own CMake project"). Its tableau:
//
//   0 |
//   1 | 1
//   --+---------
//     | 1/2  1/2
//
//   k1 = F(t, y),  k2 = F(t + h, y + h k1),  y <- y + h/2 (k1 + k2)
//
// Of order 2 (Hairer, Norsett, Wanner, Solving ODEs I, II.1), neither symmetric nor symplectic,
// and it leaves the manifold by its local error. HEUN_DECLARED_ORDER is the order it declares: 2,
// or, set by the project's cache option to a wrong one, what the promise suites catch.

#include <cstdint>

#include "catalogue/catalogue_entry.hpp"
#include "integrators/declaration.hpp"
#include "integrators/fixed_step_base.hpp"
#include "models/views.hpp"

#ifndef HEUN_DECLARED_ORDER
#define HEUN_DECLARED_ORDER 2
#endif

namespace example {

inline constexpr geomint::Declaration kHeunDeclaration{
    .name = "heun",
    .description = "Heun's method, the explicit trapezoidal rule (Hairer, Norsett, Wanner I, II.1)",
    .family = geomint::Family::Classical,
    .order = HEUN_DECLARED_ORDER};

/// A fixed-step integrator (geomint's integrators/integrator_concepts.hpp): constructed from the
/// model alone, given h on every step.
template <geomint::AmbientOde M>
class Heun : public geomint::FixedStepBase<M> {
 public:
  static constexpr const geomint::Declaration& declaration = kHeunDeclaration;

  explicit Heun(const M& model) : geomint::FixedStepBase<M>(model) {
    k1_.resize(model.dimension());
    k2_.resize(model.dimension());
    stage_.resize(model.dimension());
  }

  void step(double t, typename M::State& y, double h) {
    this->model_.rhs(t, y, k1_);
    stage_ = y + h * k1_;
    this->model_.rhs(t + h, stage_, k2_);
    y += (0.5 * h) * (k1_ + k2_);
    ++this->work_.steps;
    this->work_.f_evals += 2;
  }

 private:
  typename M::State k1_, k2_, stage_;
};

/// Its catalogue entry (geomint's catalogue/catalogue_entry.hpp): the declaration, the view it
/// needs, and the integrator on a model that offers it.
struct HeunEntry {
  static constexpr const geomint::Declaration& declaration = kHeunDeclaration;
  using View = geomint::view::AmbientOde;
  template <class M>
  using type = Heun<M>;
};

}  // namespace example
