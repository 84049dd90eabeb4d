// Label `conservation`: the variational integrator on every (S^2)^n model but the double
// pendulum, 10^4 steps from the model's paper preset at the step the paper (or
// studies/lee2009.yaml) uses: its energy error shows no drift along the orbit (batch-means
// slope within three standard errors of zero), as for any symplectic method at a step in its
// stable range. The generated suites hold every symplectic method to the ensemble criterion on
// the first model of each class (test_energy_drift.cpp) and to its momentum maps on every model
// (test_momentum_maps.cpp); this one adds the single-orbit energy check on the other models, at
// their papers' steps. The explicit VI needs a diagonal inertia; the models with a coupled
// inertia (chain, rod) run the implicit one.

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

TYPED_TEST(VariationalConservation, HasNoEnergyDriftAlongTheOrbit) {
  using Model = TypeParam;
  constexpr Setting run = setting<Model>();
  const auto s = testing::make_setup<Model>(run.preset);
  const FixedStep step{run.h};
  const double t_end = kSteps * step.h;
  Vi<Model> integrator(s.model);
  auto y = s.initial;
  const double e0 = s.model.energy(y);
  std::vector<double> t, energy_error;
  integrate(integrator, y, 0.0, t_end, step, [&](double time, const typename Model::State& x) {
    t.push_back(time);
    energy_error.push_back(s.model.energy(x) - e0);
  });
  ASSERT_EQ(t.size(), static_cast<std::size_t>(kSteps) + 1);
  const DriftEstimate drift = batch_means_drift(t, energy_error);
  EXPECT_LT(std::abs(drift.t_statistic), 3.0)
      << "slope " << drift.slope << " +- " << drift.standard_error << " per unit time (batch "
      << "residual correlation " << drift.residual_correlation << ")";
}

}  // namespace
}  // namespace geomint
