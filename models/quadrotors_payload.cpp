#include "models/quadrotors_payload.hpp"

#include <Eigen/LU>
#include <cmath>
#include <numbers>

#include "geometry/so3.hpp"

namespace geomint {

namespace {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

double radians(double degrees) { return degrees * std::numbers::pi / 180.0; }

}  // namespace

// The defaults are the data of the authors' main.m and controls.m (NOTES-celledoni 4.4), which
// the preset celledoni2021 keeps.
ParameterSet QuadrotorsPayload::default_parameters() {
  const auto positive = ParameterDomain::positive();
  const auto nonneg = ParameterDomain::non_negative();
  const auto any = ParameterDomain::finite();
  return {{"m_y", 0.4, "kg", "mass of the load", positive},
          {"m1", 0.755, "kg", "mass of quadrotor 1", positive},
          {"m2", 0.755, "kg", "mass of quadrotor 2", positive},
          {"L1", 0.6, "m", "length of link 1", positive},
          {"L2", 0.8, "m", "length of link 2", positive},
          {"g", 9.81, "m/s^2", "gravitational acceleration, along +e3 (e3 points down)", nonneg},
          {"J1_1", 0.0820, "kg m^2", "inertia of quadrotor 1 about its body axis 1", positive},
          {"J1_2", 0.0845, "kg m^2", "inertia of quadrotor 1 about its body axis 2", positive},
          {"J1_3", 0.1377, "kg m^2", "inertia of quadrotor 1 about its body axis 3", positive},
          {"J2_1", 0.0820, "kg m^2", "inertia of quadrotor 2 about its body axis 1", positive},
          {"J2_2", 0.0845, "kg m^2", "inertia of quadrotor 2 about its body axis 2", positive},
          {"J2_3", 0.1377, "kg m^2", "inertia of quadrotor 2 about its body axis 3", positive},
          {"M1_1", 1.0, "N m", "constant moment on quadrotor 1, body axis 1", any},
          {"M1_2", 1.0, "N m", "constant moment on quadrotor 1, body axis 2", any},
          {"M1_3", 1.0, "N m", "constant moment on quadrotor 1, body axis 3", any},
          {"M2_1", 1.0, "N m", "constant moment on quadrotor 2, body axis 1", any},
          {"M2_2", 1.0, "N m", "constant moment on quadrotor 2, body axis 2", any},
          {"M2_3", 1.0, "N m", "constant moment on quadrotor 2, body axis 3", any},
          {"k_y", 12.0, "1/s^2", "load position gain", nonneg},
          {"k_v", 5.0, "1/s", "load velocity gain", nonneg},
          {"k_q", 16.0, "1/s^2", "link direction gain", nonneg},
          {"k_w", 5.0, "1/s", "link angular velocity gain", nonneg},
          {"formation_angle", 30.0, "deg",
           "desired angle of each link from e3, in the x-z plane of the frame Q_d (below 90)", positive},
          {"yd_t0", 2.5, "s", "time of the desired parabola's vertex", any},
          {"yd_speed", 1.0, "m/s", "desired load speed along e1", any},
          {"yd_curvature", 1.0, "m/s^2", "b in y_d,3 = b (t - t0)^2 - c", any},
          {"yd_depth", 7.0, "m", "c in y_d,3 = b (t - t0)^2 - c (the vertex's height, e3 down)", any}};
}

QuadrotorsPayload::QuadrotorsPayload(const ParameterSet& p) {
  const double angle = p["formation_angle"];
  if (!(angle < 90.0))
    throw InputError("parameter formation_angle = " + number_text(angle) +
                     " must be below 90 degrees (the links must point down, along e3)");
  const double s = std::sin(radians(angle)), c = std::cos(radians(angle));
  controller_ = {p["m_y"],
                 p["g"],
                 {p["m1"], p["m2"]},
                 {p["L1"], p["L2"]},
                 p["k_y"],
                 p["k_v"],
                 p["k_q"],
                 p["k_w"],
                 {Vec3(s, 0.0, c), Vec3(-s, 0.0, c)},  // NOTES 4.5: r_1d, r_2d
                 Vec3(0.0, -1.0, 0.0),                 // s_d
                 {p["yd_t0"], p["yd_speed"], p["yd_curvature"], p["yd_depth"]}};
  inertia_ = {Vec3(p["J1_1"], p["J1_2"], p["J1_3"]), Vec3(p["J2_1"], p["J2_2"], p["J2_3"])};
  moment_ = {Vec3(p["M1_1"], p["M1_2"], p["M1_3"]), Vec3(p["M2_1"], p["M2_2"], p["M2_3"])};
  layout_.add("y", Manifold::R3, 3, "y");
  layout_.add("v", Manifold::R3, 3, "v");
  for (int i = 0; i < 2; ++i) {
    const std::string n = std::to_string(i + 1);
    layout_.add("R" + n, Manifold::SO3, 9, "R" + n);
    layout_.add("Omega" + n, Manifold::R3, 3, "Omega" + n);
  }
  for (int i = 0; i < 2; ++i) {
    const std::string n = std::to_string(i + 1);
    const std::size_t point = layout_.add("q" + n, Manifold::S2, 3, "q" + n);
    layout_.add("w" + n, Manifold::TangentS2, 3, "w" + n, point);
  }
}

const std::vector<Preset<QuadrotorsPayload>>& QuadrotorsPayload::presets() {
  static const std::vector<Preset<QuadrotorsPayload>> list = {
      {"celledoni2021",
       "Celledoni Section 6.2 with the data of the authors' code (NOTES-celledoni 4.4): m_y = 0.4, "
       "m_i = 0.755, L = (0.6, 0.8), J_i = diag(0.0820, 0.0845, 0.1377), M_i = (1, 1, 1), gains "
       "k_y = 12, k_v = 5, k_q = 16, k_w = 5, formation r_id at 30 degrees from e3, s_d = -e2; "
       "y_d(t) = (t - 2.5, 0, (t - 2.5)^2 - 7) with e3 down; y(0) = (-2, 0, 0), v = 0, R_i = I, "
       "Omega_i = 0, q_1,2(0) = (+-sin 80deg, 0, cos 80deg), w_i = 0. The paper's figures run "
       "T = 5 in 1999 steps of h = 5/1999",
       [](ParameterSet&) {},
       [](const QuadrotorsPayload&) {
         State y = State::Zero();
         y.segment<3>(kY) = Vec3(-2.0, 0.0, 0.0);
         for (int i = 0; i < 2; ++i)
           Eigen::Map<Mat3>(y.data() + kR[i]).setIdentity();
         const double s = std::sin(radians(80.0)), c = std::cos(radians(80.0));
         y.segment<3>(kQ[0]) = Vec3(s, 0.0, c);
         y.segment<3>(kQ[1]) = Vec3(-s, 0.0, c);
         return y;
       }}};
  return list;
}

LoadTransportController::Motion QuadrotorsPayload::motion(const State& y) const {
  return {y.segment<3>(kY), y.segment<3>(kV), {y.segment<3>(kQ[0]), y.segment<3>(kQ[1])},
          {y.segment<3>(kW[0]), y.segment<3>(kW[1])}};
}

// Celledoni (37)-(38) through A's block inverse (the file comment).
QuadrotorsPayload::Accelerations QuadrotorsPayload::accelerations(double t, const State& y) const {
  const LoadTransportController::Motion x = motion(y);
  const LoadTransportController::Forces u = controller_.forces(t, x);
  const LoadTransportController& c = controller_;
  const Vec3 e3 = Vec3::UnitZ();
  Mat3 mass = c.m_y * Mat3::Identity();
  Vec3 force = Vec3::Zero();
  for (int i = 0; i < 2; ++i) {
    mass += c.m[i] * x.q[i] * x.q[i].transpose();
    force += u.parallel[i] - c.m[i] * c.L[i] * x.w[i].squaredNorm() * x.q[i];
  }
  Accelerations a;
  a.v = mass.inverse() * (force + mass * (c.g * e3));
  for (int i = 0; i < 2; ++i) {
    const Vec3 omega = y.segment<3>(kOmega[i]);
    a.Omega[i] = (moment_[i] - omega.cross(inertia_[i].cwiseProduct(omega))).cwiseQuotient(inertia_[i]);
    const Vec3& q = x.q[i];
    a.w[i] = q.cross(a.v - c.g * e3) / c.L[i] - q.cross(u.perpendicular[i]) / (c.m[i] * c.L[i]);
  }
  return a;
}

void QuadrotorsPayload::rhs(double t, const State& y, State& dy) const {
  const Accelerations a = accelerations(t, y);
  dy.segment<3>(kY) = y.segment<3>(kV);
  dy.segment<3>(kV) = a.v;
  for (int i = 0; i < 2; ++i) {
    Eigen::Map<Mat3>(dy.data() + kR[i]) =
        Eigen::Map<const Mat3>(y.data() + kR[i]) * so3::hat(y.segment<3>(kOmega[i]));  // (36)
    dy.segment<3>(kOmega[i]) = a.Omega[i];
    dy.segment<3>(kQ[i]) = y.segment<3>(kW[i]).cross(y.segment<3>(kQ[i]));  // (36)
    dy.segment<3>(kW[i]) = a.w[i];
  }
}

// Section 6.1: f(P) with psi_*(f(P))|_P = F(P).
void QuadrotorsPayload::generator(double t, const State& y, Algebra& xi) const {
  const Accelerations a = accelerations(t, y);
  xi.segment<3>(0) = y.segment<3>(kV);
  xi.segment<3>(3) = a.v;
  for (int i = 0; i < 2; ++i) {
    xi.segment<3>(6 + 6 * i) = Eigen::Map<const Mat3>(y.data() + kR[i]) * y.segment<3>(kOmega[i]);
    xi.segment<3>(9 + 6 * i) = a.Omega[i];
    xi.segment<3>(18 + 6 * i) = y.segment<3>(kW[i]);
    xi.segment<3>(21 + 6 * i) = y.segment<3>(kQ[i]).cross(a.w[i]);
  }
}

void QuadrotorsPayload::project(State& y) const {
  for (int i = 0; i < 2; ++i) {
    Eigen::Map<Mat3> rotation(y.data() + kR[i]);
    rotation = so3::nearest_rotation(rotation);
    const Vec3 q = y.segment<3>(kQ[i]).normalized();
    y.segment<3>(kQ[i]) = q;
    y.segment<3>(kW[i]) -= q.dot(y.segment<3>(kW[i])) * q;
  }
}

std::array<double, 3> QuadrotorsPayload::outputs(double t, const State& y) const {
  const LoadTransportController::Motion x = motion(y);
  const auto q_d = controller_.desired_directions(t, x);
  return {(x.y - controller_.trajectory.at(t).position).norm(), (x.q[0] - q_d[0].x).norm(),
          (x.q[1] - q_d[1].x).norm()};
}

std::array<Eigen::Vector3d, 4> QuadrotorsPayload::curve_points(double t, const State& y) const {
  const Vec3 load = y.segment<3>(kY);
  return {load, load - controller_.L[0] * y.segment<3>(kQ[0]),
          load - controller_.L[1] * y.segment<3>(kQ[1]), controller_.trajectory.at(t).position};
}

}  // namespace geomint
