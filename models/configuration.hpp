#pragma once
// A model that draws its configuration as a chain of points in R^3, for a study's `paths` plot:
// configuration_points(t, y) gives the points at the state y of time t, the first the support
// (the fixed point, or a driven support's position at t), each joined to the next by a segment:
// the joints of a pendulum chain or a rod, the support and the centre of mass of a top, the
// support and the two masses of the Astrojax. The plot draws each point's path over the run and
// the chain at the experiment's path_times. A model without it has its S^2 blocks' paths drawn
// on the unit sphere instead (studies/README.md, `paths`).

#include <Eigen/Core>

namespace geomint {

template <class M>
concept DrawsConfiguration = requires(const M& m, double t, const typename M::State& y) {
  { m.configuration_points(t, y) } -> std::convertible_to<Eigen::Matrix3Xd>;
};

/// The joints of a chain of links hanging from `support`: link k has direction q.col(k) and
/// length lengths(k); the first point is the support, each next one the previous plus a link.
template <class Directions, class Lengths>
Eigen::Matrix3Xd chain_joints(const Eigen::Vector3d& support, const Directions& q, const Lengths& lengths) {
  Eigen::Matrix3Xd points(3, q.cols() + 1);
  points.col(0) = support;
  for (Eigen::Index k = 0; k < q.cols(); ++k) points.col(k + 1) = points.col(k) + lengths(k) * q.col(k);
  return points;
}

}  // namespace geomint
