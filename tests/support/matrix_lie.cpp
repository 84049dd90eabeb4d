#include "support/matrix_lie.hpp"

#include <unsupported/Eigen/MatrixFunctions>

namespace geomint::testing {

namespace {

// MatrixFunctions instantiated once, on dynamic-size matrices, for every size below: each
// fixed size was an instantiation of its own (this unit took 18 s to compile, 14 s now; the
// 3x3 logarithm is most of the rest).
Eigen::MatrixXd exp_of(const Eigen::MatrixXd& a) { return a.exp(); }

}  // namespace

Mat3 expm(const Mat3& a) { return exp_of(a); }
Mat4 expm(const Mat4& a) { return exp_of(a); }
Mat6 expm(const Mat6& a) { return exp_of(a); }
Mat7 expm(const Mat7& a) { return exp_of(a); }
Mat3 logm(const Mat3& a) { return a.log(); }

}  // namespace geomint::testing
