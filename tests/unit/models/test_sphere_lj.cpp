// Label `unit`: sphere_lj (LLM Example 6) against independent derivations.
//
//   - V against the paper's double sum 1/2 sum_{i != j} 4 eps [(sigma/r)^12 - (sigma/r)^6]
//     written out here with std::pow, and dV/dq against the force of LLM (3.27) written out
//     here, on a random configuration and on the preset;
//   - dV/dq against Richardson-extrapolated central differences of V, on the 12 vertices of
//     the icosahedron and on 50 random molecules;
//   - the lee2009 preset: 642 distinct unit vectors, 12 molecules with 5 neighbours and 630 with
//     6 at the nearest-neighbour distance; sigma puts the LJ minimum at the mean
//     nearest-neighbour distance, so neighbour forces are small; velocities tangent;
//   - the vector field conserves the energy and the angular momentum vector (directional
//     derivatives by finite differences vanish);
//   - the explicit VI (LLM Cor. 3) conserves the angular momentum vector to round-off;
//   - parameter cutoff: 0 (all pairs) by default and in the presets; with a cutoff the vector
//     field still conserves E and J and the explicit VI J (the pair sum itself is tested in
//     test_lennard_jones_pairs.cpp).

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include "integrators/integrate.hpp"
#include "integrators/variational_explicit.hpp"
#include "models/sphere_lj.hpp"
#include "support/eigen_matchers.hpp"
#include "support/lj_gradient_check.hpp"
#include "support/model_setup.hpp"
#include "support/random.hpp"

namespace geomint {
namespace {

using Vec3 = Eigen::Vector3d;
using Model = SphereLennardJones;
using State = Model::State;
using Points = Model::Points;

constexpr double kU = std::numeric_limits<double>::epsilon();

Model make_model(Eigen::Index n, double epsilon, double sigma, double m = 1.0) {
  auto p = Model::default_parameters();
  p.set("n", static_cast<double>(n));
  p.set("m", m);
  p.set("epsilon", epsilon);
  p.set("sigma", sigma);
  return Model(p);
}

/// n random unit vectors, each drawn until it is at least `min_chord` from the earlier ones,
/// with random tangent velocities of order `speed`.
State random_state(testing::Rng& rng, Eigen::Index n, double min_chord, double speed) {
  State y(6 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    Vec3 q;
    bool separated = false;
    while (!separated) {
      q = rng.unit3();
      separated = true;
      for (Eigen::Index j = 0; j < i; ++j)
        separated = separated && (q - y.segment<3>(3 * j)).norm() >= min_chord;
    }
    Vec3 w = speed * Vec3(rng.normal(), rng.normal(), rng.normal());
    w -= q.dot(w) * q;
    y.segment<3>(3 * i) = q;
    y.segment<3>(3 * (n + i)) = w;
  }
  return y;
}

// The direct sums accumulate in long double (64-bit mantissa on x86), so that their own
// summation error (up to ~N u sum|terms| in double for N = 412k terms) does not swamp the
// comparison: what remains is the per-term round-off, a few tens of u relative.

/// The paper's V: 1/2 sum over ordered pairs i != j, with std::pow.
double direct_potential(const Points& q, double eps, double sigma) {
  long double v = 0.0L;
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = 0; j < q.cols(); ++j)
      if (j != i) {
        const double r = (q.col(i) - q.col(j)).norm();
        v += 0.5 * 4 * eps * (std::pow(sigma / r, 12) - std::pow(sigma / r, 6));
      }
  return static_cast<double>(v);
}

/// The force in LLM (3.27): -dV/dq_i = sum_{j != i} 4 eps (q_i - q_j)/r [12 s^12/r^13 - 6 s^6/r^7],
/// and, in `scale`, the largest sum over j of the pair terms' sizes (what its round-off scales
/// with: the net force on a molecule is much smaller than its pair terms when they cancel).
Points direct_force(const Points& q, double eps, double sigma, double& scale) {
  Points f(3, q.cols());
  scale = 0.0;
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    double size = 0.0;
    long double fi[3] = {0.0L, 0.0L, 0.0L};
    for (Eigen::Index j = 0; j < q.cols(); ++j)
      if (j != i) {
        const Vec3 d = q.col(i) - q.col(j);
        const double r = d.norm();
        const Vec3 term = 4 * eps * d / r *
                          (12 * std::pow(sigma, 12) / std::pow(r, 13) -
                           6 * std::pow(sigma, 6) / std::pow(r, 7));
        for (int k = 0; k < 3; ++k) fi[k] += term(k);
        size += term.norm();
      }
    for (int k = 0; k < 3; ++k) f(k, i) = static_cast<double>(fi[k]);
    scale = std::max(scale, size);
  }
  return f;
}

/// sum over pairs of |pair energy|: the size against which the round-off of V is measured.
double absolute_pair_sum(const Points& q, double eps, double sigma) {
  double v = 0.0;
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j) {
      const double s = std::pow(sigma / (q.col(i) - q.col(j)).norm(), 6);
      v += 4 * eps * std::abs(s * s - s);
    }
  return v;
}

// Tolerances: each side's terms carry a few tens of u of relative round-off (std::pow(x, 12),
// or s = (sigma^2/r^2)^3 squared), and the model sums up to 641 of them per accumulator, in a
// random walk of ~25 u; 100 u of the sum of the terms' sizes covers both.
TEST(SphereLennardJones, PotentialAndGradientAreThePapersSums) {
  GEOMINT_SEEDED_RNG(rng, 201);
  // 50 molecules no closer than sigma (the steep wall is probed, r/sigma in [1, 8]).
  const double eps = 0.01, sigma = 0.25;
  const Model model = make_model(50, eps, sigma);
  const Points q = Model::positions(random_state(rng, 50, sigma, 1.0));
  Points grad(3, 50);
  model.potential_gradient(q, grad);
  double scale = 0.0;
  const Points force = direct_force(q, eps, sigma, scale);
  EXPECT_NEAR(model.potential(q), direct_potential(q, eps, sigma),
              100 * kU * absolute_pair_sum(q, eps, sigma));
  EXPECT_EIGEN_NEAR(grad, (-force).eval(), 100 * kU * scale);

  const auto preset = testing::make_setup<Model>("lee2009");
  const Points qp = Model::positions(preset.initial);
  const double s = preset.model.pairs().sigma();
  Points gp(3, qp.cols());
  preset.model.potential_gradient(qp, gp);
  const Points fp = direct_force(qp, 0.01, s, scale);
  EXPECT_NEAR(preset.model.potential(qp), direct_potential(qp, 0.01, s),
              100 * kU * absolute_pair_sum(qp, 0.01, s));
  EXPECT_EIGEN_NEAR(gp, (-fp).eval(), 100 * kU * scale);
}

/// dV/dq_k against the Richardson extrapolation of central differences with step h (see
/// lj_gradient_check.hpp); round-off ~3 u |V| / h, for which we take u times the sum of the
/// pair energies' sizes, times 10.
void expect_gradient_matches_differences(const Model& model, const Points& q, double h) {
  const double eps = model.pairs().epsilon(), sigma = model.pairs().sigma();
  const double roundoff = 10 * kU * absolute_pair_sum(q, eps, sigma) / h;
  Points grad(3, q.cols());
  model.potential_gradient(q, grad);
  testing::expect_lj_gradient_matches_differences(
      q, grad, eps, sigma, h, roundoff, [&](const Points& p) { return model.potential(p); });
}

TEST(SphereLennardJones, GradientMatchesFiniteDifferences) {
  {
    // The icosahedron: edges of chord 1.0515, sigma = 0.9 (neighbours attract).
    const Points q = icosphere(0).vertices;
    ASSERT_EQ(q.cols(), 12);
    expect_gradient_matches_differences(make_model(12, 0.01, 0.9), q, 1e-4);
  }
  {
    GEOMINT_SEEDED_RNG(rng, 202);
    const double sigma = 0.25;  // molecules no closer than sigma
    const Points q = Model::positions(random_state(rng, 50, sigma, 0.0));
    expect_gradient_matches_differences(make_model(50, 0.01, sigma), q, 1e-4);
  }
}

/// Molecule i's distances to all others, sorted.
std::vector<double> sorted_distances(const Points& q, Eigen::Index i) {
  std::vector<double> d;
  for (Eigen::Index j = 0; j < q.cols(); ++j)
    if (j != i) d.push_back((q.col(i) - q.col(j)).norm());
  std::sort(d.begin(), d.end());
  return d;
}

TEST(SphereLennardJones, Lee2009PresetIsTheSubdividedIcosahedron) {
  const auto s = testing::make_setup<Model>("lee2009");
  const Points q = Model::positions(s.initial);
  ASSERT_EQ(q.cols(), 642);  // 10 4^3 + 2
  for (Eigen::Index i = 0; i < q.cols(); ++i) EXPECT_NEAR(q.col(i).norm(), 1.0, 2 * kU) << i;

  // Nearest-neighbour distances, by brute force: d_i = min_j |q_i - q_j| > 0 (all distinct).
  double mean_nearest = 0.0;
  std::vector<std::vector<double>> distances;
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    distances.push_back(sorted_distances(q, i));
    ASSERT_GT(distances.back().front(), 0.1) << "molecule " << i << " is not distinct";
    mean_nearest += distances.back().front() / static_cast<double>(q.cols());
  }
  // Neighbours are the molecules within 1.3 d of the mean nearest-neighbour distance d. The
  // threshold is not delicate: the midpoint projections of the subdivided icosahedron make
  // its edges 0.98 d to 1.17 d long, and the next ring starts at 1.6 d, and both are checked:
  // every neighbour lies within [0.95 d, 1.2 d] and no molecule lies in (1.2 d, 1.5 d).
  const double d = mean_nearest;
  int five = 0, six = 0;
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    const auto& di = distances[static_cast<std::size_t>(i)];
    const auto neighbours = std::count_if(di.begin(), di.end(), [&](double r) { return r < 1.3 * d; });
    EXPECT_TRUE(neighbours == 5 || neighbours == 6) << "molecule " << i << ": " << neighbours;
    five += neighbours == 5;
    six += neighbours == 6;
    if (neighbours == 5) {
      EXPECT_LT(i, 12) << "a 5-neighbour molecule is not an icosahedron vertex";
    }
    for (long k = 0; k < neighbours; ++k) {
      EXPECT_GE(di[static_cast<std::size_t>(k)], 0.95 * d) << "molecule " << i;
      EXPECT_LE(di[static_cast<std::size_t>(k)], 1.2 * d) << "molecule " << i;
    }
    EXPECT_GE(di[static_cast<std::size_t>(neighbours)], 1.5 * d) << "molecule " << i;
  }
  EXPECT_EQ(five, 12);
  EXPECT_EQ(six, 630);
  // The 12 five-neighbour molecules are the icosahedron's vertices: each has 5 others of
  // them at the icosahedron's edge angle, arccos(1/sqrt5).
  for (Eigen::Index i = 0; i < 12; ++i) {
    int at_edge_angle = 0;
    for (Eigen::Index j = 0; j < 12; ++j)
      at_edge_angle += std::abs(q.col(i).dot(q.col(j)) - 1 / std::sqrt(5.0)) < 1e-14;
    EXPECT_EQ(at_edge_angle, 5) << i;
  }

  // sigma: the LJ minimum 2^(1/6) sigma is the mean nearest-neighbour distance (to the
  // round-off of a mean of 642 numbers, summed in another order: 642 u at worst).
  EXPECT_REL_NEAR(std::pow(2.0, 1.0 / 6.0) * s.model.pairs().sigma(), d, 642 * kU);
  EXPECT_EQ(s.model.pairs().epsilon(), 0.01);
  EXPECT_EQ(s.model.inertia()(0, 0), 1.0);
}

TEST(SphereLennardJones, Lee2009NeighbourForcesAreSmall) {
  const auto s = testing::make_setup<Model>("lee2009");
  const Points q = Model::positions(s.initial);
  const double eps = s.model.pairs().epsilon(), sigma = s.model.pairs().sigma();
  // dV/dr of one pair, written out here; 24 eps / sigma is the force scale of the potential,
  // and the attraction peaks at r = (26/7)^(1/6) sigma.
  const auto force = [&](double r) {
    return 4 * eps * (-12 * std::pow(sigma, 12) / std::pow(r, 13) + 6 * std::pow(sigma, 6) / std::pow(r, 7));
  };
  const double scale = 24 * eps / sigma;
  const double peak_attraction = force(std::pow(26.0 / 7.0, 1.0 / 6.0) * sigma);
  EXPECT_NEAR(force(std::pow(2.0, 1.0 / 6.0) * sigma), 0.0, 10 * kU * scale);
  // Every pair of neighbours (chord < 1.3 d, as above) pulls or pushes with at most the LJ
  // attraction's peak (0.095 of the scale): no neighbour pair sits on the repulsive wall.
  const double d = std::pow(2.0, 1.0 / 6.0) * sigma;
  double strongest_repulsion = 0.0;
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j) {
      const double r = (q.col(i) - q.col(j)).norm();
      if (r < 1.3 * d) {
        EXPECT_LE(force(r), peak_attraction * (1 + 1e-12));
        strongest_repulsion = std::max(strongest_repulsion, -force(r));
      }
    }
  EXPECT_LT(strongest_repulsion, peak_attraction);
  // What moves a molecule is the tangential part of the net force, from all 641 others: it is
  // below a fifth of the force scale on every molecule (the lattice is nearly in equilibrium).
  Points grad(3, q.cols());
  s.model.potential_gradient(q, grad);
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    const Vec3 g = grad.col(i), qi = q.col(i);
    EXPECT_LT((g - g.dot(qi) * qi).norm(), 0.2 * scale) << "molecule " << i;
  }
}

TEST(SphereLennardJones, Lee2009VelocitiesAreTwoTangentVortices) {
  const auto s = testing::make_setup<Model>("lee2009");
  const Eigen::Index n = s.model.bodies();
  const auto axes = Model::lee2009_vortex_axes();
  EXPECT_NEAR(std::acos(axes[0].dot(axes[1])) * 180 / std::numbers::pi, 30.0, 1e-12);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 q = s.initial.segment<3>(3 * i), w = s.initial.segment<3>(3 * (n + i));
    EXPECT_LE(std::abs(q.dot(w)), 1e-15) << "molecule " << i;
    // Each vortex turns the molecules about its axis: q' = w x q lies in span(a_1 x q, a_2 x q).
    const Vec3 qdot = w.cross(q);
    const Vec3 b1 = axes[0].cross(q), b2 = axes[1].cross(q);
    const Vec3 normal = b1.cross(b2);
    // (round-off of the triple product: a few u |q'| |b_1| |b_2|)
    EXPECT_NEAR(qdot.dot(normal), 0.0, 10 * kU * qdot.norm() * b1.norm() * b2.norm());
  }
  // Co-rotating, both axes within 15 degrees of e3: J points up. The half turn about e3 maps
  // the mesh onto itself and a_1 onto a_2, so it leaves the velocity field, and J, unchanged:
  // J_x = J_y = 0 (to the round-off of a sum of 642 terms).
  const Vec3 j = s.model.angular_momentum(s.initial);
  EXPECT_GT(j.z(), 0.0);
  EXPECT_NEAR(j.x(), 0.0, 1e-13 * j.z());
  EXPECT_NEAR(j.y(), 0.0, 1e-13 * j.z());
}

/// Directional derivatives of E and J along the vector field F at y, by central differences of
/// step e = 1e-5, relative to the power of the forces (a gradient inconsistent with V by a
/// relative delta would show as ~delta). Truncation e^2/6 |E^(3)| is at most ~4e-8 of the power
/// on the random states (steep walls at r = sigma), round-off ~u sum|pairs| / e ~ 1e-9: a
/// tolerance of 1e-6 leaves a margin of 25.
void expect_field_conserves(const Model& model, const State& y) {
  const double e = 1e-5, tol = 1e-6;
  State f(y.size());
  model.rhs(0.0, y, f);
  const State yp = y + e * f, ym = y - e * f;
  // The size of what cancels: the power of the forces, |dV/dq . q'|.
  const Points q = Model::positions(y);
  Points grad(3, q.cols());
  model.potential_gradient(q, grad);
  double power = 0.0;
  for (Eigen::Index i = 0; i < q.cols(); ++i) power += std::abs(grad.col(i).dot(f.segment<3>(3 * i)));
  EXPECT_NEAR((model.energy(yp) - model.energy(ym)) / (2 * e), 0.0, tol * power);
  const Vec3 dj = (model.angular_momentum(yp) - model.angular_momentum(ym)) / (2 * e);
  EXPECT_EIGEN_NEAR(dj, Vec3::Zero().eval(), tol * power);
  const Eigen::Index n = model.bodies();
  for (Eigen::Index i = 0; i < n; ++i)
    EXPECT_NEAR(y.segment<3>(3 * i).dot(f.segment<3>(3 * i)), 0.0, 1e-15) << i;  // d|q_i|^2/dt
}

TEST(SphereLennardJones, VectorFieldConservesEnergyAndAngularMomentum) {
  GEOMINT_SEEDED_RNG(rng, 203);
  const Model model = make_model(50, 0.01, 0.25);
  for (int trial = 0; trial < 3; ++trial)
    expect_field_conserves(model, random_state(rng, 50, 0.25, 0.3));
  const auto s = testing::make_setup<Model>("lee2009");
  expect_field_conserves(s.model, s.initial);
}

TEST(SphereLennardJones, ExplicitVariationalIntegratorConservesAngularMomentum) {
  const auto s = testing::make_setup<Model>("lee2009");
  const double h = 0.005;
  const FixedStep step{h};
  const double t_end = 100 * h;
  ExplicitVariational<Model> vi(s.model);
  State y = s.initial;
  const Vec3 j0 = s.model.angular_momentum(y);
  Vec3 worst = Vec3::Zero();
  integrate(vi, y, 0.0, t_end, step, [&](double, const State& yk) {
    worst = worst.cwiseMax((s.model.angular_momentum(yk) - j0).cwiseAbs());
  });
  EXPECT_EQ(vi.work().steps, 100);
  // Round-off bound: each step changes every q_i and w_i by round-off relative to their size,
  // so J = sum_i m q_i x q_i' moves by at most ~n u max_i |m q_i x q_i'| per step; 100 steps
  // add up linearly at worst. A VI that did not conserve J would be off by O(h^2) ~ 1e-6.
  double largest = 0.0;
  const Eigen::Index n = s.model.bodies();
  for (Eigen::Index i = 0; i < n; ++i)
    largest = std::max(largest, s.initial.segment<3>(3 * (n + i)).norm());
  const double bound = 100 * static_cast<double>(n) * kU * largest;
  EXPECT_EIGEN_NEAR(worst, Vec3::Zero().eval(), bound) << "|J(0)| = " << j0.norm();
  // Unit length: each step's q_{k+1} = a x q + sqrt(1 - |a|^2) q has a norm error of ~2 u.
  EXPECT_LT(Model::unit_length_defect(y), 100 * 2 * kU);
}

TEST(SphereLennardJones, AllPairsUnlessACutoffIsSet) {
  EXPECT_EQ(Model::default_parameters()["cutoff"], 0.0);
  for (const auto& preset : Model::presets()) {
    const Model model(preset_parameters(preset, {}));
    EXPECT_EQ(model.pairs().cutoff(), 0.0) << preset.name;
  }
  auto p = Model::default_parameters();
  EXPECT_THROW(p.set("cutoff", -1.0), InputError);
  EXPECT_THROW(p.set("cutoff", std::numeric_limits<double>::infinity()), InputError);
}

TEST(SphereLennardJones, WithACutoffTheFieldAndTheVariationalIntegratorKeepTheInvariants) {
  // Random molecules at sigma = 0.25 cut at 2.5 sigma (most pairs beyond it), and the lee2009
  // preset cut at 2.5 sigma.
  GEOMINT_SEEDED_RNG(rng, 204);
  auto p = Model::default_parameters();
  p.set("n", 50);
  p.set("epsilon", 0.01);
  p.set("sigma", 0.25);
  p.set("cutoff", 2.5);
  const Model model(p);
  for (int trial = 0; trial < 3; ++trial)
    expect_field_conserves(model, random_state(rng, 50, 0.25, 0.3));

  const auto& preset = find_preset<Model>("lee2009");
  auto q = preset_parameters(preset, {});
  q.set("cutoff", 2.5);
  const Model cut(q);
  const State y0 = preset.initial_state(cut);
  expect_field_conserves(cut, y0);
  // The explicit VI conserves J to round-off, as over all pairs (the bound is the one of
  // ExplicitVariationalIntegratorConservesAngularMomentum).
  const double h = 0.005;
  const FixedStep step{h};
  const double t_end = 100 * h;
  ExplicitVariational<Model> vi(cut);
  State y = y0;
  const Vec3 j0 = cut.angular_momentum(y);
  Vec3 worst = Vec3::Zero();
  integrate(vi, y, 0.0, t_end, step, [&](double, const State& yk) {
    worst = worst.cwiseMax((cut.angular_momentum(yk) - j0).cwiseAbs());
  });
  double largest = 0.0;
  const Eigen::Index n = cut.bodies();
  for (Eigen::Index i = 0; i < n; ++i)
    largest = std::max(largest, y0.segment<3>(3 * (n + i)).norm());
  EXPECT_EIGEN_NEAR(worst, Vec3::Zero().eval(), 100 * static_cast<double>(n) * kU * largest);
}

TEST(SphereLennardJones, RejectsBadParametersAndMismatchedPresets) {
  auto p = Model::default_parameters();
  EXPECT_THROW(p.set("n", 1), InputError);
  EXPECT_THROW(p.set("n", 2.5), InputError);
  EXPECT_THROW(p.set("sigma", 0.0), InputError);
  p.set("n", 10);
  p.set("sigma", 0.1);
  const Model ten(p);
  EXPECT_THROW(find_preset<Model>("lee2009").initial_state(ten), InputError);
}

}  // namespace
}  // namespace geomint
