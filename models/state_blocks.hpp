#pragma once
// A model's state as named blocks, each on a named manifold with its own defect functions and
// distance (the model contract, models/model_contract.hpp). The state vector y is the blocks
// laid end to end at their offsets:
//
//   manifold     stored as                            defects (zero on the manifold)        distance
//   S2           q in R^3, |q| = 1                    unit_<tag>        = |q| - 1            great-circle angle
//   TangentS2    w in R^3 with q . w = 0, q the       tangency_<tag>    = q . w              |w - w~| (ambient)
//                S2 block it is tangent to
//   SO3          Q in R^{3x3}, column-major, 9 entries orthogonality_<tag> = ‖Q^T Q - I‖_F     rotation angle of Q^T Q~
//                                                      det_<tag>         = det Q - 1
//   R3, so3*     a vector in R^3                      none                                   Euclidean
//   se3*         (Pi, Gamma) in R^6                   none                                   Euclidean
//   Rn           a free vector in R^n                 none                                   Euclidean
//
// The distance of two states is sqrt(sum over blocks of d_block^2): geodesic on S^2 and SO(3),
// Euclidean elsewhere. Every defect and distance is NaN when its input is not finite, so that
// a non-finite state can never read as "on the manifold".
//
// The manifold:: functions are templates with no parameter of their own, compiled only where
// used: geometry/so3.hpp says why.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <Eigen/LU>
#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace geomint {

enum class Manifold { S2, TangentS2, SO3, R3, so3_dual, se3_dual, Rn };

constexpr std::string_view to_string(Manifold m) {
  switch (m) {
    case Manifold::S2: return "S2";
    case Manifold::TangentS2: return "T_qS2";
    case Manifold::SO3: return "SO3";
    case Manifold::R3: return "R3";
    case Manifold::so3_dual: return "so3*";
    case Manifold::se3_dual: return "se3*";
    case Manifold::Rn: return "Rn";
  }
  return "?";
}

struct StateBlock {
  std::string name;  // as the state's columns and `--ic` name it: "q1", "w1", "Q", "Pi"
  Manifold manifold;
  Eigen::Index offset, size;
  std::string tag;          // suffix of its defect names: unit_<tag>, tangency_<tag>, ...
  std::size_t point = 0;    // TangentS2: the index of the S2 block it is tangent to
};

/// The blocks of a state, in the order the state vector holds them.
class StateLayout {
 public:
  const std::vector<StateBlock>& blocks() const { return blocks_; }
  Eigen::Index dimension() const {
    return blocks_.empty() ? 0 : blocks_.back().offset + blocks_.back().size;
  }

  /// Appends a block after the last one; returns its index.
  std::size_t add(std::string name, Manifold manifold, Eigen::Index size, std::string tag,
                  std::size_t point = 0) {
    blocks_.push_back({std::move(name), manifold, dimension(), size, std::move(tag), point});
    return blocks_.size() - 1;
  }

  /// The defects of every block, in block order, by name (see the table above).
  std::vector<std::string> defect_names() const;
  /// Their values at y, written to out[0..defect_count()).
  void defects(const Eigen::Ref<const Eigen::VectorXd>& y, double* out) const;
  std::size_t defect_count() const;

  /// sqrt(sum over blocks of d_block(a, b)^2).
  double distance(const Eigen::Ref<const Eigen::VectorXd>& a,
                  const Eigen::Ref<const Eigen::VectorXd>& b) const;

  /// Column names of the state: <block>_x, _y, _z for 3-vectors, <block>_11 .. _33 (row,
  /// column) for a rotation, <block>_1 .. _n otherwise.
  std::vector<std::string> column_names() const;

  /// The index of the block of that name, or blocks().size().
  std::size_t find(std::string_view name) const;

 private:
  std::vector<StateBlock> blocks_;
};

namespace manifold {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The great-circle angle between two points of S^2, accurate for small and large angles.
template <class = void>
inline double sphere_angle(const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  if (!a.allFinite() || !b.allFinite()) return kNaN;
  return std::atan2(a.cross(b).norm(), a.dot(b));
}

/// The rotation angle of A^T B for rotations A, B: atan2(sin, cos) with
/// 2 sin = |vee(R - R^T)| and 2 cos = tr R - 1 (R = A^T B), accurate at 0 and near pi.
template <class = void>
inline double rotation_angle(const Eigen::Matrix3d& a, const Eigen::Matrix3d& b) {
  if (!a.allFinite() || !b.allFinite()) return kNaN;
  const Eigen::Matrix3d r = a.transpose() * b;
  const Eigen::Vector3d axial(r(2, 1) - r(1, 2), r(0, 2) - r(2, 0), r(1, 0) - r(0, 1));
  return std::atan2(0.5 * axial.norm(), 0.5 * (r.trace() - 1.0));
}

template <class = void>
inline double orthogonality_defect(const Eigen::Matrix3d& q) {
  if (!q.allFinite()) return kNaN;
  return (q.transpose() * q - Eigen::Matrix3d::Identity()).norm();
}

template <class = void>
inline double determinant_defect(const Eigen::Matrix3d& q) {
  if (!q.allFinite()) return kNaN;
  return q.determinant() - 1.0;
}

}  // namespace manifold

}  // namespace geomint
