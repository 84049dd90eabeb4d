#include "models/load_transport_controller.hpp"

namespace geomint {

namespace {

using Vec3 = Eigen::Vector3d;

using Jet = LoadTransportController::Jet;

Jet operator-(const Jet& a) { return {-a.x, -a.dx, -a.ddx}; }

Jet cross(const Jet& a, const Jet& b) {
  return {a.x.cross(b.x), a.dx.cross(b.x) + a.x.cross(b.dx),
          a.ddx.cross(b.x) + 2.0 * a.dx.cross(b.dx) + a.x.cross(b.ddx)};
}

/// w/|w| and its derivatives: with r = |w|, r' = w.w'/r, r'' = (w'.w' + w.w'')/r - r'^2/r,
///   n' = w'/r - w r'/r^2,   n'' = w''/r - 2 w' r'/r^2 - w r''/r^2 + 2 w r'^2/r^3.
Jet normalized(const Jet& w) {
  const double r = w.x.norm();
  const double dr = w.x.dot(w.dx) / r;
  const double ddr = (w.dx.squaredNorm() + w.x.dot(w.ddx)) / r - dr * dr / r;
  return {w.x / r, w.dx / r - w.x * (dr / (r * r)),
          w.ddx / r - w.dx * (2.0 * dr / (r * r)) - w.x * (ddr / (r * r)) +
              w.x * (2.0 * dr * dr / (r * r * r))};
}

/// The desired link directions' jets from F_d's: q_id = Q_d r_id (NOTES-celledoni 4.5).
std::array<Jet, 2> direction_jets(const LoadTransportController& c, const Jet& force) {
  const Jet s{c.s_d, Vec3::Zero(), Vec3::Zero()};
  const Jet f_cross_s = cross(force, s);
  const std::array<Jet, 3> columns = {normalized(-cross(force, f_cross_s)),  // -hat(F)^2 s
                                      normalized(-f_cross_s),                // -hat(F) s
                                      normalized(-force)};
  std::array<Jet, 2> q_d;
  for (int i = 0; i < 2; ++i) {
    const Vec3& r = c.r_d[i];
    q_d[i] = {Vec3::Zero(), Vec3::Zero(), Vec3::Zero()};
    for (int k = 0; k < 3; ++k) {
      q_d[i].x += r[k] * columns[k].x;
      q_d[i].dx += r[k] * columns[k].dx;
      q_d[i].ddx += r[k] * columns[k].ddx;
    }
  }
  return q_d;
}

Vec3 e3() { return Vec3::UnitZ(); }

/// c_i = 1 / ((r_id . e3) |r_1d + r_2d|).
double load_share(const LoadTransportController& c, int i) {
  return 1.0 / (c.r_d[i].z() * (c.r_d[0] + c.r_d[1]).norm());
}

/// F_d's value and derivatives along the motion, and the mu_i with their first derivatives.
struct LoadLaw {
  Jet force;
  std::array<Vec3, 2> mu, dmu;
};

LoadLaw load_law(const LoadTransportController& c, double t, const LoadTransportController::Motion& x) {
  const DesiredLoadTrajectory::Jet d = c.trajectory.at(t);
  const Vec3 e = x.y - d.position, de = x.v - d.velocity;
  LoadLaw law;
  law.force.x = c.m_y * (-c.k_y * e - c.k_v * de + d.acceleration - c.g * e3());
  for (int i = 0; i < 2; ++i) law.mu[i] = load_share(c, i) * law.force.x.dot(x.q[i]) * x.q[i];
  const Vec3 acceleration = (law.mu[0] + law.mu[1]) / c.m_y + c.g * e3();  // y'' under u||
  law.force.dx = c.m_y * (-c.k_y * de - c.k_v * (acceleration - d.acceleration) + d.jerk);
  for (int i = 0; i < 2; ++i) {
    const Vec3 dq = x.w[i].cross(x.q[i]);
    const double fq = law.force.x.dot(x.q[i]);
    const double dfq = law.force.dx.dot(x.q[i]) + law.force.x.dot(dq);
    law.dmu[i] = load_share(c, i) * (dfq * x.q[i] + fq * dq);
  }
  const Vec3 jerk = (law.dmu[0] + law.dmu[1]) / c.m_y;
  law.force.ddx = c.m_y * (-c.k_y * (acceleration - d.acceleration) - c.k_v * (jerk - d.jerk) + d.snap);
  return law;
}

}  // namespace

LoadTransportController::Forces LoadTransportController::forces(double t, const Motion& x) const {
  const LoadLaw law = load_law(*this, t, x);
  const std::array<Jet, 2> q_d = direction_jets(*this, law.force);  // NOTES 4.5
  const Vec3 mu_sum = law.mu[0] + law.mu[1];
  Forces u;
  for (int i = 0; i < 2; ++i) {
    const Vec3& q = x.q[i];
    const Vec3& w = x.w[i];
    const double mass_length = m[i] * L[i];
    u.parallel[i] = mass_length * w.squaredNorm() * q + law.mu[i] + (m[i] / m_y) * q.dot(mu_sum) * q;
    const Vec3 w_d = q_d[i].x.cross(q_d[i].dx), dw_d = q_d[i].x.cross(q_d[i].ddx);
    const Vec3 e_q = q_d[i].x.cross(q);
    const Vec3 e_w = w + q.cross(q.cross(w_d));
    const Vec3 dq = w.cross(q);
    u.perpendicular[i] =
        mass_length * q.cross(-k_q * e_q - k_w * e_w - q.dot(w_d) * dq - q.cross(q.cross(dw_d))) -
        (m[i] / m_y) * q.cross(q.cross(law.mu[1 - i]));
  }
  return u;
}

std::array<LoadTransportController::Jet, 2> LoadTransportController::desired_directions(
    double t, const Motion& x) const {
  return direction_jets(*this, load_law(*this, t, x).force);
}

}  // namespace geomint
