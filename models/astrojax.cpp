#include "models/astrojax.hpp"

#include <cmath>
#include <numbers>
#include <string>

#include "models/astrojax_planar_runs.hpp"
#include "models/astrojax_relative_equilibrium.hpp"

namespace geomint {

namespace {

using Vec3 = Eigen::Vector3d;

/// |a|^2 - (n.a)^2 for a unit n, as the square of a's part normal to n (never negative): the
/// rate of change of the unit vector n = p/|p| along p' = a is (a - (n.a) n)/|p|, so
/// d/dt (n.p') = n.p'' + |a - (n.a) n|^2 / |p|.
double transverse_squared(const Vec3& n, const Vec3& a) { return (a - n.dot(a) * n).squaredNorm(); }

/// The two tether segments in the support frame: n1 = r1/|r1|, n2 = (r2 - r1)/|r2 - r1|.
struct Segments {
  Vec3 n1, n2;
  double length1, length2;
};

Segments segments(const Vec3& r1, const Vec3& r2) {
  const Vec3 d = r2 - r1;
  const double length1 = r1.norm(), length2 = d.norm();
  return {r1 / length1, d / length2, length1, length2};
}

Segments segments(const AstrojaxState& y) { return segments(y.segment<3>(0), y.segment<3>(3)); }

void set_undriven(ParameterSet& p, double m1, double m2) {
  p.set("m1", m1);
  p.set("m2", m2);
  p.set("l", 1.0);
  p.set("g", 9.81);
  p.set("driver", 0.0);
}

/// NOTES-dutoit 1.6: lambda0 = l/2, theta1 = theta2 = pi/4, phi1 = phi2 = 0, v_i = w0 e3 x q_i.
AstrojaxState spatial_state(const Astrojax& m, double omega0) {
  const double quarter = std::numbers::pi / 4;
  return astrojax_rotating_state(m.l(), {0.5 * m.l(), quarter, 0.0, quarter, 0.0}, omega0);
}

void set_driven(ParameterSet& p, AstrojaxDriver driver) {
  set_undriven(p, 1.0, 1.0);
  p.set("driver", static_cast<double>(driver));
  p.set("drive_amplitude", 0.1);
  p.set("drive_frequency", 7.0);
}

}  // namespace

ParameterSet Astrojax::default_parameters() {
  return {
      {"m1", 1.0, "kg", "mass of the bead sliding on the tether", ParameterDomain::positive()},
      {"m2", 1.0, "kg", "mass at the end of the tether", ParameterDomain::positive()},
      {"l", 1.0, "m", "tether length", ParameterDomain::positive()},
      {"g", 9.81, "m/s^2", "gravitational acceleration, along -e3", ParameterDomain::positive()},
      {"driver", 0.0, "1",
       "support: 0 fixed, 1 vertical A = (0, 0, a sin W t), 2 circle A = (a cos W t, "
       "a sin W t, 0), 3 constant velocity A = c t, 4 uniform acceleration A = (0, 0, b t^2/2)",
       ParameterDomain::one_of({0.0, 1.0, 2.0, 3.0, 4.0})},
      {"drive_amplitude", 0.1, "m", "a: amplitude of drivers 1 and 2"},
      {"drive_frequency", 7.0, "rad/s", "W: angular frequency of drivers 1 and 2"},
      {"drive_velocity_x", 1.0, "m/s", "c_x: support velocity of driver 3"},
      {"drive_velocity_y", 0.0, "m/s", "c_y: support velocity of driver 3"},
      {"drive_velocity_z", 0.0, "m/s", "c_z: support velocity of driver 3"},
      {"drive_acceleration", 2.0, "m/s^2", "b: upward support acceleration of driver 4"}};
}

Astrojax::Astrojax(const ParameterSet& p)
    : m1_(p["m1"]),
      m2_(p["m2"]),
      l_(p["l"]),
      g_(p["g"]),
      support_{static_cast<AstrojaxDriver>(static_cast<int>(p["driver"])), p["drive_amplitude"],
               p["drive_frequency"],
               Vec3(p["drive_velocity_x"], p["drive_velocity_y"], p["drive_velocity_z"]),
               p["drive_acceleration"]} {
  effective_gravity_ =
      g_ + (support_.driver == AstrojaxDriver::UniformAcceleration ? support_.b : 0.0);
  mass_ << m1_, m1_, m1_, m2_, m2_, m2_;
  inverse_mass_ = mass_.cwiseInverse();
  gradient_ << 0.0, 0.0, g_ * m1_, 0.0, 0.0, g_ * m2_;
  layout_.add("q1", Manifold::R3, 3, "q1");
  layout_.add("q2", Manifold::R3, 3, "q2");
  layout_.add("v1", Manifold::R3, 3, "v1");
  layout_.add("v2", Manifold::R3, 3, "v2");
  const AstrojaxDriver d = support_.driver;
  const bool energy_conserved = d == AstrojaxDriver::Fixed ||
                                d == AstrojaxDriver::ConstantVelocity ||
                                d == AstrojaxDriver::UniformAcceleration;
  declared_ = {{"energy", InvariantKind::Energy, energy_conserved},
               {"Jz", InvariantKind::Momentum, d != AstrojaxDriver::Circle},
               {"tether", InvariantKind::ManifoldDefect, true},
               {"tether_rate", InvariantKind::ManifoldDefect, true}};
}

// The index-1 multiplier: with a0 = -g e3 - A''(t) the acceleration without the tether,
// r'' = (a0, a0) + M^-1 DG^T mu and DG r'' + kappa = 0 give
//   mu = -(DG (a0, a0) + kappa) / (DG M^-1 DG^T),   DG (a0, a0) = n1 . a0,
//   DG M^-1 DG^T = |n1 - n2|^2 / m1 + 1 / m2.
namespace {
double tether_multiplier(const Segments& s, const AstrojaxState& y, const Vec3& a0, double m1,
                         double m2) {
  const Vec3 u1 = y.segment<3>(6), w = y.segment<3>(9) - u1;
  const double kappa =
      transverse_squared(s.n1, u1) / s.length1 + transverse_squared(s.n2, w) / s.length2;
  return -(s.n1.dot(a0) + kappa) / ((s.n1 - s.n2).squaredNorm() / m1 + 1.0 / m2);
}
}  // namespace

double Astrojax::multiplier(double t, const State& y) const {
  return tether_multiplier(segments(y), y, -g_ * Vec3::UnitZ() - support_.acceleration(t), m1_, m2_);
}

void Astrojax::rhs(double t, const State& y, State& dy) const {
  const Segments s = segments(y);
  const Vec3 a0 = -g_ * Vec3::UnitZ() - support_.acceleration(t);
  const double mu = tether_multiplier(s, y, a0, m1_, m2_);
  dy.head<6>() = y.tail<6>();
  dy.segment<3>(6) = a0 + (mu / m1_) * (s.n1 - s.n2);
  dy.segment<3>(9) = a0 + (mu / m2_) * s.n2;
}

Astrojax::Positions Astrojax::tether_gradient(const State& y) const {
  const Segments s = segments(y);
  Positions grad;
  grad << s.n1 - s.n2, s.n2;
  return grad;
}

void Astrojax::project(State& y) const {
  constexpr int kMaxNewtonSteps = 8;  // quadratic convergence: 3-4 steps from a defect of 1e-3
  for (int k = 0; k < kMaxNewtonSteps; ++k) {
    const double defect = tether_defect(y);
    if (!(std::abs(defect) > 1e-16 * l_)) break;
    const Positions grad = tether_gradient(y);
    const Positions direction = inverse_mass_.cwiseProduct(grad);
    y.head<6>() -= (defect / grad.dot(direction)) * direction;
  }
  const Positions grad = tether_gradient(y);
  const Positions direction = inverse_mass_.cwiseProduct(grad);
  y.tail<6>() -= (grad.dot(y.tail<6>()) / grad.dot(direction)) * direction;
}

double Astrojax::energy(const State& y) const {
  return 0.5 * (m1_ * y.segment<3>(6).squaredNorm() + m2_ * y.segment<3>(9).squaredNorm()) +
         effective_gravity_ * (m1_ * y(2) + m2_ * y(5));
}

double Astrojax::angular_momentum_z(const State& y) const {
  return m1_ * (y(0) * y(7) - y(1) * y(6)) + m2_ * (y(3) * y(10) - y(4) * y(9));
}

double Astrojax::tether_defect(const State& y) const {
  return y.segment<3>(0).norm() + (y.segment<3>(3) - y.segment<3>(0)).norm() - l_;
}

double Astrojax::tether_rate(const State& y) const { return tether_gradient(y).dot(y.tail<6>()); }

void Astrojax::configuration(double t, const State& y, Positions& x, Positions& v) const {
  const Vec3 a = support_.position(t), da = support_.velocity(t);
  x << y.segment<3>(0) + a, y.segment<3>(3) + a;
  v << y.segment<3>(6) + da, y.segment<3>(9) + da;
}

void Astrojax::set_configuration(double t, const Positions& x, const Positions& v, State& y) const {
  const Vec3 a = support_.position(t), da = support_.velocity(t);
  y << x.head<3>() - a, x.tail<3>() - a, v.head<3>() - da, v.tail<3>() - da;
}

// DuToit App. C (NOTES-dutoit 1.5, 2.5): g(x, t) = |x1 - A(t)| + |x2 - x1| - l.
void Astrojax::constraints(double t, const Positions& x, Constraints& c) const {
  c(0) = (x.head<3>() - support_.position(t)).norm() + (x.tail<3>() - x.head<3>()).norm() - l_;
}

// NOTES-dutoit 1.4 with x1 - A for x1: Dg = [(n_p - n_s)^T, n_s^T], n_p = (x1 - A)/|x1 - A|,
// n_s = (x2 - x1)/|x2 - x1|.
void Astrojax::constraint_jacobian(double t, const Positions& x, ConstraintJacobian& dg) const {
  const Segments s =
      segments(x.head<3>() - support_.position(t), x.tail<3>() - support_.position(t));
  dg << (s.n1 - s.n2).transpose(), s.n2.transpose();
}

// dg/dt at fixed x: only |x1 - A(t)| moves, at rate -n_p . A'(t).
void Astrojax::constraint_rate(double t, const Positions& x, Constraints& rate) const {
  rate(0) = -(x.head<3>() - support_.position(t)).normalized().dot(support_.velocity(t));
}

// Along a path x(t), with p = x1 - A(t) and s = x2 - x1 (so g = |p| + |s| - l),
//   g'  = n_p . p' + n_s . s'                        (= Dg x' + dg/dt, with p' = x1' - A'),
//   g'' = n_p . p'' + |p' - (n_p . p') n_p|^2 / |p| + n_s . s'' + |s' - (n_s . s') n_s|^2 / |s|
// (d/dt n = (a - (n . a) n)/|p| for n = p/|p|, p' = a). With p'' = x1'' - A'' and s'' = x2'' -
// x1'', the terms in x'' are n_p . x1'' + n_s . (x2'' - x1'') = Dg x'', so
//   g'' = Dg x'' + |p'_perp|^2 / |p| + |s'_perp|^2 / |s| - n_p . A'',
// and the last three terms are the curvature (d/dt Dg) x' + d/dt (dg/dt): the first two are
// the Hessian of |p| + |s| on (p', s'), the third the part of d/dt (-n_p . A') without n_p'.
void Astrojax::constraint_curvature(double t, const Positions& x, const Positions& v,
                                    Constraints& curvature) const {
  const Vec3 p = x.head<3>() - support_.position(t), dp = v.head<3>() - support_.velocity(t);
  const Segments s = segments(p, x.tail<3>() - support_.position(t));
  const Vec3 ds = v.tail<3>() - v.head<3>();
  curvature(0) = transverse_squared(s.n1, dp) / s.length1 +
                 transverse_squared(s.n2, ds) / s.length2 - s.n1.dot(support_.acceleration(t));
}

const std::vector<Preset<Astrojax>>& Astrojax::presets() {
  static const std::vector<Preset<Astrojax>> list = [] {
    std::vector<Preset<Astrojax>> l;
    for (const AstrojaxPlanarRun& run : kAstrojaxPlanarRuns)
      l.push_back({std::string(run.name),
                   std::string(run.description) + "; embedded in the x-z plane (y = 0)",
                   [run](ParameterSet& p) { set_undriven(p, run.m1, run.m2); },
                   [run](const Astrojax& m) {
                     return astrojax_rotating_state(
                         m.l(), {0.5 * m.l(), run.theta1, 0.0, run.theta2, 0.0}, 0.0);
                   }});
    const struct {
      const char* name;
      const char* claim;
      double omega0;
    } spatial[] = {
        {"spatial_low", "'Low Angular Momentum', whose motion 'appears chaotic'", 1.0},
        {"spatial_intermediate", "'Intermediate Angular Momentum', whose J_z is Fig. 2(a)", 4.0},
        {"spatial_high", "'High Angular Momentum', 'more regular'", 8.0}};
    for (const auto& run : spatial)
      l.push_back(
          {run.name,
           std::string("DuToit Section 5.4 ") + run.claim +
               " (no values given); NOTES-dutoit 1.6's choice: lambda0 = l/2, theta1 = "
               "theta2 = pi/4, phi1 = phi2 = 0, rigid rotation v_i = w0 e3 x q_i with w0 = " +
               std::to_string(static_cast<int>(run.omega0)) +
               " rad/s; m1 = m2 = 1, l = 1, g = 9.81, fixed support",
           [](ParameterSet& p) { set_undriven(p, 1.0, 1.0); },
           [omega0 = run.omega0](const Astrojax& m) { return spatial_state(m, omega0); }});
    l.push_back({"driven_vertical",
                 "DuToit Section 5.4.1's controlled Astrojax (no law given): support driven "
                 "vertically, A = (0, 0, a sin W t) with a = 0.1, W = 7 (NOTES-dutoit 1.5), from "
                 "spatial_intermediate's state relative to the support (so the masses start with "
                 "the support's velocity a W e3 added); J_z is conserved, the energy is not",
                 [](ParameterSet& p) { set_driven(p, AstrojaxDriver::Vertical); },
                 [](const Astrojax& m) { return spatial_state(m, 4.0); }});
    l.push_back({"driven_circle",
                 "the controlled Astrojax with the support on a horizontal circle, A = (a cos W t, "
                 "a sin W t, 0), a = 0.1, W = 7 (NOTES-dutoit 1.5), from spatial_intermediate's "
                 "state relative to the support; neither J_z nor the energy is conserved",
                 [](ParameterSet& p) { set_driven(p, AstrojaxDriver::Circle); },
                 [](const Astrojax& m) { return spatial_state(m, 4.0); }});
    l.push_back({"cowboy_stable",
                 "a linearly stable 'cowboy' relative equilibrium (NOTES-dutoit 3.3; not in the "
                 "paper): the closed form at bead angle theta1 = 1.0 rad for the model's m1, m2, "
                 "l, g (for m1 = m2 = 1, l = 1, g = 9.81: lambda = 0.4273, theta2 = -1.2972, "
                 "omega = 13.499 rad/s, T = 36.313 N, J_z = 2.2421), m2 across the axis from the "
                 "bead. With m1 = m2 the family is linearly stable for theta1 < 0.0907 and "
                 "theta1 > 0.8382 and unstable between (largest growth rate of the rotating-frame "
                 "linearisation, models/relative_equilibrium.hpp); at theta1 = 1.0 it measures "
                 "8e-5 1/s = 6e-6 omega, the finite-difference splitting of the zero eigenvalues",
                 [](ParameterSet& p) { set_undriven(p, 1.0, 1.0); },
                 [](const Astrojax& m) {
                   return astrojax_cowboy(m.m1(), m.m2(), m.l(), m.g(), 1.0).state;
                 }});
    l.push_back({"cowboy_unstable",
                 "a linearly unstable cowboy relative equilibrium (NOTES-dutoit 3.3): the closed "
                 "form at theta1 = 0.5 rad (for m1 = m2 = 1, l = 1, g = 9.81: lambda = 0.5315, "
                 "theta2 = -1.1165, omega = 10.996 rad/s, T = 22.357 N, J_z = 1.0176), inside the "
                 "unstable band 0.0907 < theta1 < 0.8382 of m1 = m2: a Hamiltonian-Hopf quartet "
                 "+-0.981 +- 7.636i 1/s, growth rate 0.981 1/s = 0.089 omega",
                 [](ParameterSet& p) { set_undriven(p, 1.0, 1.0); },
                 [](const Astrojax& m) {
                   return astrojax_cowboy(m.m1(), m.m2(), m.l(), m.g(), 0.5).state;
                 }});
    return l;
  }();
  return list;
}

}  // namespace geomint
