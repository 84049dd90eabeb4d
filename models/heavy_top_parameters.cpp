#include "models/heavy_top_parameters.hpp"

#include <cmath>

namespace geomint {

ParameterSet HeavyTopParameters::defaults() {
  return {{"I1", 0.234375, "kg m^2", "principal moment of inertia about body axis e1, at the fixed point",
           ParameterDomain::positive()},
          {"I2", 0.46875, "kg m^2", "principal moment of inertia about body axis e2, at the fixed point",
           ParameterDomain::positive()},
          {"I3", 0.234375, "kg m^2", "principal moment of inertia about body axis e3, at the fixed point",
           ParameterDomain::positive()},
          {"M", 15.0, "kg", "mass", ParameterDomain::positive()},
          {"l", 2.0, "m", "distance from the fixed point to the centre of mass", ParameterDomain::positive()},
          {"g", 9.81, "m/s^2", "gravitational acceleration (0: the free rigid body)", ParameterDomain::non_negative()},
          {"gravity_sign", 1.0, "1",
           "+1 physical gravity along -e3; -1 the paper's literal Gamma0 = (0, 0, -9.81), gravity reversed",
           ParameterDomain::one_of({-1.0, 1.0})},
          {"X1", 0.0, "1", "body direction to the centre of mass, e1 component (normalised)", ParameterDomain::finite()},
          {"X2", 1.0, "1", "body direction to the centre of mass, e2 component (normalised)", ParameterDomain::finite()},
          {"X3", 0.0, "1", "body direction to the centre of mass, e3 component (normalised)", ParameterDomain::finite()}};
}

HeavyTopParameters::HeavyTopParameters(const ParameterSet& p)
    : inertia(p["I1"], p["I2"], p["I3"]),
      inverse_inertia(inertia.cwiseInverse()),
      axis(p["X1"], p["X2"], p["X3"]),
      kappa(0.0, 0.0, p["gravity_sign"] * p["M"] * p["g"] * p["l"]) {
  const double length = axis.norm();
  if (!(length > 0.0) || !std::isfinite(length)) throw InputError("the direction X = (X1, X2, X3) to the centre of mass is zero");
  axis /= length;
  // Pi . X is conserved iff I hat(X) = hat(X) I: [I, hat X]_ij = (I_i - I_j) hat(X)_ij, and
  // hat(X)_ij = -eps_ijk X_k, so every pair of distinct moments needs X_k = 0 on the third axis.
  lagrange = true;
  for (int k = 0; k < 3; ++k) {
    const int i = (k + 1) % 3, j = (k + 2) % 3;
    if (inertia[i] != inertia[j] && axis[k] != 0.0) lagrange = false;
  }
}

namespace {

void celledoni2021(ParameterSet& p) {
  p.set("I1", 0.234375);
  p.set("I2", 0.46875);
  p.set("I3", 0.234375);
  p.set("M", 15.0);
  p.set("l", 2.0);
  p.set("g", 9.81);
  p.set("gravity_sign", 1.0);
  p.set("X1", 0.0);
  p.set("X2", 1.0);
  p.set("X3", 0.0);
}

void weak_gravity(ParameterSet& p) {
  celledoni2021(p);
  p.set("g", 0.5);
}

void bruls_cardona(ParameterSet& p) {
  celledoni2021(p);
  p.set("I1", 15.234375);
  p.set("I3", 15.234375);
  p.set("l", 1.0);
}

}  // namespace

const std::vector<HeavyTopPreset>& heavy_top_presets() {
  static const std::vector<HeavyTopPreset> list = {
      {"celledoni2021",
       "Celledoni Section 3.4.4 (the test top of Brüls & Cardona 2010) read literally: Q0 = I, "
       "l = 2, M = 15, I = diag(0.234375, 0.46875, 0.234375) about the fixed point, X = e2, body "
       "angular velocity Omega0 = (0, 150, -4.61538), so Pi0 = I Omega0; gravity physical, g = "
       "9.81 along -e3 (our reading of Gamma0 = (0, 0, -9.81); gravity_sign = -1 gives the other)",
       celledoni2021,
       {0.0, 150.0, -4.61538}},
      {"bruls_cardona",
       "the same numbers read as Brüls & Cardona 2010 give them: I is about the centre of mass at "
       "X = e2 with l = 1, so about the fixed point I = diag(15.234375, 0.46875, 15.234375) "
       "(J - M hat(X)^2); M = 15, Omega0 = (0, 150, -4.61538), physical gravity",
       bruls_cardona,
       {0.0, 150.0, -4.61538}},
      {"slowed",
       "celledoni2021 with the spin divided by 10, Omega0 = (0, 15, -0.461538): first order is "
       "visible at moderate steps (our choice, the notes' Section 3.6)",
       celledoni2021,
       {0.0, 15.0, -0.461538}},
      {"weak_gravity",
       "slowed with g = 0.5 m/s^2: the bench's exercise (models/exercise.hpp), on which every "
       "fixed-step method of orders 1 to 6 is in its asymptotic range at one step size. Under "
       "the paper's gravity the slowed top falls on a time scale sqrt(I1 / (M g l)) = 0.028 s, "
       "and theta = 0 and 1 show their first order only below h = 2e-4, where the sixth-order "
       "methods are at the reference's floor (our choice)",
       weak_gravity,
       {0.0, 15.0, -0.461538}}};
  return list;
}

}  // namespace geomint
