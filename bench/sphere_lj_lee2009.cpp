// bench_integrators entries of the Lennard-Jones molecules on the sphere (LLM Example 6) beyond
// the model's Exercise (42 molecules, generated from the registry), as
// bench/model_benchmarks.hpp describes:
//   - `sphere_lj_lee2009`: the lee2009 preset's 642 molecules at the paper's h = 0.005, every
//     integrator but CVODE's dense BDF (cvode_bdf, cvode_bdf_proj), whose difference-quotient
//     Jacobian (3852 evaluations) and LU of a 3852 x 3852 matrix take minutes, and the
//     constrained integrators (constrained_vi, rattle), which refuse a dense Newton matrix of
//     2568 unknowns (integrators/constrained_variational.hpp); T = 0.1 keeps one integration
//     near a second;
//   - `sphere_lj_n10000`: 10^4 molecules spread by the Fibonacci spiral, at rest, sigma from
//     their spacing: the bare evaluations and one step of RK4, Dormand-Prince and the explicit
//     VI (the methods of the overhead target), with no integrate_ entries (one evaluation of
//     the O(n^2) pair sum takes a large fraction of a second).

#include <cmath>
#include <string_view>

#include "bench/lj_configurations.hpp"
#include "bench/model_benchmarks.hpp"
#include "models/kernel_threads.hpp"
#include "models/sphere_lj.hpp"

namespace geomint::bench {
namespace {

constexpr Eigen::Index kLarge = 10000;

void register_sphere_lj_entries() {
  // bench_integrators times the calling thread's CPU: the pair sums on it alone (the threaded
  // ones have their own entries in bench_sphere_lj).
  set_kernel_threads(1);
  auto lee2009 = preset_problem<SphereLennardJones>("lee2009", /*h*/ 0.005, /*T*/ 0.1);
  lee2009.label = "sphere_lj_lee2009";
  lee2009.benchmarks = [](std::string_view name) {
    return name != "cvode_bdf" && name != "cvode_bdf_proj" && name != "constrained_vi" && name != "rattle";
  };
  register_model_benchmarks(lee2009);

  BenchProblem<SphereLennardJones> large{
      "sphere_lj_n10000",
      [] {
        ParameterSet p = SphereLennardJones::default_parameters();
        p.set("n", static_cast<double>(kLarge));
        p.set("sigma", sigma_for(kLarge));
        return p;
      },
      [](const SphereLennardJones&) {
        SphereLennardJones::State y = SphereLennardJones::State::Zero(6 * kLarge);
        y.head(3 * kLarge) = fibonacci_sphere(kLarge).reshaped();
        return y;
      },
      /*h*/ 0.005, /*T*/ 0.1};
  large.benchmarks = [](std::string_view name) {
    return name == "rk4" || name == "dopri45" || name == "vi_explicit";
  };
  large.integrate_entries = false;
  register_model_benchmarks(large);
}

[[maybe_unused]] const bool kSphereLjRegistered = (register_sphere_lj_entries(), true);

}  // namespace
}  // namespace geomint::bench
