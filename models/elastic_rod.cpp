#include "models/elastic_rod.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace geomint {

ParameterSet ElasticRod::default_parameters() {
  return {{"n", 10.0, "", "number of free rod elements; n + 1 with the clamped one",
           ParameterDomain::whole(1, 10000)},
          {"m", 0.055, "kg", "total mass of the rod (n + 1 elements of mass m/(n+1))",
           ParameterDomain::positive()},
          {"l", 1.1, "m", "total length of the rod (n + 1 elements of length l/(n+1))",
           ParameterDomain::positive()},
          {"g", 9.81, "m/s^2", "gravitational acceleration, along +e3"},
          {"kappa", 1000.0, "N m",
           "bending spring constant of every joint (0: joints without stiffness)",
           ParameterDomain::non_negative()},
          {"uniform_rods", 0.0, "",
           "inertia matrix: 0 = LLM's printed one (the published figures), 1 = a chain of uniform "
           "rods",
           ParameterDomain::one_of({0, 1})}};
}

ElasticRod::ElasticRod(const ParameterSet& p) {
  const double n_value = p["n"];
  const double uniform = p["uniform_rods"];
  const auto n = static_cast<Eigen::Index>(n_value);
  const double me = p["m"] / (n_value + 1.0), le = p["l"] / (n_value + 1.0), g = p["g"];
  element_length_ = le;
  // Elements 1..n (columns 0..n-1) all have mass me and length le; the formulas below are
  // written for per-element m_k, l_k as LLM writes them.
  const Eigen::VectorXd mass = Eigen::VectorXd::Constant(n, me);
  const Eigen::VectorXd len = Eigen::VectorXd::Constant(n, le);
  const auto mass_beyond = [&](Eigen::Index j) {  // sum_{k>j} m_k
    return mass.tail(n - 1 - j).sum();
  };
  inertia_.resize(n, n);
  weight_.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    weight_(i) = g * len(i) * (0.5 * mass(i) + mass_beyond(i));
    for (Eigen::Index j = 0; j < n; ++j) {
      if (uniform == 0.0) {
        // LLM Example 4 (the inertia matrix printed before (3.24)).
        if (i == j) {
          double mii = mass(i) * len(i) * len(i) / 3.0;
          for (Eigen::Index k = i + 1; k < n; ++k) mii += mass(k) * len(k) * len(k);
          inertia_(i, i) = mii;
        } else {
          double mij = 0.0;
          for (Eigen::Index k = std::max(i, j); k < n; ++k) mij += 0.5 * mass(k) * len(k) * len(k);
          inertia_(i, j) = mij;
        }
      } else {
        // Uniform rods: 1/2 int_0^{l_k} (m_k/l_k) |sum_{j<k} l_j q_j' + s q_k'|^2 ds.
        if (i == j) {
          inertia_(i, i) = (mass(i) / 3.0 + mass_beyond(i)) * len(i) * len(i);
        } else {
          const Eigen::Index b = std::max(i, j);
          inertia_(i, j) = (0.5 * mass(b) + mass_beyond(b)) * len(i) * len(j);
        }
      }
    }
  }
  kappa_ = p["kappa"];
  q0_ = Vec3::UnitX();
  allocate_scratch(n);
}

// LLM Example 4: gravity sum_i m_i g (sum_{j<i} l_j q_j + l_i/2 q_i).e3 regrouped by q_j,
// plus the bending springs 1/2 kappa (1 - q_{i-1}.q_i)^2 with q_0 the clamp.
double ElasticRod::potential(const Points& q) const {
  double v = -weight_.dot(q.row(2).transpose());
  Vec3 previous = q0_;
  for (Eigen::Index i = 0; i < q.cols(); ++i) {
    const double bend = 1.0 - previous.dot(q.col(i));
    v += 0.5 * kappa_ * bend * bend;
    previous = q.col(i);
  }
  return v;
}

void ElasticRod::potential_gradient(const Points& q, Points& grad) const {
  grad.setZero();
  grad.row(2) = -weight_.transpose();
  const Eigen::Index n = q.cols();
  for (Eigen::Index i = 0; i < n; ++i) {
    const Vec3 previous = i == 0 ? q0_ : Vec3(q.col(i - 1));
    const double bend = kappa_ * (1.0 - previous.dot(q.col(i)));
    grad.col(i) -= bend * previous;
    if (i > 0) grad.col(i - 1) -= bend * q.col(i);
  }
}

const std::vector<Preset<ElasticRod>>& ElasticRod::presets() {
  static const std::vector<Preset<ElasticRod>> list = [] {
    const auto initial = [](const ElasticRod& model) {
      // Every element along e1 (the rod straight and horizontal, continuing the clamp), and
      // w_5 = (0, 0, 10) rad/s: a sideways blow to the fifth element.
      const Eigen::Index n = model.bodies();
      if (n < 5)
        throw InputError("elastic_rod: preset lee2009 sets w_5, it needs n >= 5, got n = " +
                         std::to_string(n));
      State y = State::Zero(6 * n);
      for (Eigen::Index i = 0; i < n; ++i) y.segment<3>(3 * i) = Vec3::UnitX();
      y.segment<3>(3 * (n + 4)) = Vec3(0, 0, 10);
      return y;
    };
    const std::string common =
        "n = 10 free elements (11 with the clamped one), m = 55 g, l = 1.1 m, so each element "
        "has m/11 = 5 g and l/11 = 0.1 m; kappa_i = 1000 N m; q_i = e1 for every i, w_5 = "
        "(0, 0, 10) rad/s, the others 0 (the paper's 'e1 = [0, 0, 1]' is a slip for "
        "e1 = (1, 0, 0)). Our choices: the clamp direction q_0 = e1, so that the rod starts "
        "straight and horizontal with no bending energy; g = 9.81 m/s^2 along +e3 (not stated; the "
        "figures are sensitive to it, and g = 9.8 reproduces the published ode45 ones, see "
        "studies/lee2009.yaml). The paper runs T = 3 s, VI h = 1e-4, against ode45.";
    const std::string printed =
        "LLM Example 4 with LLM's printed inertia matrix (uniform_rods = 0), which is what "
        "produced the published figures: ";
    const std::string uniform =
        "LLM Example 4 with the inertia of a chain of uniform rods (uniform_rods = 1), the "
        "physically consistent kinetic energy, in place of the printed matrix: ";
    const auto parameters = [](double uniform_rods) {
      return [uniform_rods](ParameterSet& p) {
        p.set("n", 10);
        p.set("m", 0.055);
        p.set("l", 1.1);
        p.set("g", 9.81);
        p.set("kappa", 1000.0);
        p.set("uniform_rods", uniform_rods);
      };
    };
    return std::vector<Preset<ElasticRod>>{
        {"lee2009", printed + common, parameters(0.0), initial},
        {"lee2009_uniform_rods", uniform + common, parameters(1.0), initial}};
  }();
  return list;
}

}  // namespace geomint
