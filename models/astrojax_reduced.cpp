#include "models/astrojax_reduced.hpp"

#include <unsupported/Eigen/AutoDiff>

#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include "models/astrojax.hpp"
#include "models/astrojax_planar.hpp"

namespace geomint {

namespace {

template <class S>
using Vec3T = Eigen::Matrix<S, 3, 1>;
template <class S>
using ShapeT = Eigen::Matrix<S, 4, 1>;
using AD = Eigen::AutoDiffScalar<Eigen::Vector4d>;  // d/ds of a function of the shape

/// e(theta, phi) and its derivatives in theta and phi (astrojax_coordinates.hpp).
template <class S>
struct Direction {
  Vec3T<S> e, d_theta, d_phi;
};

template <class S>
Direction<S> direction(const S& theta, const S& phi) {
  using std::cos;
  using std::sin;
  const S st = sin(theta), ct = cos(theta), sp = sin(phi), cp = cos(phi);
  return {Vec3T<S>(st * cp, st * sp, -ct), Vec3T<S>(ct * cp, ct * sp, st),
          Vec3T<S>(-st * sp, st * cp, S(0.0))};
}

/// J = d(q1, q2)/d(lambda, theta1, theta2, beta, phi), with phi1 = phi + beta, phi2 = phi,
/// q1 = lambda e1, q2 = q1 + (l - lambda) e2.
template <class S>
Eigen::Matrix<S, 6, 5> position_jacobian(double l, const ShapeT<S>& s, const S& phi) {
  const S lambda = s(0), rest = l - s(0);
  const Direction<S> d1 = direction<S>(s(1), phi + s(3)), d2 = direction<S>(s(2), phi);
  const Vec3T<S> zero = Vec3T<S>::Zero(), turn1 = lambda * d1.d_phi;
  Eigen::Matrix<S, 6, 5> j;
  j.col(0) << d1.e, d1.e - d2.e;
  j.col(1) << lambda * d1.d_theta, lambda * d1.d_theta;
  j.col(2) << zero, rest * d2.d_theta;
  j.col(3) << turn1, turn1;
  j.col(4) << turn1, turn1 + rest * d2.d_phi;
  return j;
}

/// K = J^T M J at phi = 0 (K does not depend on phi).
template <class S>
Eigen::Matrix<S, 5, 5> kinetic(double m1, double m2, double l, const ShapeT<S>& s) {
  const Eigen::Matrix<S, 6, 5> j = position_jacobian<S>(l, s, S(0.0));
  Eigen::Matrix<S, 6, 5> mj = j;
  mj.template topRows<3>() *= S(m1);
  mj.template bottomRows<3>() *= S(m2);
  return j.transpose() * mj;
}

/// V(s) = -(m1 + m2) g lambda cos th1 - m2 g (l - lambda) cos th2 (z up).
template <class S>
S potential(double m1, double m2, double l, double g, const ShapeT<S>& s) {
  using std::cos;
  return -(m1 + m2) * g * s(0) * cos(s(1)) - m2 * g * (l - s(0)) * cos(s(2));
}

/// From K: the locked inertia I = K_(phi,phi), the coupling K_(s,phi), A and V_mu (header).
template <class S>
struct RouthianParts {
  S inertia;
  ShapeT<S> coupling;
  Eigen::Matrix<S, 4, 4> a;
  S amended;
};

template <class S>
RouthianParts<S> routhian_parts(const AstrojaxReduced& m, const ShapeT<S>& s, double mu) {
  const Eigen::Matrix<S, 5, 5> k = kinetic<S>(m.m1(), m.m2(), m.l(), s);
  RouthianParts<S> r{k(4, 4), k.template block<4, 1>(0, 4), {}, {}};
  r.a = k.template topLeftCorner<4, 4>() - r.coupling * r.coupling.transpose() / r.inertia;
  r.amended = potential<S>(m.m1(), m.m2(), m.l(), m.g(), s) + mu * mu / (2.0 * r.inertia);
  return r;
}

/// The Routhian's coefficients A, b and V_mu at (s, mu), with their derivatives in s.
struct Routhian {
  Eigen::Matrix4d a;
  std::array<Eigen::Matrix4d, 4> da;  // dA/ds_k
  Eigen::Matrix4d db;                 // db_i/ds_k
  Eigen::Vector4d grad_amended;       // grad V_mu
  Eigen::Vector4d coupling;           // K_(s,phi)
  double inertia;                     // I = K_(phi,phi)
};

Routhian routhian(const AstrojaxReduced& m, const Eigen::Vector4d& s, double mu) {
  ShapeT<AD> sa;
  for (int k = 0; k < 4; ++k) sa(k) = AD(s(k), 4, k);
  const RouthianParts<AD> p = routhian_parts<AD>(m, sa, mu);
  const ShapeT<AD> b = p.coupling * (AD(mu) / p.inertia);
  Routhian r;
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      r.a(i, j) = p.a(i, j).value();
      for (int d = 0; d < 4; ++d) r.da[d](i, j) = p.a(i, j).derivatives()(d);
    }
    r.db.row(i) = b(i).derivatives().transpose();
    r.coupling(i) = p.coupling(i).value();
  }
  r.grad_amended = p.amended.derivatives();
  r.inertia = p.inertia.value();
  return r;
}

/// The Astrojax presets the reduced model offers: fixed support, masses off the chart's
/// singular sets over the horizons the bench runs.
constexpr const char* kReducedPresets[] = {"spatial_low", "spatial_intermediate", "spatial_high",
                                           "cowboy_stable", "cowboy_unstable"};

/// The Astrojax's parameters with the preset `cartesian`.
ParameterSet cartesian_parameters(const Preset<Astrojax>& cartesian) {
  ParameterSet p = Astrojax::default_parameters();
  cartesian.set_parameters(p);
  return p;
}

}  // namespace

// The planar ODE's: the masses, the tether's length and gravity (the support is fixed).
ParameterSet AstrojaxReduced::default_parameters() { return AstrojaxPlanar::default_parameters(); }

AstrojaxReduced::AstrojaxReduced(const ParameterSet& p)
    : m1_(p["m1"]), m2_(p["m2"]), l_(p["l"]), g_(p["g"]) {
  for (const char* name : {"lambda", "theta1", "theta2", "beta", "lambda_dot", "theta1_dot",
                           "theta2_dot", "beta_dot", "phi", "Jz"})
    layout_.add(name, Manifold::Rn, 1, name);
  declared_ = {{"energy", InvariantKind::Energy, true}};
}

Eigen::Matrix<double, 5, 5> AstrojaxReduced::kinetic_matrix(const Shape& s) const {
  return kinetic<double>(m1_, m2_, l_, s);
}

// The Euler-Lagrange equations of R (header) and the reconstruction of phi.
void AstrojaxReduced::rhs(double /*t*/, const State& y, State& dy) const {
  const Shape s = y.head<4>(), rate = y.segment<4>(4);
  const double mu = y(9);
  const Routhian r = routhian(*this, s, mu);
  Eigen::Matrix4d transport = Eigen::Matrix4d::Zero();  // sum_k dA/ds_k s'_k
  Eigen::Vector4d quadratic;                            // (s'^T dA/ds_i s')_i
  for (int k = 0; k < 4; ++k) {
    transport += r.da[k] * rate(k);
    quadratic(k) = rate.dot(r.da[k] * rate);
  }
  const Eigen::Vector4d force = -transport * rate + 0.5 * quadratic -
                                (r.db - r.db.transpose()) * rate - r.grad_amended;
  dy.head<4>() = rate;
  dy.segment<4>(4) = r.a.ldlt().solve(force);
  dy(8) = (mu - r.coupling.dot(rate)) / r.inertia;
  dy(9) = 0.0;
}

double AstrojaxReduced::energy(const State& y) const {
  const Shape rate = y.segment<4>(4);
  const RouthianParts<double> p = routhian_parts<double>(*this, y.head<4>(), y(9));
  return 0.5 * rate.dot(p.a * rate) + p.amended;
}

AstrojaxState AstrojaxReduced::cartesian_state(const State& y) const {
  const Shape s = y.head<4>();
  const double phi = y(8), mu = y(9);
  const Eigen::Matrix<double, 5, 5> k = kinetic_matrix(s);
  Coordinates rate;
  rate << y.segment<4>(4), (mu - k.block<1, 4>(4, 0).dot(y.segment<4>(4))) / k(4, 4);
  const Eigen::Vector3d q1 = s(0) * direction<double>(s(1), phi + s(3)).e;
  const Eigen::Vector3d q2 = q1 + (l_ - s(0)) * direction<double>(s(2), phi).e;
  AstrojaxState x;
  x << q1, q2, position_jacobian<double>(l_, s, phi) * rate;
  return x;
}

AstrojaxReduced::State AstrojaxReduced::reduced_state(const AstrojaxState& x) const {
  const Eigen::Vector3d q1 = x.head<3>(), segment = x.segment<3>(3) - q1;
  const auto angles = [](const Eigen::Vector3d& e) {
    return std::array<double, 2>{std::atan2(std::hypot(e(0), e(1)), -e(2)), std::atan2(e(1), e(0))};
  };
  const auto [theta1, phi1] = angles(q1);
  const auto [theta2, phi2] = angles(segment);
  const double beta = std::remainder(phi1 - phi2, 2 * std::numbers::pi);
  const Shape s(q1.norm(), theta1, theta2, beta);
  const Eigen::Matrix<double, 6, 5> j = position_jacobian<double>(l_, s, phi2);
  Eigen::Matrix<double, 6, 1> momentum;  // M v
  momentum << m1_ * x.segment<3>(6), m2_ * x.segment<3>(9);
  const Coordinates p = j.transpose() * momentum;  // (p_s, J_z)
  State y;
  y << s, kinetic_matrix(s).ldlt().solve(p).head<4>(), phi2, p(4);
  return y;
}

const std::vector<Preset<AstrojaxReduced>>& AstrojaxReduced::presets() {
  static const std::vector<Preset<AstrojaxReduced>> list = [] {
    std::vector<Preset<AstrojaxReduced>> l;
    for (const char* name : kReducedPresets) {
      const Preset<Astrojax>* cartesian = &find_preset<Astrojax>(name);
      l.push_back(
          {name,
           "the Astrojax preset '" + std::string(name) + "' reduced (its shape, shape rates, phi = phi2 and J_z): " +
               cartesian->description,
           [cartesian](ParameterSet& p) {
             const ParameterSet c = cartesian_parameters(*cartesian);
             for (const char* key : {"m1", "m2", "l", "g"}) p.set(key, c[key]);
           },
           [cartesian](const AstrojaxReduced& m) {
             ParameterSet p = cartesian_parameters(*cartesian);
             p.set("m1", m.m1());
             p.set("m2", m.m2());
             p.set("l", m.l());
             p.set("g", m.g());
             return m.reduced_state(cartesian->initial_state(Astrojax(p)));
           }});
    }
    return l;
  }();
  return list;
}

}  // namespace geomint
