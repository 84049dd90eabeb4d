#pragma once
// The views a model can offer, as concepts, so that an integrator requires exactly what it
// needs and the integrator x model matrix follows at compile time (DESIGN.md, models/).

#include <Eigen/Core>
#include <concepts>
#include <string_view>

namespace geomint {

/// y' = F(t, y) in R^N, with a projection of y onto the manifold the solution lives on.
template <class M>
concept AmbientOde = requires(const M& m, double t, const typename M::State& y,
                              typename M::State& out) {
  { m.dimension() } -> std::convertible_to<Eigen::Index>;
  m.rhs(t, y, out);
  m.project(out);
};

/// A Lagrangian on (S^2)^n of the form (2.2): L = 1/2 sum M_ij q_i'.q_j' - V(q)  (LLM).
template <class M>
concept SphereLagrangian = requires(const M& m, const typename M::Points& q,
                                    typename M::Points& grad) {
  { m.bodies() } -> std::convertible_to<Eigen::Index>;
  { m.inertia() } -> std::convertible_to<const typename M::Inertia&>;
  { m.potential(q) } -> std::convertible_to<double>;
  m.potential_gradient(q, grad);
};

/// The same, with M diagonal: the bodies are coupled through V only (LLM Cor. 3).
template <class M>
concept DiagonalSphereLagrangian = SphereLagrangian<M> && M::kDiagonalInertia;

/// A vector field written through a Lie group action: F(y) = psi_*(f(y))|_y, with the group's
/// exp-action, dexpinv and bracket in M::Group (Celledoni Section 2).
template <class M>
concept LieGroupOde = requires(const M& m, double t, const typename M::State& y,
                               typename M::Algebra& xi) {
  typename M::Group;
  m.generator(t, y, xi);
  M::Group::exp_act(xi, std::declval<typename M::State&>());
  M::Group::dexpinv(xi, xi, xi);
  M::Group::bracket(xi, xi, xi);
};

/// The dimension of M's Lie algebra, which the Lie group integrators size their scratch with:
/// fixed by M::Algebra, or for a dynamic one (SE(3)^N acting on (TS^2)^N) the state's.
template <LieGroupOde M>
Eigen::Index algebra_dimension(const M& model) {
  if constexpr (M::Algebra::RowsAtCompileTime == Eigen::Dynamic)
    return model.dimension();
  else
    return M::Algebra::RowsAtCompileTime;
}

/// A Hamiltonian system on T*G ~ G ⋉ g* in the right trivialisation (Celledoni Section 3.2):
/// M::Cotangent is the semidirect product (geometry/cotangent_so3.hpp), the model maps its state
/// to a point (g, mu) and back, and gives the Hamiltonian vector field of (14) in g x g*,
///   f(g, mu) = (dH/dmu, -R_g^* dH/dg).
/// set_cotangent_point writes (g, mu) into a state that already holds the model's other
/// components. A model whose state is reduced by a symmetry (the free rigid body's body
/// momentum) lifts it to a point of T*G and reduces the stepped point back (see the model), and
/// says so by kReducedCotangentState: then only a map on T*G itself, not one on the state, can
/// be checked against the symplectic form (13). kLeftInvariantHamiltonian says that H depends on
/// (g, mu) only through Ad*_g mu (no potential): then the theta family of (15)-(17) collapses
/// to one map (integrators/symplectic_lie_group.hpp).
template <class M>
concept CotangentLieGroup =
    requires(const M& m, double t, const typename M::State& y, typename M::State& out,
             const typename M::Cotangent::Point& z, typename M::Cotangent::Algebra& f) {
      { M::kReducedCotangentState } -> std::convertible_to<bool>;
      { M::kLeftInvariantHamiltonian } -> std::convertible_to<bool>;
      { m.cotangent_point(y) } -> std::same_as<typename M::Cotangent::Point>;
      m.set_cotangent_point(z, out);
      m.hamiltonian_field(t, z, f, f);
    };

/// A CotangentLieGroup model that gives the change dy of its state for a change dp of its
/// cotangent point p, without forming the new state, so that a step of T*G can be summed into y
/// compensated (integrators/symplectic_lie_group.hpp, integrators/compensated_sum.hpp).
template <class M>
concept CotangentIncrement =
    CotangentLieGroup<M> && requires(const M& m, const typename M::Cotangent::Point& p, typename M::State& dy) {
      m.cotangent_increment(p, p, dy);
    };

/// A Lagrangian L = 1/2 x'^T M x' - V(x) on R^d with a constant diagonal mass matrix M and c
/// holonomic constraints g(x, t) = 0, time-dependent allowed (DuToit Sections 3, 5.4, 6.3;
/// integrators/constrained_variational.hpp). The model maps its state at time t to positions
/// and velocities (x, x') and back (set_configuration writes a consistent pair into a state).
/// M::Positions is an Eigen column vector of size d (fixed or dynamic), M::Constraints one of
/// size c, M::ConstraintJacobian the c x d matrix Dg = dg/dx, M::PositionMatrix d x d.
/// - constraint_rate: dg/dt at fixed x (zero for a fixed constraint);
/// - constraint_curvature: the part of d^2/dt^2 g(x(t), t) without x'', that is
///   (d/dt Dg) x' + d/dt (dg/dt), so that g'' = Dg x'' + constraint_curvature (the
///   acceleration-level constraint of the index-1 form);
/// - the Hessian of V (potential_hessian), for Newton's method with the exact Jacobian, unless
///   M::kConstantPotentialGradient says grad V does not depend on x (uniform gravity).
template <class M>
concept ConstrainedLagrangian =
    requires(const M& m, double t, const typename M::State& y, typename M::State& out,
             const typename M::Positions& x, typename M::Positions& v,
             typename M::Constraints& g, typename M::ConstraintJacobian& dg) {
      { M::kConstantPotentialGradient } -> std::convertible_to<bool>;
      { m.positions_dimension() } -> std::convertible_to<Eigen::Index>;
      { m.constraint_count() } -> std::convertible_to<Eigen::Index>;
      { m.mass() } -> std::convertible_to<const typename M::Positions&>;  // the diagonal of M
      m.configuration(t, y, v, v);
      m.set_configuration(t, x, x, out);
      { m.constrained_potential(x) } -> std::convertible_to<double>;
      m.constrained_gradient(x, v);
      m.constraints(t, x, g);
      m.constraint_jacobian(t, x, dg);
      m.constraint_rate(t, x, g);
      m.constraint_curvature(t, x, x, g);
    } &&
    (M::kConstantPotentialGradient ||
     requires(const M& m, const typename M::Positions& x, typename M::PositionMatrix& hess) {
       m.potential_hessian(x, hess);
     });

    /// Each view as a type: its name, as the integrator x model matrix reports a missing one, and
    /// whether a model type offers it (the view's concept). An integrator's catalogue entry names
    /// the view it needs by this type, so that the name and the concept cannot fall out of step.
    template <class V>
    concept ViewDescriptor = requires {
      { V::name } -> std::convertible_to<std::string_view>;
      { V::template offered_by<double> } -> std::convertible_to<bool>;
    };

namespace view {
struct AmbientOde {
  static constexpr std::string_view name = "AmbientOde";
  template <class M>
  static constexpr bool offered_by = geomint::AmbientOde<M>;
};
struct SphereLagrangian {
  static constexpr std::string_view name = "SphereLagrangian";
  template <class M>
  static constexpr bool offered_by = geomint::SphereLagrangian<M>;
};
struct DiagonalSphereLagrangian {
  static constexpr std::string_view name = "diagonal-inertia SphereLagrangian";
  template <class M>
  static constexpr bool offered_by = geomint::DiagonalSphereLagrangian<M>;
};
struct LieGroupOde {
  static constexpr std::string_view name = "LieGroupOde";
  template <class M>
  static constexpr bool offered_by = geomint::LieGroupOde<M>;
};
struct CotangentLieGroup {
  static constexpr std::string_view name = "CotangentLieGroup";
  template <class M>
  static constexpr bool offered_by = geomint::CotangentLieGroup<M>;
};
struct ConstrainedLagrangian {
  static constexpr std::string_view name = "ConstrainedLagrangian";
  template <class M>
  static constexpr bool offered_by = geomint::ConstrainedLagrangian<M>;
};
}  // namespace view

}  // namespace geomint
