// Label `unit`: a non-finite state never reads as on the manifold. Every defect of a block
// (models/state_blocks.hpp: StateLayout::defects) and every distance is NaN when an entry it
// reads is NaN or infinite, wherever that entry is in the block; so are
// TangentSphereProduct's unit-length and tangency defects (geometry/tangent_sphere.hpp) and,
// for every registry model, max_manifold_defect (models/model_contract.hpp), which the study
// metrics and the manifold suite read. A 0 there would let a blown-up run pass as on the
// manifold. And the manifold signature by which the generated suites group models
// (tests/support/catalogue_cases.hpp).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "catalogue/model_types.hpp"
#include "geometry/tangent_sphere.hpp"
#include "models/model_contract.hpp"
#include "models/manifold_signature.hpp"
#include "models/state_blocks.hpp"
#include "support/catalogue_cases.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNonFinite[] = {kNaN, kInf, -kInf};

/// One block on every manifold, the T_qS2 block tangent to the S2 one.
StateLayout every_manifold() {
  StateLayout layout;
  layout.add("q", Manifold::S2, 3, "q");
  layout.add("w", Manifold::TangentS2, 3, "q", 0);
  layout.add("Q", Manifold::SO3, 9, "Q");
  layout.add("x", Manifold::R3, 3, "x");
  layout.add("Pi", Manifold::so3_dual, 3, "Pi");
  layout.add("PiGamma", Manifold::se3_dual, 6, "PiGamma");
  layout.add("z", Manifold::Rn, 2, "z");
  return layout;
}

/// A state on that layout's manifold.
Eigen::VectorXd on_the_manifold(const StateLayout& layout) {
  Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(layout.dimension(), 0.1, 0.9);
  y.segment<3>(0) = Eigen::Vector3d(1.0, 2.0, 2.0) / 3.0;  // unit
  y.segment<3>(3) = Eigen::Vector3d(2.0, -1.0, 0.0);       // tangent to it
  Eigen::Map<Eigen::Matrix3d>(y.data() + 6) =
      Eigen::AngleAxisd(0.7, Eigen::Vector3d(1.0, 2.0, 3.0).normalized()).toRotationMatrix();
  return y;
}

/// The indices into defects() of the defects that read block b: its own, and those of the
/// T_qS2 blocks tangent to it.
std::vector<std::size_t> defects_reading(const StateLayout& layout, std::size_t b) {
  std::vector<std::size_t> out;
  std::size_t index = 0;
  for (std::size_t k = 0; k < layout.blocks().size(); ++k) {
    const StateBlock& block = layout.blocks()[k];
    const std::size_t count =
        block.manifold == Manifold::SO3
            ? 2
            : (block.manifold == Manifold::S2 || block.manifold == Manifold::TangentS2);
    const bool reads = k == b || (block.manifold == Manifold::TangentS2 && block.point == b);
    for (std::size_t c = 0; c < count; ++c, ++index)
      if (reads) out.push_back(index);
  }
  return out;
}

TEST(StateLayout, DefectsAreZeroOnTheManifold) {
  const StateLayout layout = every_manifold();
  const Eigen::VectorXd y = on_the_manifold(layout);
  std::vector<double> d(layout.defect_count());
  layout.defects(y, d.data());
  ASSERT_EQ(d.size(), 4u);  // unit_q, tangency_q, orthogonality_Q, det_Q
  for (std::size_t i = 0; i < d.size(); ++i)
    EXPECT_LT(std::abs(d[i]), 1e-15) << layout.defect_names()[i];
  EXPECT_EQ(layout.distance(y, y), 0.0);
}

TEST(StateLayout, EveryDefectAndDistanceIsNaNForANonFiniteEntry) {
  const StateLayout layout = every_manifold();
  const Eigen::VectorXd good = on_the_manifold(layout);
  const auto names = layout.defect_names();
  for (std::size_t b = 0; b < layout.blocks().size(); ++b) {
    const StateBlock& block = layout.blocks()[b];
    for (Eigen::Index k = block.offset; k < block.offset + block.size; ++k)
      for (double bad : kNonFinite) {
        SCOPED_TRACE("block " + block.name + ", entry " + std::to_string(k) + " = " +
                     std::to_string(bad));
        Eigen::VectorXd y = good;
        y(k) = bad;
        std::vector<double> d(layout.defect_count());
        layout.defects(y, d.data());
        for (std::size_t i : defects_reading(layout, b))
          EXPECT_TRUE(std::isnan(d[i])) << names[i] << " = " << d[i];
        EXPECT_TRUE(std::isnan(layout.distance(y, good))) << layout.distance(y, good);
        EXPECT_TRUE(std::isnan(layout.distance(good, y))) << layout.distance(good, y);
        EXPECT_TRUE(std::isnan(layout.distance(y, y))) << layout.distance(y, y);
      }
  }
}

TEST(TangentSphereProduct, DefectsAreNaNForANonFiniteEntry) {
  using Group = TangentSphereProduct<2>;
  Group::Point y(12);
  y << 1, 0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 0;
  EXPECT_EQ(Group::unit_length_defect(y), 0.0);
  EXPECT_EQ(Group::tangency_defect(y), 0.0);
  for (Eigen::Index k = 0; k < y.size(); ++k)
    for (double bad : kNonFinite) {
      Group::Point z = y;
      z(k) = bad;
      EXPECT_TRUE(std::isnan(Group::unit_length_defect(z))) << "entry " << k << " = " << bad;
      EXPECT_TRUE(std::isnan(Group::tangency_defect(z))) << "entry " << k << " = " << bad;
    }
}

TEST(ModelContract, MaxManifoldDefectIsNaNForANonFiniteEntryOfEveryModel) {
  for_each_model_type([]<class M>() {
    SCOPED_TRACE(std::string(M::kName));
    const auto s = testing::make_setup<M>(std::string(M::kExercise.preset));
    EXPECT_LT(max_manifold_defect(s.model, s.initial), 1e-12);
    for (Eigen::Index k : {Eigen::Index{0}, s.initial.size() / 2, s.initial.size() - 1})
      for (double bad : kNonFinite) {
        typename M::State y = s.initial;
        y(k) = bad;
        const double d = max_manifold_defect(s.model, y);
        EXPECT_TRUE(std::isnan(d)) << "entry " << k << " = " << bad << ": " << d;
      }
  });
}

/// (TS^2)^n laid out as the sphere models do: q_1..q_n, then w_1..w_n.
StateLayout tangent_spheres(int n) {
  StateLayout layout;
  for (int i = 0; i < n; ++i) layout.add("q", Manifold::S2, 3, std::to_string(i));
  for (int i = 0; i < n; ++i)
    layout.add("w", Manifold::TangentS2, 3, std::to_string(i), static_cast<std::size_t>(i));
  return layout;
}

TEST(ManifoldSignature, CollapsesTangentSpherePairsWhateverTheirNumber) {
  EXPECT_EQ(manifold_signature(tangent_spheres(1)), "(TS2)^n");
  EXPECT_EQ(manifold_signature(tangent_spheres(5)), "(TS2)^n");
  StateLayout rigid_body;
  rigid_body.add("Pi", Manifold::so3_dual, 3, "Pi");
  EXPECT_EQ(manifold_signature(rigid_body), "so3*");
  StateLayout mixed = tangent_spheres(2);
  mixed.add("Q", Manifold::SO3, 9, "Q");
  mixed.add("x", Manifold::R3, 3, "x");
  mixed.add("y", Manifold::R3, 3, "y");
  mixed.add("p", Manifold::S2, 3, "p");  // no velocity tangent to it: a point of S2
  EXPECT_EQ(manifold_signature(mixed), "(TS2)^n x SO3 x R3 x R3 x S2");
}

}  // namespace
}  // namespace geomint
