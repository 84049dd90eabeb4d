// The example unit test of docs/adding-a-model.md, for the Duffing oscillator of
// docs/examples/duffing_oscillator.hpp: on the bench it is tests/unit/models/
// test_duffing_oscillator.cpp, which the model's registry line makes the ctest executable
// test_duffing_oscillator (tests/docs/adding_a_model.sh builds it that way). Each check compares
// the model with something independent of it: the vector field with the Hamiltonian's
// derivatives by central differences, the energy with its definition written out, the flow with
// the closed form of the linear oscillator (eps = 0).

#include <gtest/gtest.h>

#include <cmath>

#include "models/duffing_oscillator.hpp"
#include "models/model_contract.hpp"

namespace geomint {
namespace {

static_assert(Model<DuffingOscillator>);

DuffingOscillator with(double k, double eps) {
  ParameterSet p = DuffingOscillator::default_parameters();
  p.set("k", k);
  p.set("eps", eps);
  return DuffingOscillator(p);
}

double energy(const DuffingOscillator& m, const DuffingOscillator::State& y) {
  double e = 0.0;
  m.evaluate_invariants(y, &e);
  return e;
}

// Hamilton's equations x' = dH/dv, v' = -dH/dx, with H the declared energy differenced
// centrally: the vector field is the Hamiltonian one of the energy the model declares.
TEST(DuffingOscillator, VectorFieldIsHamiltonianOfItsEnergy) {
  const DuffingOscillator m = with(1.7, 0.3);
  const DuffingOscillator::State y(0.8, -0.4);
  DuffingOscillator::State f;
  m.rhs(0.0, y, f);
  const double e = 1e-5;
  const DuffingOscillator::State ex(e, 0.0), ev(0.0, e);
  const double dH_dx = (energy(m, y + ex) - energy(m, y - ex)) / (2 * e);
  const double dH_dv = (energy(m, y + ev) - energy(m, y - ev)) / (2 * e);
  EXPECT_NEAR(f(0), dH_dv, 1e-9);
  EXPECT_NEAR(f(1), -dH_dx, 1e-9);
}

TEST(DuffingOscillator, EnergyIsItsDefinition) {
  const DuffingOscillator m = with(2.0, 0.5);
  const DuffingOscillator::State y(1.5, 0.25);
  EXPECT_DOUBLE_EQ(energy(m, y), 0.5 * 0.0625 + 0.5 * 2.0 * 2.25 + 0.25 * 0.5 * 5.0625);
}

// With eps = 0 the flow is x(t) = cos(sqrt(k) t) from the swing preset; RK4 at h = 1e-3 over
// t = 1 is within 1e-11 of it (its error is ~ h^4 / 120).
TEST(DuffingOscillator, LinearCaseFollowsTheClosedForm) {
  const DuffingOscillator m = with(4.0, 0.0);
  DuffingOscillator::State y = DuffingOscillator::presets().front().initial_state(m);
  const double h = 1e-3;
  DuffingOscillator::State k1, k2, k3, k4;
  for (int i = 0; i < 1000; ++i) {
    const double t = i * h;
    m.rhs(t, y, k1);
    m.rhs(t, y + 0.5 * h * k1, k2);
    m.rhs(t, y + 0.5 * h * k2, k3);
    m.rhs(t, y + h * k3, k4);
    y += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
  }
  EXPECT_NEAR(y(0), std::cos(2.0), 1e-11);
  EXPECT_NEAR(y(1), -2.0 * std::sin(2.0), 1e-11);
}

}  // namespace
}  // namespace geomint
