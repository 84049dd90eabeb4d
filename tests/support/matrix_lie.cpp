#include "support/matrix_lie.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace geomint::testing {

Mat3 expm(const Mat3& a) { return a.exp(); }
Mat4 expm(const Mat4& a) { return a.exp(); }
Mat6 expm(const Mat6& a) { return a.exp(); }
Mat7 expm(const Mat7& a) { return a.exp(); }
Mat3 logm(const Mat3& a) { return a.log(); }

}  // namespace geomint::testing
