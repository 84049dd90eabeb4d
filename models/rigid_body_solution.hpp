#pragma once
// The closed-form motion of the torque-free rigid body (models/free_rigid_body.hpp) in Jacobi
// elliptic functions (Landau & Lifshitz, Mechanics, Section 37). With I1 < I2 < I3, energy E,
// |Pi| = L and L^2 > 2 E I2 (rotation about the axis of largest inertia), the angular
// velocity Omega = I^{-1} Pi is
//   Omega_1 = sqrt((2E I3 - L^2) / (I1 (I3 - I1))) cn(tau, k),
//   Omega_2 = sqrt((2E I3 - L^2) / (I2 (I3 - I2))) sn(tau, k),
//   Omega_3 = sqrt((L^2 - 2E I1) / (I3 (I3 - I1))) dn(tau, k),
//   tau = t sqrt((I3 - I2)(L^2 - 2E I1) / (I1 I2 I3)),
//   k^2 = (I2 - I1)(2E I3 - L^2) / ((I3 - I2)(L^2 - 2E I1)),
// which starts at Omega_2 = 0, Omega_1 > 0, Omega_3 > 0 (sn(0) = 0, cn(0) = dn(0) = 1);
// sn, cn, dn from Boost.Math.

#include <Eigen/Core>
#include <boost/math/special_functions/jacobi_elliptic.hpp>
#include <cmath>
#include <string>

#include "models/parameters.hpp"

namespace geomint {

class RigidBodySolution {
 public:
  /// I1 < I2 < I3 and an initial Pi = (Pi1, 0, Pi3) with Pi1, Pi3 > 0 and L^2 > 2 E I2.
  RigidBodySolution(const Eigen::Vector3d& inertia, const Eigen::Vector3d& pi0) : i_(inertia) {
    const double l2 = pi0.squaredNorm();
    const double two_e = pi0.dot(inertia.cwiseInverse().cwiseProduct(pi0));
    if (!(i_(0) < i_(1) && i_(1) < i_(2)) || pi0(1) != 0.0 || !(pi0(0) > 0.0 && pi0(2) > 0.0) ||
        !(l2 > two_e * i_(1)))
      throw InputError("rigid body solution: needs I1 < I2 < I3, Pi0 = (Pi1 > 0, 0, Pi3 > 0) and "
                       "|Pi0|^2 > 2 E I2");
    amplitude_ << std::sqrt((two_e * i_(2) - l2) / (i_(0) * (i_(2) - i_(0)))),
        std::sqrt((two_e * i_(2) - l2) / (i_(1) * (i_(2) - i_(1)))),
        std::sqrt((l2 - two_e * i_(0)) / (i_(2) * (i_(2) - i_(0))));
    rate_ = std::sqrt((i_(2) - i_(1)) * (l2 - two_e * i_(0)) / (i_(0) * i_(1) * i_(2)));
    modulus_ = std::sqrt((i_(1) - i_(0)) * (two_e * i_(2) - l2) /
                         ((i_(2) - i_(1)) * (l2 - two_e * i_(0))));
  }

  double modulus() const { return modulus_; }  // k

  Eigen::Vector3d at(double t) const {
    double cn = 0.0, dn = 0.0;
    const double sn = boost::math::jacobi_elliptic(modulus_, rate_ * t, &cn, &dn);
    const Eigen::Vector3d omega(amplitude_(0) * cn, amplitude_(1) * sn, amplitude_(2) * dn);
    return i_.cwiseProduct(omega);
  }

 private:
  Eigen::Vector3d i_, amplitude_;
  double rate_ = 0.0, modulus_ = 0.0;
};

}  // namespace geomint
