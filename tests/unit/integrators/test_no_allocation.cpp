// Label `unit`: no integrator allocates memory per step (after its first step, which may size
// lazily allocated factorisations), on a fixed-size model, on one under a product of group actions
// with a time-dependent field (the quadrotors) and on a model whose size is a runtime parameter,
// unconstrained and constrained (the Astrojax, the charges); nor does the Lennard-Jones pair sum
// per evaluation, with its cell list, on 1 thread and on 2. Every catalogued integrator that runs
// on the model is checked, so a new one is checked by being catalogued; the reference family wraps
// third-party solvers and is left out. The integrators of methods a spec defines by their
// coefficients are checked too.
//
// Allocations are counted by interposing malloc and its relatives in this test binary (glibc's
// own entry points do the work); under AddressSanitizer, which interposes them itself, the
// test is skipped.

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdlib>

#include "bench/lj_configurations.hpp"
#include "catalogue/integrator_on_model.hpp"
#include "integrators/integrate.hpp"
#include "integrators/lie_group_methods.hpp"
#include "integrators/runtime_commutator_free.hpp"
#include "integrators/runtime_explicit_rk.hpp"
#include "integrators/runtime_rkmk.hpp"
#include "models/astrojax.hpp"
#include "models/double_spherical_pendulum.hpp"
#include "models/kernel_threads.hpp"
#include "models/pendulum_chain.hpp"
#include "models/quadrotors_payload.hpp"
#include "models/sphere_charges.hpp"
#include "models/sphere_lj.hpp"
#include "support/model_setup.hpp"

#if defined(__SANITIZE_ADDRESS__)  // GCC's
#define GEOMINT_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)  // Clang's
#define GEOMINT_UNDER_ASAN 1
#endif
#endif
#if defined(GEOMINT_UNDER_ASAN)
#define GEOMINT_COUNTS_ALLOCATIONS 0
#else
#define GEOMINT_COUNTS_ALLOCATIONS 1
namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
void note() {
  if (counting.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* malloc(std::size_t n) {
  note();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  note();
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  note();
  return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) {
  note();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
  note();
  *out = __libc_memalign(alignment, n);
  return *out ? 0 : 12;  // ENOMEM
}
}
#endif

namespace geomint {
namespace {

/// Allocations made by `f`.
template <class F>
long allocations_in(F&& f) {
#if GEOMINT_COUNTS_ALLOCATIONS
  allocations = 0;
  counting = true;
  f();
  counting = false;
  return allocations;
#else
  f();
  return 0;
#endif
}

/// Each compiled catalogue entry (catalogue/integrator_on_model.hpp), the code studies run.
template <class Model>
void expect_no_allocation_per_step(const std::string& preset) {
  const auto s = testing::make_setup<Model>(preset);
  const typename IntegratorOnModel<Model>::Observer ignore = [](double,
                                                                const typename Model::State&) {};
  for (const auto& c : compiled_integrators<Model>()) {
    if (!c.runs || c.entry->family == Family::Reference) continue;
    const FixedStep step{0.01};
    const double t_end = 10.0;
    const auto integrator = c.make(s.model, control_for(*c.entry, step, Tolerances{}), 0.0, t_end);
    auto y = s.initial;
    double t = 0.0;
    const auto one_step = [&] {
      if (c.entry->adaptive) {
        integrator->advance(t, y, t_end, ignore);
      } else {
        integrator->step(t, y, step.h);
        t += step.h;
      }
    };
    one_step();  // the first step may size what is allocated lazily
    const long n = allocations_in([&] {
      for (int k = 0; k < 20; ++k) one_step();
    });
    EXPECT_EQ(n, 0) << c.name() << " on " << Model::kName << " allocated " << n
                    << " times in 20 steps";
  }
}

TEST(NoAllocationPerStep, OnAFixedSizeModel) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  expect_no_allocation_per_step<DoubleSphericalPendulum>("lee2009");
}

TEST(NoAllocationPerStep, OnANonAutonomousModelUnderAProductAction) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  expect_no_allocation_per_step<QuadrotorsPayload>("celledoni2021");
}

TEST(NoAllocationPerStep, OnAModelSizedAtRunTime) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  expect_no_allocation_per_step<PendulumChain>("celledoni2021_N5");
}

TEST(NoAllocationPerStep, OnAConstrainedModel) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  expect_no_allocation_per_step<Astrojax>("spatial_intermediate");
}

TEST(NoAllocationPerStep, OnAConstrainedModelSizedAtRunTime) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  expect_no_allocation_per_step<SphereCharges>("breathing_spinning");
}

/// The runtime-coefficient integrators of methods a spec defines (studies/user_method.hpp),
/// which size their per-stage scratch when they are constructed.
template <class Model>
void expect_no_allocation_per_step_of_user_methods(const std::string& preset) {
  const auto s = testing::make_setup<Model>(preset);
  const RuntimeRkMethod rk{{.name = "user_rk4_proj",
                            .description = "RK4, reprojected",
                            .family = Family::Classical, .order = 4, .stays_on_manifold = true},
                           to_dynamic(kRk4Tableau),
                           true};
  const RuntimeRkmkMethod rkmk{{.name = "user_rkmk5",
                                .description = "RKMK, Dormand-Prince weights",
                                .family = Family::LieGroup, .order = 5, .stays_on_manifold = true},
                               to_dynamic(kDormandPrinceTableau)};
  const RuntimeCfMethod cf{{.name = "user_cf4",
                            .description = "CF4 and an unused fifth stage",
                            .family = Family::LieGroup, .order = 4, .stays_on_manifold = true},
                           to_dynamic(kCf43Scheme)};
  const auto check = [&]<class Integrator>(const auto& method) {
    const double h = 0.01;
    Integrator integrator(s.model, method);
    auto y = s.initial;
    double t = 0.0;
    integrator.step(t, y, h);
    const long n = allocations_in([&] {
      for (int k = 0; k < 20; ++k) {
        t += h;
        integrator.step(t, y, h);
      }
    });
    EXPECT_EQ(n, 0) << method.declaration.name << " on " << Model::kName << " allocated " << n
                    << " times in 20 steps";
  };
  check.template operator()<ExplicitRk<RuntimeRkMethod, Model>>(rk);
  check.template operator()<Rkmk<RuntimeRkmkMethod, Model>>(rkmk);
  check.template operator()<CommutatorFree<RuntimeCfMethod, Model>>(cf);
}

TEST(NoAllocationPerStep, MethodsGivenByTheirCoefficientsAtRunTime) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  expect_no_allocation_per_step_of_user_methods<DoubleSphericalPendulum>("lee2009");
  expect_no_allocation_per_step_of_user_methods<PendulumChain>("celledoni2021_N5");
}

TEST(NoAllocationPerStep, TheLennardJonesPairSumAllPairsAndWithItsCellList) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  // The lee2009 molecules, and 5000 on the Fibonacci sphere: enough to share an evaluation
  // among threads (models/kernel_threads.hpp), on 1 thread (none is started) and on 2 (the
  // OpenMP runtime's threads and teams, made at the first evaluation, are reused).
  for (const int threads : {1, 2}) {
    const ScopedKernelThreads use(threads);
    for (const Eigen::Index molecules : {642, 5000}) {
      const Eigen::Matrix3Xd q = molecules == 642
                                     ? icosphere(SphereLennardJones::kLee2009Level).vertices
                                     : bench::fibonacci_sphere(molecules);
      const double sigma =
          molecules == 642 ? SphereLennardJones::lee2009_sigma() : bench::sigma_for(molecules);
      for (const double cutoff : {0.0, 2.5}) {
        const LennardJonesPairs pairs(0.01, sigma, q.cols(), cutoff);
        Eigen::Matrix3Xd grad(3, q.cols());
        pairs.gradient(q, grad);
        volatile double first = pairs.potential(q);
        (void)first;
        const long n = allocations_in([&] {
          for (int k = 0; k < 5; ++k) {
            pairs.gradient(q, grad);
            volatile double v = pairs.potential(q);
            (void)v;
          }
        });
        EXPECT_EQ(n, 0) << molecules << " molecules, cutoff " << cutoff << ", " << threads
                        << " threads: " << n << " allocations in 5 evaluations";
      }
    }
  }
}

TEST(NoAllocationPerStep, TheCounterCounts) {
#if !GEOMINT_COUNTS_ALLOCATIONS
  GTEST_SKIP() << "allocations are not counted under AddressSanitizer";
#endif
  const long n = allocations_in([] {
    Eigen::VectorXd v(100);
    v.setZero();
    volatile double keep = v.sum();
    (void)keep;
  });
  EXPECT_GE(n, 1);
}

}  // namespace
}  // namespace geomint
