// Label `unit`: the relative equilibria of the double spherical pendulum
// (models/double_spherical_pendulum_relative_equilibrium.hpp, NOTES-dutoit 3.4) and the presets
// built from them, against what does not use the closed form:
//   - the model's own equations of motion: seen from the frame turning at the rate read off the
//     preset's state, the field vanishes (models/relative_equilibrium.hpp); the conical pendulum
//     is the control of that check, a state turned at a perturbed rate the control that it can
//     fail;
//   - the second balance equation, which the closed form does not use, in the notes' tan form;
//   - the stability of the presets (the numbers their descriptions quote), with the inverted
//     spherical and double pendula, whose growth rates are known in closed form, as controls of
//     the classification;
//   - the end of the cowboy branch, against a brute-force count of the roots of the notes'
//     equation;
//   - integrated from the straight_out preset (NOTES-dutoit 3.5, item 2), vi_implicit and rk4
//     keep its shape and turn it at omega up to errors of their declared order (rk4's shape
//     error falls faster, as h^5, over these runs; asserted as at least order 4).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <vector>

#include "integrators/classical_methods.hpp"
#include "integrators/integrate.hpp"
#include "integrators/variational_implicit.hpp"
#include "models/conical_pendulum.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/double_spherical_pendulum_relative_equilibrium.hpp"
#include "models/relative_equilibrium.hpp"
#include "models/spherical_pendulum.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

using Dsp = DoubleSphericalPendulum;
constexpr double kPi = std::numbers::pi;

/// The rate a rigidly turning state turns at, read off body i of the state:
/// w_i = omega (e3 - cos th_i q_i) gives e3 . w_i = omega sin^2 th_i.
template <class State>
double rate_of(const State& y, Eigen::Index bodies, Eigen::Index i = 0) {
  const double c = y(3 * i + 2);
  return y(3 * (bodies + i) + 2) / (1.0 - c * c);
}

/// The angle of body i from the downward vertical e3, signed in the half-plane through e1.
double angle_of(const Dsp::State& y, int i) { return std::atan2(y(3 * i), y(3 * i + 2)); }

/// The same shape turning at `omega`: q_i unchanged, w_i = omega (e3 - cos th_i q_i).
Dsp::State turned_at(Dsp::State y, double omega) {
  for (int i = 0; i < 2; ++i) {
    const Eigen::Vector3d q = y.segment<3>(3 * i);
    y.segment<3>(6 + 3 * i) = omega * (Eigen::Vector3d::UnitZ() - q.z() * q);
  }
  return y;
}

/// The frequencies of the linearisation (imaginary parts above 1e-2, positive, ascending).
std::vector<double> frequencies(const Eigen::VectorXcd& spectrum) {
  std::vector<double> out;
  for (const auto& z : spectrum)
    if (z.imag() > 1e-2) out.push_back(z.imag());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(DspRelativeEquilibria, PresetsAreFixedPointsOfTheTurningFrameField) {
  for (const char* name : {"straight_out", "cowboy"}) {
    SCOPED_TRACE(name);
    const auto s = testing::make_setup<Dsp>(name);
    const double omega = rate_of(s.initial, 2);
    const double residual = rotating_frame_field(s.model, s.initial, omega).norm();
    std::printf("  %-12s omega = %.6f, |F(y)| = %.2e\n", name, omega, residual);
    EXPECT_LT(residual, 1e-12);
    EXPECT_LT(Dsp::unit_length_defect(s.initial), 1e-15);
    EXPECT_LT(Dsp::tangency_defect(s.initial), 1e-15);
    EXPECT_NEAR(rate_of(s.initial, 2, 1), omega, 1e-14 * omega) << "both bodies turn together";
  }
}

TEST(DspRelativeEquilibria, PresetsLieOnTheirBranches) {
  const auto out = testing::make_setup<Dsp>("straight_out").initial;
  EXPECT_NEAR(angle_of(out, 0), 0.6, 1e-15);
  EXPECT_GT(angle_of(out, 1), 0.6);
  const auto cowboy = testing::make_setup<Dsp>("cowboy").initial;
  EXPECT_NEAR(angle_of(cowboy, 0), 0.3, 1e-15);
  EXPECT_LT(angle_of(cowboy, 1), 0.0);
  EXPECT_LT(cowboy(0) + cowboy(3), 0.0) << "r2 = l1 sin th1 + l2 sin th2 must be negative";
}

TEST(DspRelativeEquilibria, TheConicalPendulumIsAFixedPointToo) {
  const auto s = testing::make_setup<SphericalPendulum>("conical");
  const double omega = rate_of(s.initial, 1);
  EXPECT_NEAR(omega, ConicalPendulum(ConicalPendulum::kPresetAngle, 1.0, 9.81).rate(), 1e-14);
  const double residual = rotating_frame_field(s.model, s.initial, omega).norm();
  std::printf("  conical      omega = %.6f, |F(y)| = %.2e\n", omega, residual);
  EXPECT_LT(residual, 1e-12);
}

TEST(DspRelativeEquilibria, APerturbedRateIsNoFixedPoint) {
  // The shape turned 0.1% too fast: the q blocks of F still vanish, the w blocks do not.
  for (const char* name : {"straight_out", "cowboy"}) {
    const auto s = testing::make_setup<Dsp>(name);
    const double omega = 1.001 * rate_of(s.initial, 2);
    const double residual =
        rotating_frame_field(s.model, turned_at(s.initial, omega), omega).norm();
    std::printf("  %-12s at 1.001 omega: |F(y)| = %.2e\n", name, residual);
    EXPECT_GT(residual, 1e-3);
  }
  const auto s = testing::make_setup<SphericalPendulum>("conical");
  const double omega = 1.001 * rate_of(s.initial, 1);
  SphericalPendulum::State y = s.initial;
  y.tail<3>() = omega * (Eigen::Vector3d::UnitZ() - y(2) * y.head<3>());
  const double residual = rotating_frame_field(s.model, y, omega).norm();
  std::printf("  conical      at 1.001 omega: |F(y)| = %.2e\n", residual);
  EXPECT_GT(residual, 1e-3);
}

TEST(DspRelativeEquilibria, BothBalanceEquationsHoldAlongBothBranches) {
  // The closed form solves their combination and takes omega from the first; the second,
  // m1 omega^2 l1 sin th1 = (m1 + m2) g tan th1 - m2 g tan th2, is checked here, for unequal
  // masses and lengths too.
  for (const auto& p :
       {Dsp::Parameters{1.0, 1.0, 1.0, 1.0, 9.81}, Dsp::Parameters{2.0, 0.5, 0.7, 1.3, 9.81}}) {
    for (const auto branch : {DspBranch::StraightOut, DspBranch::Cowboy}) {
      const double last =
          branch == DspBranch::Cowboy ? DspRelativeEquilibrium::cowboy_branch_end(p) : 1.5;
      for (double th1 = 0.05; th1 < last; th1 += 0.05) {
        const DspRelativeEquilibrium re(p, branch, th1);
        const double w2 = re.rate() * re.rate(), t1 = std::tan(th1), t2 = std::tan(re.theta2());
        const double lhs = p.m1 * w2 * p.l1 * std::sin(th1);
        const double rhs = (p.m1 + p.m2) * p.g * t1 - p.m2 * p.g * t2;
        EXPECT_NEAR(lhs, rhs, 1e-12 * std::abs(rhs)) << "theta1 = " << th1;
        EXPECT_NEAR(w2 * re.radius2(), p.g * t2, 1e-12 * std::abs(p.g * t2));
        if (branch == DspBranch::StraightOut) {
          EXPECT_GT(re.theta2(), th1);
        } else {
          EXPECT_LT(re.radius2(), 0.0);
        }
      }
    }
  }
}

TEST(DspRelativeEquilibria, PresetsAreLinearlyStableAsTheirDescriptionsSay) {
  const struct {
    const char* name;
    std::vector<double> frequencies;
  } cases[] = {{"straight_out", {4.325, 4.604, 8.505}}, {"cowboy", {3.457, 8.281, 9.023}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    const auto s = testing::make_setup<Dsp>(c.name);
    const double omega = rate_of(s.initial, 2);
    const auto spectrum = relative_equilibrium_spectrum(s.model, s.initial, omega);
    const double growth = spectrum.real().maxCoeff();
    const auto f = frequencies(spectrum);
    std::printf("  %-12s growth %.2e 1/s, frequencies", c.name, growth);
    for (double x : f) std::printf(" %.4f", x);
    std::printf(" rad/s\n");
    EXPECT_LT(growth, 1e-4 * omega);  // the finite-difference split of the zero eigenvalues
    ASSERT_EQ(f.size(), 3u);
    for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(f[k], c.frequencies[k], 1e-3);
  }
}

TEST(DspRelativeEquilibria, TheClassificationFindsTheInvertedPendulaUnstable) {
  // Upside down (q = -e3, w = 0) every rate is a relative equilibrium; the growth rates are
  // sqrt(g/l) for the spherical pendulum and sqrt((2 + sqrt2) g/l) for the double one with
  // m = l = 1 (the larger root of det(K - lambda M) = 0, M = [2 1; 1 1], K = g [2 0; 0 1]).
  const double g = 9.81;
  const SphericalPendulum single(SphericalPendulum::default_parameters());
  SphericalPendulum::State up1 = SphericalPendulum::State::Zero(6);
  up1(2) = -1.0;
  const double single_rate = largest_growth_rate(single, up1, 0.0);
  EXPECT_NEAR(single_rate, std::sqrt(g), 1e-6);
  const Dsp twin(Dsp::default_parameters());
  Dsp::State up2 = Dsp::State::Zero(12);
  up2(2) = up2(5) = -1.0;
  const double double_rate = largest_growth_rate(twin, up2, 0.0);
  EXPECT_NEAR(double_rate, std::sqrt((2.0 + std::sqrt(2.0)) * g), 1e-6);
  std::printf("  inverted pendula: growth %.8f, %.8f 1/s\n", single_rate, double_rate);
}

/// The number of roots of the notes' equation in tan form,
/// ((m1 + m2) tan th1 - m2 tan th2)(l1 sin th1 + l2 sin th2) - m1 l1 sin th1 tan th2 = 0,
/// with th2 on the cowboy side (-pi/2 < th2, r2 < 0), by sign changes on a fine grid.
int cowboy_root_count(const Dsp::Parameters& p, double th1) {
  const auto f = [&](double th2) {
    const double t2 = std::tan(th2);
    return ((p.m1 + p.m2) * std::tan(th1) - p.m2 * t2) *
               (p.l1 * std::sin(th1) + p.l2 * std::sin(th2)) -
           p.m1 * p.l1 * std::sin(th1) * t2;
  };
  const double top = -std::asin(p.l1 * std::sin(th1) / p.l2), bottom = -kPi / 2;
  constexpr int kGrid = 20000;
  int count = 0;
  double before = f(top - 1e-12);
  for (int k = 1; k < kGrid; ++k) {
    const double here = f(top + (bottom - top) * k / kGrid);
    count += (here > 0.0) != (before > 0.0);
    before = here;
  }
  return count;
}

TEST(DspRelativeEquilibria, TheCowboyBranchEndsInAFold) {
  const Dsp::Parameters p{1.0, 1.0, 1.0, 1.0, 9.81};
  const double end = DspRelativeEquilibrium::cowboy_branch_end(p);
  std::printf("  cowboy branch end: theta1 = %.12f\n", end);
  EXPECT_NEAR(end, 0.5990, 1e-4);
  // One root up to sin th1 = m2 l2 / ((m1 + m2) l1) = 1/2, where a second one comes in from
  // th2 = -pi/2; two up to the fold, where they meet; none after.
  EXPECT_EQ(cowboy_root_count(p, 0.3), 1);
  EXPECT_EQ(cowboy_root_count(p, kPi / 6 - 1e-3), 1);
  EXPECT_EQ(cowboy_root_count(p, kPi / 6 + 1e-3), 2);
  EXPECT_EQ(cowboy_root_count(p, end - 1e-4), 2);
  EXPECT_EQ(cowboy_root_count(p, end + 1e-4), 0);
  // The solver finds the branch right up to the end, and nothing past it; the existence it
  // assumes changes once along (0, pi/2).
  EXPECT_NO_THROW(DspRelativeEquilibrium(p, DspBranch::Cowboy, end - 1e-9));
  EXPECT_THROW(DspRelativeEquilibrium(p, DspBranch::Cowboy, end + 1e-9), InputError);
  for (double th1 = 0.01; th1 < kPi / 2; th1 += 0.01)
    EXPECT_EQ(cowboy_root_count(p, th1) > 0, th1 < end) << "theta1 = " << th1;
}

TEST(DspRelativeEquilibria, WhereThereIsNoneItSaysSo) {
  const Dsp::Parameters p{1.0, 1.0, 1.0, 1.0, 9.81};
  for (double th1 : {0.0, kPi / 2, -0.3})
    EXPECT_THROW(DspRelativeEquilibrium(p, DspBranch::StraightOut, th1), InputError);
  EXPECT_THROW(DspRelativeEquilibrium({1.0, 1.0, 1.0, 1.0, -9.81}, DspBranch::StraightOut, 0.6),
               InputError);
  try {
    DspRelativeEquilibrium(p, DspBranch::Cowboy, 0.7);
    FAIL() << "a cowboy relative equilibrium past the fold";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("the branch ends at theta1 = 0.59899"), std::string::npos)
        << e.what();
  }
  // A preset follows overridden parameters, and refuses them when they leave no branch.
  const auto& cowboy = find_preset<Dsp>("cowboy");
  EXPECT_THROW(cowboy.initial_state(Dsp(preset_parameters(cowboy, {{"l2", 0.2}}))), InputError);
  const Dsp heavier(preset_parameters(cowboy, {{"m2", 3.0}}));
  const auto y = cowboy.initial_state(heavier);
  EXPECT_LT(rotating_frame_field(heavier, y, rate_of(y, 2)).norm(), 1e-12);
}

/// How far a run from a relative equilibrium strays from it: the largest change of the shape
/// (the heights e3 . q_i of both links and the distance |l1 q1 + l2 q2| from the pivot to the
/// second bob), and the error of the rate fitted (least squares) to the azimuth of q1.
struct Departure {
  double shape = 0.0, rate = 0.0;
};

template <class Integrator>
Departure departure(const testing::Setup<Dsp>& s, double h, double T) {
  const auto& p = s.model.parameters();
  const auto reach = [&](const Dsp::State& y) {
    return (p.l1 * y.segment<3>(0) + p.l2 * y.segment<3>(3)).norm();
  };
  const Dsp::State y0 = s.initial;
  Departure d;
  std::vector<double> t, azimuth;
  const FixedStep step{h};
  Integrator integrator(s.model);
  Dsp::State y = y0;
  integrate(integrator, y, 0.0, T, step, [&](double ti, const Dsp::State& x) {
    d.shape = std::max(
        {d.shape, std::abs(x(2) - y0(2)), std::abs(x(5) - y0(5)), std::abs(reach(x) - reach(y0))});
    double phi = std::atan2(x(1), x(0));
    if (!azimuth.empty()) phi += 2 * kPi * std::round((azimuth.back() - phi) / (2 * kPi));
    t.push_back(ti);
    azimuth.push_back(phi);
  });
  const auto n = static_cast<double>(t.size());
  double st = 0.0, sa = 0.0, stt = 0.0, sta = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    st += t[k], sa += azimuth[k], stt += t[k] * t[k], sta += t[k] * azimuth[k];
  }
  d.rate = std::abs((n * sta - st * sa) / (n * stt - st * st) - rate_of(y0, 2));
  return d;
}

/// Runs at steps h and h/4; h is chosen so that both errors stay well above round-off.
template <class Integrator>
void expect_turns_rigidly_to_its_order(double h) {
  const auto s = testing::make_setup<Dsp>("straight_out");
  const double period = 2 * kPi / rate_of(s.initial, 2);
  const double T = 3 * period;
  const Departure coarse = departure<Integrator>(s, h, T);
  const Departure fine = departure<Integrator>(s, h / 4, T);
  const double shape_order = std::log(coarse.shape / fine.shape) / std::log(4.0);
  const double rate_order = std::log(coarse.rate / fine.rate) / std::log(4.0);
  const double order = Integrator::declaration.order;
  std::printf(
      "  %-11s over 3 periods (T = %.3f), h = %g and h/4: shape %.2e -> %.2e "
      "(order %.2f), rate %.2e -> %.2e (order %.2f)\n",
      std::string(Integrator::declaration.name).c_str(), T, h, coarse.shape, fine.shape,
      shape_order, coarse.rate, fine.rate, rate_order);
  EXPECT_GT(shape_order, order - 0.2);
  EXPECT_NEAR(rate_order, order, 0.2);
  EXPECT_LT(coarse.shape, 1e-3);
  EXPECT_LT(coarse.rate, 1e-3);
}

TEST(DspRelativeEquilibria, StraightOutTurnsRigidlyUnderVariationalIntegration) {
  expect_turns_rigidly_to_its_order<ImplicitVariational<Dsp>>(0.01);
}

TEST(DspRelativeEquilibria, StraightOutTurnsRigidlyUnderRk4) {
  expect_turns_rigidly_to_its_order<Rk4<Dsp>>(0.04);
}

}  // namespace
}  // namespace geomint
