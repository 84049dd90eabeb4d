#pragma once
// Linear stability of a relative equilibrium about the vertical axis e3 (DuToit Section 4).
// For a model whose state is a stack of 3-vectors (positions, velocities or angular velocities,
// all turning together under a rotation about e3) and whose vector field f is equivariant under
// those rotations, a relative equilibrium y_e turning at rate omega is a fixed point of the
// field seen from the frame turning with it: with Y = R_z(-omega t) y (every 3-block rotated),
//   Y' = F(Y) = f(Y) - omega e3 x Y   (blockwise),
// since d/dt (R_z(-omega t) x) = R_z(-omega t) x' - omega e3 x (R_z(-omega t) x). Its
// linearisation at y_e has the spectrum of the relative equilibrium: the symmetry and the
// conserved quantities give zero eigenvalues (some in Jordan blocks, which the finite-difference
// Jacobian splits into pairs of size ~ sqrt(its error)), an unstable relative equilibrium an
// eigenvalue with a positive real part. The Jacobian is by central differences.

#include <Eigen/Core>
#include <algorithm>
#include <cmath>

#include "models/views.hpp"

namespace geomint {

/// The eigenvalues of a real square matrix (models/relative_equilibrium.cpp: Eigen's
/// EigenSolver, compiled once rather than in every unit that takes a spectrum).
Eigen::VectorXcd eigenvalues(const Eigen::MatrixXd& a);

/// F(y) = f(y) - omega e3 x y, blockwise over the 3-blocks of y.
template <AmbientOde M>
Eigen::VectorXd rotating_frame_field(const M& model, const typename M::State& y, double omega) {
  typename M::State dy = y;
  model.rhs(0.0, y, dy);
  Eigen::VectorXd out(dy.size());
  for (Eigen::Index b = 0; b < y.size() / 3; ++b) {
    const Eigen::Vector3d x = y.template segment<3>(3 * b);
    out.segment<3>(3 * b) =
        dy.template segment<3>(3 * b) - omega * Eigen::Vector3d::UnitZ().cross(x);
  }
  return out;
}

/// The eigenvalues of dF/dy at y (a relative equilibrium turning at omega).
template <AmbientOde M>
Eigen::VectorXcd relative_equilibrium_spectrum(const M& model, const typename M::State& y,
                                               double omega) {
  const Eigen::Index n = y.size();
  Eigen::MatrixXd jac(n, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    const double d = 1e-6 * std::max(1.0, std::abs(y(j)));
    typename M::State plus = y, minus = y;
    plus(j) += d;
    minus(j) -= d;
    jac.col(j) = (rotating_frame_field(model, plus, omega) -
                  rotating_frame_field(model, minus, omega)) / (2.0 * d);
  }
  return eigenvalues(jac);
}

/// The largest real part of that spectrum: positive and well above the finite-difference
/// splitting of the zero eigenvalues (~1e-4 |omega|) means unstable.
template <AmbientOde M>
double largest_growth_rate(const M& model, const typename M::State& y, double omega) {
  return relative_equilibrium_spectrum(model, y, omega).real().maxCoeff();
}

}  // namespace geomint
