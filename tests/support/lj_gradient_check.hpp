#pragma once
// A Lennard-Jones gradient against finite differences of its potential, with an error bound
// derived from the potential rather than a fixed tolerance.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>

#include "support/finite_difference.hpp"

namespace geomint::testing {

/// grad (dV/dq_i as columns) against the Richardson extrapolation of central differences of
/// `potential` with step h. Its error is h^4/480 |V^(5)| (truncation) plus `roundoff`. Along a
/// line moving molecule i, V^(5) is bounded by the sum over the pairs (i, j) with r_ij < rc of
/// the fifth r-derivatives of the pair energy (the radial direction is the steepest):
/// 4 eps (12.13.14.15.16 sigma^12 / r^17 + 6.7.8.9.10 sigma^6 / r^11); a shift of the pair
/// energy quadratic in r (the cutoff's) adds none. rc = infinity: all pairs.
template <class Potential>
void expect_lj_gradient_matches_differences(const Eigen::Matrix3Xd& q,
                                            const Eigen::Matrix3Xd& grad, double eps,
                                            double sigma, double h, double roundoff,
                                            const Potential& potential,
                                            double rc = std::numeric_limits<double>::infinity()) {
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    double fifth = 0.0;
    for (Eigen::Index j = 0; j < q.cols(); ++j) {
      const double r = (q.col(i) - q.col(j)).norm();
      if (j != i && r < rc)
        fifth += 4 * eps *
                 (524160 * std::pow(sigma, 12) / std::pow(r, 17) +
                  30240 * std::pow(sigma, 6) / std::pow(r, 11));
    }
    const double tol = std::pow(h, 4) / 480 * fifth + roundoff;
    for (int c = 0; c < 3; ++c) {
      const auto v = [&](double x) {
        Eigen::Matrix3Xd p = q;
        p(c, i) = x;
        return potential(p);
      };
      EXPECT_NEAR(grad(c, i), richardson_derivative_scalar(v, q(c, i), h), tol)
          << "coordinate " << c << " of molecule " << i;
    }
  }
}

}  // namespace geomint::testing
