// Label `conservation`: the variational integrator on every (S^2)^n model, 10^4 steps from the
// model's paper preset at the step the paper (or studies/lee2009.yaml) uses:
//   - the momentum map of the model's symmetry (L_z for the pendulums and the chain, the whole
//     angular momentum vector for bodies and molecules on the sphere) is kept to 1e-11
//     relative: LLM's VIs are derived from a group-invariant discrete Lagrangian, so the
//     discrete Noether theorem makes it exact up to the rounding of the nonlinear solve;
//   - the energy error shows no drift (batch-means slope within three standard errors of
//     zero), as for any symplectic method at a step in its stable range.
// Models without a symmetry (spring_pendula, elastic_rod, magnetic_dipoles) have no momentum
// map; they are checked for the energy only. The explicit VI needs a diagonal inertia; the
// models with a coupled inertia (chain, rod) run the implicit one.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include "integrators/integrate.hpp"
#include "integrators/variational_explicit.hpp"
#include "integrators/variational_implicit.hpp"
#include "models/elastic_rod.hpp"
#include "models/magnetic_dipoles.hpp"
#include "models/pendulum_chain.hpp"
#include "models/sphere_lj.hpp"
#include "models/sphere_nbody.hpp"
#include "models/spherical_pendulum.hpp"
#include "models/spring_pendula.hpp"
#include "studies/metrics.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

constexpr int kSteps = 10000;

struct Setting {
  const char* preset;
  double h;
};

/// Each model's paper preset at the paper's step (LLM Section 3.5, Celledoni Section 5.3).
template <class Model>
constexpr Setting setting() {
  if constexpr (std::is_same_v<Model, SphericalPendulum>) return {"swing", 1e-2};
  if constexpr (std::is_same_v<Model, PendulumChain>) return {"celledoni2021_N5", 1e-3};
  if constexpr (std::is_same_v<Model, SphereNBody>) return {"lee2009", 1e-3};
  if constexpr (std::is_same_v<Model, SpringPendula>) return {"lee2009", 5e-3};
  if constexpr (std::is_same_v<Model, ElasticRod>) return {"lee2009", 1e-4};
  if constexpr (std::is_same_v<Model, MagneticDipoles>) return {"lee2009", 3e-4};
  if constexpr (std::is_same_v<Model, SphereLennardJones>) return {"lee2009", 5e-3};
}

template <class Model>
auto vi_type() {  // (std::conditional_t would name ExplicitVariational on a coupled inertia)
  if constexpr (Model::kDiagonalInertia)
    return std::type_identity<ExplicitVariational<Model>>{};
  else
    return std::type_identity<ImplicitVariational<Model>>{};
}
template <class Model>
using Vi = typename decltype(vi_type<Model>())::type;

/// sum_i |q_i x p_i|, p_i = sum_k M_ik (w_k x q_k): the bodies' angular momenta one by one.
/// The scale of J = sum_i q_i x p_i where J itself is zero (Celledoni's chain starts swinging
/// in a vertical plane, so L_z(0) = 0 and an error relative to it would mean nothing).
template <class Model>
double body_momenta(const Model& model, const typename Model::State& y) {
  const Eigen::Index n = model.bodies();
  const auto& m = model.inertia();
  const auto q = [&](Eigen::Index i) { return Eigen::Vector3d(y.template segment<3>(3 * i)); };
  const auto w = [&](Eigen::Index i) { return Eigen::Vector3d(y.template segment<3>(3 * (n + i))); };
  double sum = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::Vector3d p = Eigen::Vector3d::Zero();
    for (Eigen::Index k = 0; k < n; ++k) p += m(i, k) * w(k).cross(q(k));
    sum += q(i).cross(p).norm();
  }
  return sum;
}

template <class Model>
class VariationalConservation : public ::testing::Test {};

// The double pendulum is checked over 10^5 steps in test_vi_conservation.cpp: its chaotic
// energy error needs that long a run before batch means are stationary (over 10^4 steps the
// slow wander of E - E0 along the orbit reads as a slope of t = 5).
using Models = ::testing::Types<SphericalPendulum, PendulumChain,
                                SphereNBody, SpringPendula, ElasticRod, MagneticDipoles,
                                SphereLennardJones>;

class ModelNames {
 public:
  template <class Model>
  static std::string GetName(int) {
    return std::string(Model::kName);
  }
};
TYPED_TEST_SUITE(VariationalConservation, Models, ModelNames);

TYPED_TEST(VariationalConservation, KeepsTheMomentumMapAndHasNoEnergyDrift) {
  using Model = TypeParam;
  constexpr Setting run = setting<Model>();
  const auto s = testing::make_setup<Model>(run.preset);
  IntegratorOptions opt;
  opt.h = run.h;
  opt.T = kSteps * opt.h;
  Vi<Model> integrator(s.model, opt);
  auto y = s.initial;
  const double e0 = s.model.energy(y);
  const int count = Model::momentum_count();
  const Eigen::Vector3d j0 = s.model.conserved_momentum(y);
  double momentum_error = 0.0;
  std::vector<double> t, energy_error;
  integrate(integrator, y, 0.0, opt.T, [&](double time, const typename Model::State& x) {
    t.push_back(time);
    energy_error.push_back(s.model.energy(x) - e0);
    const Eigen::Vector3d j = s.model.conserved_momentum(x);
    double squared = 0.0;  // |(J - J0)_k| over the conserved components (a loop: GCC 12
    for (int k = 0; k < count; ++k)  // misreads the bounds of .head(count) on a Vector3d)
      squared += (j(k) - j0(k)) * (j(k) - j0(k));
    momentum_error = std::max(momentum_error, std::sqrt(squared));
  });
  ASSERT_EQ(t.size(), static_cast<std::size_t>(kSteps) + 1);
  if (count > 0) {
    double scale = 0.0;
    for (int k = 0; k < count; ++k) scale += j0(k) * j0(k);
    scale = std::sqrt(scale);
    if (scale == 0.0) scale = body_momenta(s.model, s.initial);
    ASSERT_GT(scale, 0.0);
    EXPECT_LT(momentum_error / scale, 1e-11) << "max |J - J0| = " << momentum_error
                                             << " of |J0| = " << scale;
  }
  const DriftEstimate drift = batch_means_drift(t, energy_error);
  EXPECT_LT(std::abs(drift.t_statistic), 3.0)
      << "slope " << drift.slope << " +- " << drift.standard_error << " per unit time (batch "
      << "residual correlation " << drift.residual_correlation << ")";
}

}  // namespace
}  // namespace geomint
