#include "models/sphere_lj.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <numbers>
#include <string>
#include <utility>

namespace geomint {

// ---- The icosphere -----------------------------------------------------------------------

Icosphere icosphere(int level) {
  if (level < 0 || level > 6)
    throw InputError("icosphere: subdivision level must be in [0, 6], got " +
                     std::to_string(level));
  const double phi = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Eigen::Vector3d> v = {
      {-1, phi, 0}, {1, phi, 0}, {-1, -phi, 0}, {1, -phi, 0},  //
      {0, -1, phi}, {0, 1, phi}, {0, -1, -phi}, {0, 1, -phi},  //
      {phi, 0, -1}, {phi, 0, 1}, {-phi, 0, -1}, {-phi, 0, 1}};
  for (auto& p : v) p.normalize();
  std::vector<std::array<int, 3>> faces = {
      {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
      {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
      {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<int, int>, int> midpoint;
    const auto mid = [&](int a, int b) {
      const auto key = std::minmax(a, b);
      const auto [it, added] = midpoint.try_emplace(key, static_cast<int>(v.size()));
      if (added) v.push_back((v[static_cast<std::size_t>(a)] + v[static_cast<std::size_t>(b)])
                                 .normalized());
      return it->second;
    };
    std::vector<std::array<int, 3>> finer;
    finer.reserve(4 * faces.size());
    for (const auto& [a, b, c] : faces) {
      const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      finer.push_back({a, ab, ca});
      finer.push_back({b, bc, ab});
      finer.push_back({c, ca, bc});
      finer.push_back({ab, bc, ca});
    }
    faces = std::move(finer);
  }
  Icosphere s;
  s.vertices.resize(3, static_cast<Eigen::Index>(v.size()));
  for (std::size_t i = 0; i < v.size(); ++i) s.vertices.col(static_cast<Eigen::Index>(i)) = v[i];
  s.faces = std::move(faces);
  for (const auto& f : s.faces)
    for (std::size_t k = 0; k < 3; ++k)
      s.edges.push_back({std::min(f[k], f[(k + 1) % 3]), std::max(f[k], f[(k + 1) % 3])});
  std::sort(s.edges.begin(), s.edges.end());
  s.edges.erase(std::unique(s.edges.begin(), s.edges.end()), s.edges.end());
  return s;
}

double mean_nearest_neighbour_distance(const Eigen::Matrix3Xd& q) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    double nearest = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 0; j < q.cols(); ++j)
      if (j != i) nearest = std::min(nearest, (q.col(i) - q.col(j)).norm());
    sum += nearest;
  }
  return sum / static_cast<double>(q.cols());
}

// ---- The model ---------------------------------------------------------------------------

SphereLennardJones::SphereLennardJones(const ParameterSet& p)
    : pairs_(p["epsilon"], p["sigma"], static_cast<Eigen::Index>(p["n"]), p["cutoff"]) {
  const auto n = static_cast<Eigen::Index>(p["n"]);
  inertia_ = Inertia::constant(n, p["m"]);
  set_bodies(1.0, Points::Zero(3, n));
  allocate_scratch(n);
}

void SphereLennardJones::ambient_potential_hessian(const Points& q, PositionMatrix& hess) const {
  hess.setZero(positions_dimension(), positions_dimension());
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j)
      add_difference_hessian(i, j, pairs_.pair_hessian(q.col(i) - q.col(j)), hess);
}

double SphereLennardJones::lee2009_sigma() {
  static const double sigma =
      mean_nearest_neighbour_distance(icosphere(kLee2009Level).vertices) / std::pow(2.0, 1.0 / 6.0);
  return sigma;
}

std::array<Eigen::Vector3d, 2> SphereLennardJones::lee2009_vortex_axes() {
  const double half = kLee2009VortexSeparationDeg / 2 * std::numbers::pi / 180;
  return {Eigen::Vector3d(std::sin(half), 0.0, std::cos(half)),
          Eigen::Vector3d(-std::sin(half), 0.0, std::cos(half))};
}

ParameterSet SphereLennardJones::default_parameters() {
  return {{"n", 642.0, "", "number of molecules", ParameterDomain::whole(2)},
          {"m", 1.0, "kg", "mass of every molecule", ParameterDomain::positive()},
          {"epsilon", 0.01, "J", "depth of the Lennard-Jones well", ParameterDomain::positive()},
          {"sigma", lee2009_sigma(), "m",
           "Lennard-Jones length: the pair force vanishes at the chord 2^(1/6) sigma",
           ParameterDomain::positive()},
          {"cutoff", 0.0, "sigma",
           "0: all pairs; > 0: the shifted-force potential cut at this chord, by a cell list",
           ParameterDomain::non_negative()}};
}

namespace {

constexpr double kLee2009Epsilon = 0.01;
constexpr double kLee2009Mass = 1.0;

/// The lee2009 initial state on the icosphere's vertices: two co-rotating Gaussian vortices,
///   w_i = Omega sum_k exp(-theta_ik^2 / (2 theta_0^2)) (a_k - (a_k . q_i) q_i),
/// theta_ik the angle between q_i and the axis a_k, so that q_i' = w_i x q_i turns the molecules
/// near a_k about a_k (the tangent projection does not change q_i', it makes w_i . q_i = 0).
SphereLennardJones::State lee2009_state(const Icosphere& mesh) {
  const Eigen::Index n = mesh.vertices.cols();
  const auto axes = SphereLennardJones::lee2009_vortex_axes();
  const double width = SphereLennardJones::kLee2009VortexWidthDeg * std::numbers::pi / 180;
  SphereLennardJones::State y(6 * n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Vector3d q = mesh.vertices.col(i);
    Eigen::Vector3d w = Eigen::Vector3d::Zero();
    for (const auto& a : axes) {
      const double theta = std::atan2(a.cross(q).norm(), a.dot(q));
      w += SphereLennardJones::kLee2009VortexRate *
           std::exp(-theta * theta / (2 * width * width)) * (a - a.dot(q) * q);
    }
    w -= w.dot(q) * q;  // once more: |q| = 1 only to round-off
    y.segment<3>(3 * i) = q;
    y.segment<3>(3 * (n + i)) = w;
  }
  return y;
}

/// The lee2009 velocity design, with the numbers of the constants above.
std::string lee2009_velocities_text() {
  char text[600];
  std::snprintf(
      text, sizeof text,
      "Velocities ('two vortices separated by 30 degrees', no formula given): axes a_1, a_2 = "
      "(+-sin %gdeg, 0, cos %gdeg), %g degrees apart in the x-z plane; w_i = Omega sum_k "
      "exp(-theta_ik^2 / (2 theta_0^2)) (a_k - (a_k . q_i) q_i), theta_ik the angle between "
      "q_i and a_k, Omega = %g rad/s, theta_0 = %g degrees: each vortex turns the molecules "
      "near its axis about that axis, both counter-clockwise seen from outside (co-rotating); "
      "the narrow width keeps the two vortices apart (at theta_0 = 15 degrees they merge into "
      "one ring).",
      SphereLennardJones::kLee2009VortexSeparationDeg / 2,
      SphereLennardJones::kLee2009VortexSeparationDeg / 2,
      SphereLennardJones::kLee2009VortexSeparationDeg, SphereLennardJones::kLee2009VortexRate,
      SphereLennardJones::kLee2009VortexWidthDeg);
  return text;
}

/// The numbers the lee2009 description quotes, computed from the preset rather than copied.
std::string lee2009_numbers(const Icosphere& mesh, const SphereLennardJones::State& y) {
  const double sigma = SphereLennardJones::lee2009_sigma();
  const LennardJonesPairs lj(kLee2009Epsilon, sigma, 1);
  double shortest = 2.0, longest = 0.0, mean = 0.0, weakest = 0.0, strongest = 0.0;
  for (const auto& [a, b] : mesh.edges) {
    const double r = (mesh.vertices.col(a) - mesh.vertices.col(b)).norm();
    shortest = std::min(shortest, r);
    longest = std::max(longest, r);
    mean += r / static_cast<double>(mesh.edges.size());
    weakest = std::min(weakest, lj.pair_force(r));
    strongest = std::max(strongest, lj.pair_force(r));
  }
  const Eigen::Index n = mesh.vertices.cols();
  double fastest = 0.0, kinetic = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Vector3d qdot = y.segment<3>(3 * (n + i)).cross(y.segment<3>(3 * i));
    fastest = std::max(fastest, qdot.norm());
    kinetic += 0.5 * kLee2009Mass * qdot.squaredNorm();
  }
  char text[800];
  std::snprintf(
      text, sizeof text,
      "Resulting numbers: sigma = %.6f = d / 2^(1/6), d = %.6f the mean over molecules of the chord to the nearest "
      "other molecule. The %zu mesh edges have chords %.4f to %.4f (mean %.4f), so the pair "
      "force dV/dr between mesh neighbours lies in [%.3f, %.3f] (the LJ attraction peaks at "
      "%.3f; 24 eps/sigma = %.2f). The fastest molecule moves at %.3f; the kinetic energy is "
      "%.4f (%.2f eps per molecule).",
      sigma, sigma * std::pow(2.0, 1.0 / 6.0), mesh.edges.size(), shortest, longest, mean,
      weakest, strongest, lj.pair_force(std::pow(26.0 / 7.0, 1.0 / 6.0) * sigma),
      24 * kLee2009Epsilon / sigma, fastest, kinetic,
      kinetic / static_cast<double>(n) / kLee2009Epsilon);
  return text;
}

}  // namespace

const std::vector<Preset<SphereLennardJones>>& SphereLennardJones::presets() {
  static const std::vector<Preset<SphereLennardJones>> list = [] {
    const Icosphere mesh = icosphere(kLee2009Level);
    const State y0 = lee2009_state(mesh);
    std::vector<Preset<SphereLennardJones>> l;
    l.push_back(
        {"lee2009",
         // Every choice the paper leaves open is stated here.
         "LLM Example 6: n = 642, m = 1, eps = 0.01 (the paper's T = 5 s, h = 0.005). "
         "Positions ('uniformly distributed'): the vertices of an icosahedron subdivided three "
         "times (each face split into four at its edge midpoints, each midpoint projected onto "
         "the sphere at once), 10 4^3 + 2 = 642; 12 molecules have 5 mesh neighbours, 630 have "
         "6. sigma ('the force between neighbouring molecules is close to zero'): the LJ minimum "
         "2^(1/6) sigma is put at the mean nearest-neighbour distance (the mean mesh edge would "
         "put the short edges deep in the repulsive wall, with forces up to 5.5 times the largest "
         "attraction). " +
             lee2009_velocities_text() + " " + lee2009_numbers(mesh, y0),
         [](ParameterSet& p) {
           p.set("n", 10 * (1 << (2 * kLee2009Level)) + 2);
           p.set("m", kLee2009Mass);
           p.set("epsilon", kLee2009Epsilon);
           p.set("sigma", lee2009_sigma());
         },
         [y0](const SphereLennardJones& model) {
           if (6 * model.bodies() != y0.size())
             throw InputError("sphere_lj: preset lee2009 places " +
                              std::to_string(y0.size() / 6) + " molecules, but parameter n = " +
                              std::to_string(model.bodies()));
           return y0;
         }});
    // The same construction one subdivision deep: 42 molecules, sigma from their own spacing.
    // Small enough for solvers with dense Jacobians (CVODE BDF on 642 molecules factors a
    // 3852 x 3852 matrix and takes minutes) and for the integrator x model matrix.
    const Icosphere small = icosphere(1);
    const State y_small = lee2009_state(small);
    const double sigma_small =
        mean_nearest_neighbour_distance(small.vertices) / std::pow(2.0, 1.0 / 6.0);
    l.push_back({"icosphere42",
                 "Our small configuration (no paper): the lee2009 construction on an icosahedron "
                 "subdivided once, n = 42, m = 1, eps = 0.01, sigma = the mean nearest-neighbour "
                 "chord / 2^(1/6), the same two vortices.",
                 [sigma_small](ParameterSet& p) {
                   p.set("n", 42);
                   p.set("m", kLee2009Mass);
                   p.set("epsilon", kLee2009Epsilon);
                   p.set("sigma", sigma_small);
                 },
                 [y_small](const SphereLennardJones& model) {
                   if (6 * model.bodies() != y_small.size())
                     throw InputError("sphere_lj: preset icosphere42 places 42 molecules, but "
                                      "parameter n = " + std::to_string(model.bodies()));
                   return y_small;
                 }});
    return l;
  }();
  return list;
}

}  // namespace geomint
