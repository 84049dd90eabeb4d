// The Lennard-Jones pair sum of sphere_lj (LLM Example 6): the potential and its gradient at the
// lee2009 preset's 642 molecules and at 10^4 molecules, and one step of the explicit
// variational integrator at 642. Pair-sum entries report `s_per_pair`, the time per distinct
// pair i < j (n(n-1)/2 per evaluation), so sizes compare directly.
//
//   build/release/bench/bench_sphere_lj --benchmark_format=json > out/bench_sphere_lj.json

#include <benchmark/benchmark.h>

#include <cmath>
#include <numbers>

#include "integrators/options.hpp"
#include "integrators/variational_explicit.hpp"
#include "models/preset.hpp"
#include "models/sphere_lj.hpp"

namespace geomint {
namespace {

constexpr double kEpsilon = 0.01;

/// n points spread evenly by the Fibonacci (golden-angle) spiral, z_i = 1 - (2i + 1)/n.
Eigen::Matrix3Xd fibonacci_sphere(Eigen::Index n) {
  Eigen::Matrix3Xd q(3, n);
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  for (Eigen::Index i = 0; i < n; ++i) {
    const double z = 1.0 - (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n);
    const double rho = std::sqrt(1.0 - z * z), phi = golden * static_cast<double>(i);
    q.col(i) << rho * std::cos(phi), rho * std::sin(phi), z;
  }
  return q;
}

/// sigma with the LJ minimum 2^(1/6) sigma at the spacing of a triangular lattice of n points
/// on the unit sphere (cell area 4 pi / n = (sqrt3/2) d^2), as lee2009 does for 642.
double sigma_for(Eigen::Index n) {
  const double spacing = std::sqrt(8.0 * std::numbers::pi / (std::sqrt(3.0) * static_cast<double>(n)));
  return spacing / std::pow(2.0, 1.0 / 6.0);
}

void count_pairs(benchmark::State& st, Eigen::Index n) {
  const double pairs = 0.5 * static_cast<double>(n) * static_cast<double>(n - 1);
  st.counters["s_per_pair"] = benchmark::Counter(
      pairs, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  st.counters["molecules"] = static_cast<double>(n);
}

/// The lee2009 positions (n = 642) or a Fibonacci sphere (any other n), and the pair sum.
struct PairFixture {
  Eigen::Matrix3Xd q;
  LennardJonesPairs pairs;
  explicit PairFixture(Eigen::Index n)
      : q(n == 642 ? icosphere(SphereLennardJones::kLee2009Level).vertices : fibonacci_sphere(n)),
        pairs(kEpsilon, n == 642 ? SphereLennardJones::lee2009_sigma() : sigma_for(n), n) {}
};

void BM_gradient(benchmark::State& st) {
  const auto n = static_cast<Eigen::Index>(st.range(0));
  PairFixture f(n);
  Eigen::Matrix3Xd grad(3, n);
  for (auto _ : st) {
    f.pairs.gradient(f.q, grad);
    benchmark::DoNotOptimize(grad.data());
    benchmark::ClobberMemory();
  }
  count_pairs(st, n);
}
BENCHMARK(BM_gradient)->Name("sphere_lj/potential_gradient")->Arg(642)->Arg(10000)->Unit(benchmark::kMicrosecond);

void BM_potential(benchmark::State& st) {
  const auto n = static_cast<Eigen::Index>(st.range(0));
  PairFixture f(n);
  for (auto _ : st) benchmark::DoNotOptimize(f.pairs.potential(f.q));
  count_pairs(st, n);
}
BENCHMARK(BM_potential)->Name("sphere_lj/potential")->Arg(642)->Arg(10000)->Unit(benchmark::kMicrosecond);

/// One step of vi_explicit (LLM Cor. 3) from the lee2009 state: one gradient per step (the
/// previous step's end gradient is reused), plus O(n) work.
void BM_vi_explicit_step(benchmark::State& st) {
  const auto& preset = find_preset<SphereLennardJones>("lee2009");
  const SphereLennardJones model(preset_parameters(preset, {}));
  SphereLennardJones::State y = preset.initial_state(model);
  IntegratorOptions opt;
  opt.h = 0.005;
  opt.T = 5.0;
  ExplicitVariational<SphereLennardJones> vi(model, opt);
  double t = 0.0;
  for (auto _ : st) {
    vi.step(t, y, opt.h);
    t += opt.h;
    benchmark::DoNotOptimize(y.data());
  }
  st.counters["molecules"] = static_cast<double>(model.bodies());
}
BENCHMARK(BM_vi_explicit_step)->Name("sphere_lj/vi_explicit_step/642")->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace geomint
