#pragma once
// The common part of every mechanical system on (S^2)^n with a Lagrangian of LLM's form (2.2),
//   L = 1/2 sum_ij M_ij q_i'.q_j' - V(q),
// written once: a concrete model (CRTP `Derived`) supplies its inertia M, potential V and
// gradient dV/dq, and gets from here
//   - the AmbientOde view, LLM (2.10)-(2.11), on y = [q_1..q_n, w_1..w_n] in R^{6n};
//   - the LieGroupOde view, SE(3)^n acting on (TS^2)^n (Celledoni Section 5.1-5.2);
//   - the model contract's state layout (q_i on S^2, w_i tangent to it) and invariants (energy,
//     the conserved components of the angular momentum).
//
// A model object owns scratch memory for the (2.11) solve, so evaluations allocate nothing;
// the price is that one model object must not be used by two threads at once.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <string>
#include <vector>

#include "geometry/tangent_sphere.hpp"
#include "models/invariant.hpp"
#include "models/sphere_inertia.hpp"
#include "models/state_blocks.hpp"

namespace geomint {

/// Which components of the angular momentum are conserved: the one about the vertical e3
/// (gravity, pivots on the axis), all three (a potential invariant under every rotation), or
/// none (pivots spread out, a clamped end, a fixed array: no rotation acting on all q_i at
/// once leaves V unchanged).
enum class Symmetry { Vertical, Full, None };

/// `Diagonal`: whether M is diagonal (bodies coupled through V only), which makes K diagonal
/// and admits the explicit variational integrator (LLM Cor. 3).
template <class Derived, int N, bool Diagonal>
class SphereModel {
 public:
  static constexpr int kBodies = N;
  static constexpr bool kDiagonalInertia = Diagonal;
  using Group = TangentSphereProduct<N>;  // SE(3)^N acting on (TS^2)^N
  using State = typename Group::Point;
  using Algebra = typename Group::Algebra;
  using Points = Eigen::Matrix<double, 3, N>;  // q_1..q_n (or w_1..w_n) as columns
  // A diagonal M is held as its diagonal (models/sphere_inertia.hpp).
  using Inertia = typename SphereInertiaSolver<N, Diagonal>::Inertia;
  using Vec3 = Eigen::Vector3d;

  Eigen::Index bodies() const { return self().inertia().rows(); }
  Eigen::Index dimension() const { return 6 * bodies(); }

  static Eigen::Map<const Points> positions(const State& y) {
    return {y.data(), 3, y.size() / 6};
  }
  static Eigen::Map<const Points> velocities(const State& y) {
    return {y.data() + y.size() / 2, 3, y.size() / 6};
  }

  // ---- AmbientOde view -----------------------------------------------------------------

  /// q_i' = w_i x q_i  (LLM 2.10), and w' from (2.11).
  void rhs(double /*t*/, const State& y, State& dy) const {
    const auto q = positions(y);
    const auto w = velocities(y);
    angular_acceleration(y, scratch_.wdot);
    const Eigen::Index n = bodies();
    for (Eigen::Index i = 0; i < n; ++i) {
      dy.template segment<3>(3 * i) = w.col(i).cross(q.col(i));
      dy.template segment<3>(3 * (n + i)) = scratch_.wdot.col(i);
    }
  }

  /// Normalise q_i and project w_i onto the tangent plane at q_i.
  void project(State& y) const { Group::project(y); }

  // ---- LieGroupOde view ----------------------------------------------------------------

  /// f(q, w) = (w_1, q_1 x h_1, ..., w_n, q_n x h_n) with h = w' from (2.11), so that
  /// psi_*(f)|_(q,w) = (w x q, h) is the vector field (Celledoni Section 5.2).
  void generator(double /*t*/, const State& y, Algebra& xi) const {
    const auto q = positions(y);
    const auto w = velocities(y);
    angular_acceleration(y, scratch_.wdot);
    for (Eigen::Index i = 0; i < bodies(); ++i) {
      xi.template segment<3>(6 * i) = w.col(i);
      xi.template segment<3>(6 * i + 3) = q.col(i).cross(scratch_.wdot.col(i));
    }
  }

  // ---- Invariants ------------------------------------------------------------------------

  /// 1/2 sum_ij M_ij (w_i x q_i).(w_j x q_j).
  double kinetic_energy(const State& y) const {
    velocities_of_positions(y, scratch_.qdot);
    const auto& m = self().inertia();
    double t = 0.0;
    for (Eigen::Index i = 0; i < bodies(); ++i) {
      t += 0.5 * m(i, i) * scratch_.qdot.col(i).squaredNorm();
      if constexpr (!Diagonal)
        for (Eigen::Index j = i + 1; j < bodies(); ++j)
          t += m(i, j) * scratch_.qdot.col(i).dot(scratch_.qdot.col(j));
    }
    return t;
  }

  double energy(const State& y) const {
    scratch_.q = positions(y);
    return kinetic_energy(y) + self().potential(scratch_.q);
  }

  /// The momentum map of rotations acting on every q_i at once:
  /// J = sum_ij M_ij q_i x (w_j x q_j), i.e. sum_i q_i x dL/dq_i'.
  Vec3 angular_momentum(const State& y) const {
    const auto q = positions(y);
    velocities_of_positions(y, scratch_.qdot);
    const auto& m = self().inertia();
    Vec3 j = Vec3::Zero();
    for (Eigen::Index i = 0; i < bodies(); ++i) {
      if constexpr (Diagonal) {
        j += m(i, i) * q.col(i).cross(scratch_.qdot.col(i));
      } else {
        Vec3 p = Vec3::Zero();
        for (Eigen::Index k = 0; k < bodies(); ++k) p += m(i, k) * scratch_.qdot.col(k);
        j += q.col(i).cross(p);
      }
    }
    return j;
  }

  /// Names of the conserved momentum components, in the order of conserved_momentum().
  static std::vector<std::string> momentum_names() {
    switch (Derived::kSymmetry) {
      case Symmetry::Full: return {"Lx", "Ly", "Lz"};
      case Symmetry::Vertical: return {"Lz"};
      case Symmetry::None: return {};
    }
    return {};
  }

  /// The conserved components of the angular momentum, first momentum_count() of the vector.
  Eigen::Vector3d conserved_momentum(const State& y) const {
    if (Derived::kSymmetry == Symmetry::None) return Vec3::Zero();
    const Vec3 j = angular_momentum(y);
    if (Derived::kSymmetry == Symmetry::Full) return j;
    return {j.z(), 0.0, 0.0};
  }
  static int momentum_count() { return static_cast<int>(momentum_names().size()); }

  /// The kinetic energy of body i alone, 1/2 M_ii |q_i'|^2 (the whole kinetic energy when M is
  /// diagonal; a molecule's temperature in LLM Fig. 3.7).
  double body_kinetic_energy(const State& y, Eigen::Index i) const {
    const auto q = positions(y);
    const auto w = velocities(y);
    return 0.5 * self().inertia()(i, i) * w.col(i).cross(q.col(i)).squaredNorm();
  }

  /// Largest |‖q_i‖ - 1| and |q_i . w_i|.
  static double unit_length_defect(const State& y) { return Group::unit_length_defect(y); }
  static double tangency_defect(const State& y) { return Group::tangency_defect(y); }

  // ---- The model contract (models/model_contract.hpp) -----------------------------------

  /// q_1..q_n on S^2, then w_1..w_n, each tangent to its q_i.
  const StateLayout& state_layout() const { return layout_; }

  /// The energy and the conserved components of the angular momentum.
  const std::vector<Invariant>& declared_invariants() const { return declared_; }
  void evaluate_invariants(const State& y, double* out) const {
    *out++ = energy(y);
    const Vec3 j = conserved_momentum(y);
    for (int k = 0; k < momentum_count(); ++k) *out++ = j(k);
  }

 protected:
  SphereModel() = default;

  /// LLM (2.11):  K(q) w' = b(q, w),  b_i = sum_{j != i} M_ij |w_j|^2 q_i x q_j - q_i x dV/dq_i.
  void angular_acceleration(const State& y, Points& wdot) const {
    const auto q = positions(y);
    const auto w = velocities(y);
    const auto& m = self().inertia();
    const Eigen::Index n = bodies();
    scratch_.q = q;
    self().potential_gradient(scratch_.q, scratch_.grad);
    for (Eigen::Index i = 0; i < n; ++i) {
      Vec3 bi = -q.col(i).cross(scratch_.grad.col(i));
      if constexpr (!Diagonal)
        for (Eigen::Index j = 0; j < n; ++j)
          if (j != i) bi += m(i, j) * w.col(j).squaredNorm() * q.col(i).cross(q.col(j));
      wdot.col(i) = bi;
    }
    scratch_.inertia_solver.solve_in_place(m, q, wdot);
  }

  /// The state layout and the scratch memory, for n bodies, once; Derived calls this from its
  /// constructor.
  void allocate_scratch(Eigen::Index n) {
    // Names built by appending: GCC 12 warns (-Wrestrict, a false positive) on "q" + string.
    const auto named = [](char prefix, Eigen::Index i) {
      std::string s(1, prefix);
      s += std::to_string(i);
      return s;
    };
    for (Eigen::Index i = 1; i <= n; ++i)
      layout_.add(named('q', i), Manifold::S2, 3, std::to_string(i));
    for (Eigen::Index i = 1; i <= n; ++i)
      layout_.add(named('w', i), Manifold::TangentS2, 3, std::to_string(i),
                  static_cast<std::size_t>(i - 1));
    declared_.push_back({"energy", InvariantKind::Energy, true});
    for (auto& name : momentum_names()) declared_.push_back({std::move(name), InvariantKind::Momentum, true});
    scratch_.q.resize(3, n);
    scratch_.grad.resize(3, n);
    scratch_.wdot.resize(3, n);
    scratch_.qdot.resize(3, n);
    scratch_.inertia_solver.resize(n);
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }

  /// q_i' = w_i x q_i, as the columns of `qdot`.
  void velocities_of_positions(const State& y, Points& qdot) const {
    const auto q = positions(y);
    const auto w = velocities(y);
    for (Eigen::Index i = 0; i < bodies(); ++i) qdot.col(i) = w.col(i).cross(q.col(i));
  }

  struct Scratch {
    Points q, grad, wdot, qdot;
    SphereInertiaSolver<N, Diagonal> inertia_solver;
  };
  mutable Scratch scratch_;
  StateLayout layout_;
  std::vector<Invariant> declared_;
};

}  // namespace geomint
