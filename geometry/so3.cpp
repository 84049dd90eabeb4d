#include "geometry/so3.hpp"

#include <Eigen/SVD>

namespace geomint::so3 {

Mat3 nearest_rotation(const Mat3& a) {
  const Eigen::JacobiSVD<Mat3> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Mat3 u = svd.matrixU();
  if ((u * svd.matrixV().transpose()).determinant() < 0.0) u.col(2) = -u.col(2);
  return u * svd.matrixV().transpose();
}

}  // namespace geomint::so3
