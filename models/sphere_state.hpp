#pragma once
// Building a state of (TS^2)^n from the vectors q_i and w_i.

#include <Eigen/Core>
#include <vector>

#include "geometry/tangent_sphere.hpp"

namespace geomint {

template <class State>
State make_sphere_state(const std::vector<Eigen::Vector3d>& q,
                        const std::vector<Eigen::Vector3d>& w) {
  const auto n = static_cast<Eigen::Index>(q.size());
  State y(6 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    y.template segment<3>(3 * i) = q[static_cast<std::size_t>(i)];
    y.template segment<3>(3 * (n + i)) = w[static_cast<std::size_t>(i)];
  }
  return y;
}

}  // namespace geomint
