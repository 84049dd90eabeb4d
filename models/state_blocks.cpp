#include "models/state_blocks.hpp"

namespace geomint {

namespace {

Eigen::Matrix3d rotation(const Eigen::Ref<const Eigen::VectorXd>& y, const StateBlock& b) {
  return Eigen::Map<const Eigen::Matrix3d>(y.data() + b.offset);
}

Eigen::Vector3d vector3(const Eigen::Ref<const Eigen::VectorXd>& y, const StateBlock& b) {
  return y.segment<3>(b.offset);
}

}  // namespace

std::vector<std::string> StateLayout::defect_names() const {
  std::vector<std::string> names;
  for (const auto& b : blocks_) {
    if (b.manifold == Manifold::S2) names.push_back("unit_" + b.tag);
    if (b.manifold == Manifold::TangentS2) names.push_back("tangency_" + b.tag);
    if (b.manifold == Manifold::SO3) {
      names.push_back("orthogonality_" + b.tag);
      names.push_back("det_" + b.tag);
    }
  }
  return names;
}

std::size_t StateLayout::defect_count() const {
  std::size_t n = 0;
  for (const auto& b : blocks_)
    n += b.manifold == Manifold::SO3 ? 2 : (b.manifold == Manifold::S2 || b.manifold == Manifold::TangentS2);
  return n;
}

void StateLayout::defects(const Eigen::Ref<const Eigen::VectorXd>& y, double* out) const {
  for (const auto& b : blocks_) {
    switch (b.manifold) {
      case Manifold::S2: *out++ = vector3(y, b).norm() - 1.0; break;
      case Manifold::TangentS2:
        *out++ = vector3(y, blocks_[b.point]).dot(vector3(y, b));
        break;
      case Manifold::SO3: {
        const Eigen::Matrix3d q = rotation(y, b);
        *out++ = manifold::orthogonality_defect(q);
        *out++ = manifold::determinant_defect(q);
        break;
      }
      default: break;
    }
  }
}

double StateLayout::distance(const Eigen::Ref<const Eigen::VectorXd>& a,
                             const Eigen::Ref<const Eigen::VectorXd>& b) const {
  double sum = 0.0;
  for (const auto& block : blocks_) {
    double d = 0.0;
    if (block.manifold == Manifold::S2)
      d = manifold::sphere_angle(vector3(a, block), vector3(b, block));
    else if (block.manifold == Manifold::SO3)
      d = manifold::rotation_angle(rotation(a, block), rotation(b, block));
    else
      d = (a.segment(block.offset, block.size) - b.segment(block.offset, block.size)).norm();
    sum += d * d;
  }
  return std::sqrt(sum);
}

std::vector<std::string> StateLayout::column_names() const {
  std::vector<std::string> names;
  for (const auto& b : blocks_) {
    if (b.size == 3) {
      for (const char* axis : {"_x", "_y", "_z"}) names.push_back(b.name + axis);
    } else if (b.manifold == Manifold::SO3) {
      for (int col = 1; col <= 3; ++col)  // column-major, as stored
        for (int row = 1; row <= 3; ++row)
          names.push_back(b.name + "_" + std::to_string(row) + std::to_string(col));
    } else {
      for (Eigen::Index i = 1; i <= b.size; ++i) names.push_back(b.name + "_" + std::to_string(i));
    }
  }
  return names;
}

std::size_t StateLayout::find(std::string_view name) const {
  std::size_t i = 0;
  while (i < blocks_.size() && blocks_[i].name != name) ++i;
  return i;
}

}  // namespace geomint
