#include "models/sphere_charges.hpp"

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "models/sphere_state.hpp"

namespace geomint {

namespace {

using Vec3 = Eigen::Vector3d;

/// The point at polar angle theta from +e3 and azimuth phi (NOTES-dutoit 5.2).
Vec3 polar_point(double theta, double phi) {
  return {std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)};
}

/// An equilateral triangle at polar angle theta: q_i = polar_point(theta, 2 pi i / 3),
/// i = 0, 1, 2.
std::vector<Vec3> equilateral(double theta) {
  std::vector<Vec3> q;
  for (int i = 0; i < 3; ++i) q.push_back(polar_point(theta, 2.0 * std::numbers::pi * i / 3.0));
  return q;
}

/// The triangle of DuToit Fig. 3(a), on the equator: equilateral(pi / 2) with z = 0 exactly
/// (cos(pi / 2) rounds to 6e-17).
std::vector<Vec3> equatorial() {
  std::vector<Vec3> q = equilateral(std::numbers::pi / 2);
  for (Vec3& qi : q) qi.z() = 0.0;
  return q;
}

/// The angular velocities w_i that turn every q_i rigidly about e3 at rate omega,
/// q_i' = omega e3 x q_i: the part of omega e3 tangent at q_i.
std::vector<Vec3> spin_about_e3(const std::vector<Vec3>& q, double omega) {
  std::vector<Vec3> w;
  for (const Vec3& qi : q) w.push_back(omega * (Vec3::UnitZ() - qi.z() * qi));
  return w;
}

SphereCharges::State triangle_state(const SphereCharges& model, const std::string& preset,
                                    const std::vector<Vec3>& q, double omega) {
  if (model.bodies() != 3)
    throw InputError("sphere_charges: preset " + preset +
                     " is for n = 3 charges, got n = " + std::to_string(model.bodies()));
  return make_sphere_state<SphereCharges::State>(q, spin_about_e3(q, omega));
}

/// The rate at which q turning about e3 holds its charge `body` on its circle (rotation_rate);
/// an InputError naming the preset where the parameters admit none.
double holding_rate(const SphereCharges& model, const std::string& preset, const std::vector<Vec3>& q,
                    Eigen::Index body) {
  SphereCharges::Points points(3, static_cast<Eigen::Index>(q.size()));
  for (std::size_t i = 0; i < q.size(); ++i) points.col(static_cast<Eigen::Index>(i)) = q[i];
  const double rate = model.rotation_rate(points, body);
  if (std::isnan(rate))
    throw InputError("sphere_charges: preset " + preset +
                     ": with these parameters no rate of turning holds its charges on their circle "
                     "(the tangential force on charge " + std::to_string(body + 1) + " points away from the axis)");
  return rate;
}

/// The values every preset takes (NOTES-dutoit 5.1, our choice): three unit charges of unit
/// mass, k = 1, Coulomb's sign.
void unit_charges(ParameterSet& p) {
  p.set("n", 3);
  p.set("n1", 0);
  p.set("m", 1.0);
  p.set("e", 1.0);
  p.set("k", 1.0);
  p.set("sigma", 1.0);
}

/// As unit_charges, with the sign printed in DuToit Section 6.1: like charges attract.
void attracting_unit_charges(ParameterSet& p) {
  unit_charges(p);
  p.set("sigma", -1.0);
}

}  // namespace

ParameterSet SphereCharges::default_parameters() {
  return {{"n", 3.0, "", "number of charges", ParameterDomain::whole(2, 10000)},
          {"m", 1.0, "", "mass of every particle but the first n1", ParameterDomain::positive()},
          {"e", 1.0, "", "charge of every particle but the first n1", ParameterDomain::positive()},
          {"n1", 0.0, "", "how many particles, the first, are of the second species (at most n)",
           ParameterDomain::whole(0, 10000)},
          {"m1", 1.0, "", "mass of each of the first n1 particles", ParameterDomain::positive()},
          {"e1", 1.0, "", "charge of each of the first n1 particles, of either sign",
           ParameterDomain::finite()},
          {"k", 1.0, "", "Coulomb constant", ParameterDomain::positive()},
          {"sigma", 1.0, "",
           "+1 Coulomb (like charges repel); -1 the sign printed in DuToit Section 6.1 (they "
           "attract)",
           ParameterDomain::one_of({-1.0, 1.0})}};
}

SphereCharges::SphereCharges(const ParameterSet& p) {
  const auto n = static_cast<Eigen::Index>(p["n"]);
  const auto n1 = static_cast<Eigen::Index>(p["n1"]);
  if (n1 > n)
    throw InputError("sphere_charges: n1 = " + std::to_string(n1) + " exceeds the number of charges n = " +
                     std::to_string(n));
  Eigen::VectorXd masses = Eigen::VectorXd::Constant(n, p["m"]);
  charge_ = Eigen::VectorXd::Constant(n, p["e"]);
  masses.head(n1).setConstant(p["m1"]);
  charge_.head(n1).setConstant(p["e1"]);
  inertia_ = Inertia(masses);
  set_bodies(1.0, Points::Zero(3, n));
  coupling_ = p["sigma"] * p["k"];
  allocate_scratch(n);
}

// ---- The potential, on the columns q_i ------------------------------------------------------

// DuToit Section 6.1 with NOTES-dutoit 0: V = sigma k sum_{i<j} e_i e_j / |q_i - q_j|.
double SphereCharges::potential(const Points& q) const {
  double v = 0.0;
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j)
      v += charge_(i) * charge_(j) / (q.col(i) - q.col(j)).norm();
  return coupling_ * v;
}

// NOTES-dutoit 2.4: dV/dq_i = -sigma k sum_{j != i} e_i e_j d_ij / r_ij^3, d_ij = q_i - q_j.
void SphereCharges::potential_gradient(const Points& q, Points& grad) const {
  grad.setZero();
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j) {
      const Vec3 d = q.col(i) - q.col(j);
      const double r2 = d.squaredNorm();
      const Vec3 f = (coupling_ * charge_(i) * charge_(j) / (r2 * std::sqrt(r2))) * d;
      grad.col(i) -= f;
      grad.col(j) += f;
    }
}

double SphereCharges::rotation_rate(const Points& q, Eigen::Index i) const {
  Points grad(3, q.cols());
  potential_gradient(q, grad);
  const Vec3 qi = q.col(i);
  const Vec3 rho(qi.x(), qi.y(), 0.0);
  const Vec3 tangent = rho - qi.dot(rho) * qi;  // P_i rho_i
  const double omega2 = tangent.dot(grad.col(i)) / (mass()(3 * i) * tangent.squaredNorm());
  return omega2 > 0.0 && std::isfinite(omega2) ? std::sqrt(omega2)
                                                : std::numeric_limits<double>::quiet_NaN();
}

// ---- ConstrainedLagrangian view --------------------------------------------------------------

// NOTES-dutoit 2.4: with d = q_i - q_j, r = |d|, the pair term's Hessian in d is
//   B = -sigma k e_i e_j (I / r^3 - 3 d d^T / r^5).
void SphereCharges::ambient_potential_hessian(const Points& q, PositionMatrix& hess) const {
  hess.setZero(positions_dimension(), positions_dimension());
  for (Eigen::Index i = 0; i < q.cols(); ++i)
    for (Eigen::Index j = i + 1; j < q.cols(); ++j) {
      const Vec3 d = q.col(i) - q.col(j);
      const double r2 = d.squaredNorm();
      const double inv_r3 = 1.0 / (r2 * std::sqrt(r2));
      const Eigen::Matrix3d b =
          -coupling_ * charge_(i) * charge_(j) * inv_r3 *
          (Eigen::Matrix3d::Identity() - (3.0 / r2) * d * d.transpose());
      add_difference_hessian(i, j, b, hess);
    }
}

// ---- Presets: DuToit Fig. 3, with the initial conditions of NOTES-dutoit 5.2 ----------------

const std::vector<Preset<SphereCharges>>& SphereCharges::presets() {
  constexpr double pi = std::numbers::pi;
  static const std::vector<Preset<SphereCharges>> list = {
      {"great_circle",
       "DuToit Fig. 3(a): an equilateral triangle on the equator, q_i = (cos 2 pi i/3, "
       "sin 2 pi i/3, 0), i = 0, 1, 2, at rest; m = e = k = 1, sigma = +1 (our choices). An "
       "equilibrium for either sign (the pull of the other two on each charge is normal to "
       "the sphere); with repulsion the stable Thomson minimum, V = sqrt(3) k e^2.",
       unit_charges,
       [](const SphereCharges& model) {
         return triangle_state(model, "great_circle", equatorial(), 0.0);
       }},
      {"great_circle_spinning",
       "DuToit Fig. 3(a) spun about its normal e3 at omega = 1 (our choice): a relative "
       "equilibrium, each charge on the equator at speed 1, the constraint supplying the "
       "centripetal force; m = e = k = 1, sigma = +1.",
       unit_charges,
       [](const SphereCharges& model) {
         return triangle_state(model, "great_circle_spinning", equatorial(), 1.0);
       }},
      {"breathing",
       "DuToit Fig. 3(b): an equilateral triangle off a great circle, q_i at polar angle "
       "theta0 = pi/4 and azimuths 2 pi i/3, at rest (our choices); m = e = k = 1, "
       "sigma = +1. The triangle stays equilateral and 'breathes', theta swinging over "
       "[theta0, pi - theta0]; its period is breathing_reduced_period() "
       "(models/sphere_charges_breathing.hpp).",
       unit_charges,
       [](const SphereCharges& model) {
         return triangle_state(model, "breathing", equilateral(pi / 4), 0.0);
       }},
      {"isosceles",
       "DuToit Fig. 3(c): an isosceles triangle at rest, the apex at (theta, phi) = (0.3, 0), "
       "the base at (1.4, 2.2) and (1.4, -2.2) (our choices; theta from +e3); m = e = k = 1, "
       "sigma = +1. The plane y = 0 is a mirror: the apex stays on the great circle y = 0 and "
       "the base charges are mirror images of each other.",
       unit_charges,
       [](const SphereCharges& model) {
         return triangle_state(
             model, "isosceles",
             {polar_point(0.3, 0.0), polar_point(1.4, 2.2), polar_point(1.4, -2.2)}, 0.0);
       }},
      {"scalene",
       "DuToit Fig. 3(d): a scalene triangle at rest, (theta, phi) = (0.3, 0), (1.4, 2.0), "
       "(1.9, -2.5) (our choices; theta from +e3); m = e = k = 1, sigma = +1. No symmetry "
       "beyond the angular momentum (zero).",
       unit_charges,
       [](const SphereCharges& model) {
         return triangle_state(
             model, "scalene",
             {polar_point(0.3, 0.0), polar_point(1.4, 2.0), polar_point(1.9, -2.5)}, 0.0);
       }},
      {"breathing_spinning",
       "The orbit of NOTES-dutoit 4 ('analytic test case', our choice): the triangle of "
       "'breathing' (theta0 = pi/4) spun about e3 at omega0 = 1, J = (0, 0, 3 m omega0 "
       "sin^2 theta0); m = e = k = 1, sigma = +1. theta breathes over [theta0, pi - theta0] "
       "while the triangle turns; its reduced period and azimuth advance per period are "
       "breathing_reduced_period() and breathing_azimuth_advance() "
       "(models/sphere_charges_breathing.hpp).",
       unit_charges, [](const SphereCharges& model) {
         return triangle_state(model, "breathing_spinning", equilateral(pi / 4), 1.0);
       }},
      {"attracting_small_circle",
       "sigma = -1, the sign printed in DuToit Section 6.1 (like charges attract): the "
       "equilateral triangle at polar angle theta0 = pi/4 spun about e3 at the rate that makes it "
       "a relative equilibrium, omega^2 = k e^2 / (sqrt(3) m sin^3 theta0), omega = 1.2779 for "
       "m = e = k = 1 (rotation_rate): the pull of the other two charges, horizontal "
       "and towards the axis, is the centripetal force. Under repulsion no such small circle "
       "exists; with attraction every polar angle but pi/2 has one.",
       attracting_unit_charges, [](const SphereCharges& model) {
         const std::vector<Vec3> q = equilateral(pi / 4);
         return triangle_state(model, "attracting_small_circle", q,
                               holding_rate(model, "attracting_small_circle", q, 0));
       }},
      {"opposite_charges_spinning",
       "Two species of either sign (our choice; DuToit's m_i, e_i): a heavy charge e1 = -2 of "
       "mass m1 = 10 at the north pole and two unit charges (m = e = 1) at polar angle pi/3, "
       "azimuths 0 and pi; k = 1, sigma = +1 (Coulomb: the pole attracts the pair, the pair "
       "repel each other). Spun about e3 at the rate whose centripetal force the tangential "
       "pull on the pair supplies (rotation_rate; omega = 1.9013): a relative equilibrium, the "
       "pole's charge held by symmetry.",
       [](ParameterSet& p) {
         unit_charges(p);
         p.set("n1", 1);
         p.set("m1", 10.0);
         p.set("e1", -2.0);
       },
       [](const SphereCharges& model) {
         const std::vector<Vec3> q = {Vec3::UnitZ(), polar_point(pi / 3, 0.0), polar_point(pi / 3, pi)};
         return triangle_state(model, "opposite_charges_spinning", q,
                               holding_rate(model, "opposite_charges_spinning", q, 1));
       }}};
  return list;
}

}  // namespace geomint
