#include "models/relative_equilibrium.hpp"

#include <Eigen/Eigenvalues>

namespace geomint {

Eigen::VectorXcd eigenvalues(const Eigen::MatrixXd& a) {
  return Eigen::EigenSolver<Eigen::MatrixXd>(a, false).eigenvalues();
}

}  // namespace geomint
