// The Lennard-Jones pair sum of sphere_lj (LLM Example 6): the potential and its gradient at the
// lee2009 preset's 642 molecules and at 10^4 molecules over all pairs, the gradient with the
// cutoff (shifted-force, r_c = 2.5 sigma, cell list) at 642, 10^4 and 10^5, and one step of
// the explicit variational integrator at 642 (all pairs) and at 10^4 and 10^5 (cutoff).
// Pair-sum entries report `s_per_pair`, the time per pair evaluated (n(n-1)/2 per evaluation
// over all pairs; with the cutoff, the pairs of neighbouring cells, a superset of those within
// r_c), so sizes compare directly; cutoff entries also report `s_per_molecule`, which stays
// flat as n grows if the cost is linear in n. Beyond 642 the molecules are spread by the
// Fibonacci spiral at the lee2009 density (sigma_for below).
//
//   build/release/bench/bench_sphere_lj --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true --benchmark_format=json > out/bench_sphere_lj.json
//   (one command line)
//
// Linear cost: t(10^5) / t(10^4) of the cutoff gradient and of the cutoff VI step, from the
// medians (real_time or cpu_time of the `_median` entries); see bench/README.md.
//
// These entries run on one thread (kernel_threads() = 1, models/kernel_threads.hpp) and time
// CPU. The `_threads` entries time the gradient on 1 and 2 threads in real (wall-clock) time,
// the CPU time of the calling thread saying nothing of the others': over all pairs at 10^4,
// with the cutoff at 10^4, 10^5 and 10^6 molecules (`n:<molecules>/threads:<threads>`):
//
//   build/release/bench/bench_sphere_lj --benchmark_filter=_threads --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
//   (one command line)

#include <benchmark/benchmark.h>

#include "bench/lj_configurations.hpp"
#include "integrators/variational_explicit.hpp"
#include "models/kernel_threads.hpp"
#include "models/preset.hpp"
#include "models/sphere_lj.hpp"

namespace geomint {
namespace {

using bench::fibonacci_sphere;
using bench::sigma_for;

constexpr double kEpsilon = 0.01;
constexpr double kCutoff = 2.5;  // r_c / sigma, the usual choice for Lennard-Jones

void count_pairs(benchmark::State& st, Eigen::Index n, Eigen::Index pairs) {
  st.counters["s_per_pair"] = benchmark::Counter(
      static_cast<double>(pairs),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  st.counters["molecules"] = static_cast<double>(n);
}

void count_molecules(benchmark::State& st, Eigen::Index n) {
  st.counters["s_per_molecule"] = benchmark::Counter(
      static_cast<double>(n),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

/// The lee2009 positions (n = 642) or a Fibonacci sphere (any other n), and the pair sum.
struct PairFixture {
  Eigen::Matrix3Xd q;
  LennardJonesPairs pairs;
  PairFixture(Eigen::Index n, double cutoff)
      : q(n == 642 ? icosphere(SphereLennardJones::kLee2009Level).vertices : fibonacci_sphere(n)),
        pairs(kEpsilon, n == 642 ? SphereLennardJones::lee2009_sigma() : sigma_for(n), n,
              cutoff) {}
};

/// All pairs, or (kCut) the pairs within the cutoff; on st.range(1) threads (kThreads), else 1.
template <bool kCut, bool kThreads = false>
void BM_gradient(benchmark::State& st) {
  const auto n = static_cast<Eigen::Index>(st.range(0));
  const ScopedKernelThreads threads(kThreads ? static_cast<int>(st.range(1)) : 1);
  PairFixture f(n, kCut ? kCutoff : 0.0);
  Eigen::Matrix3Xd grad(3, n);
  for (auto _ : st) {
    f.pairs.gradient(f.q, grad);
    benchmark::DoNotOptimize(grad.data());
    benchmark::ClobberMemory();
  }
  count_pairs(st, n, f.pairs.evaluated_pairs(f.q));
  if (kCut) count_molecules(st, n);
}
BENCHMARK_TEMPLATE(BM_gradient, false)
    ->Name("sphere_lj/potential_gradient")
    ->Arg(642)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_gradient, true)
    ->Name("sphere_lj/potential_gradient_cutoff")
    ->Arg(642)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_TEMPLATE(BM_gradient, false, true)
    ->Name("sphere_lj/potential_gradient_threads")
    ->ArgNames({"n", "threads"})
    ->ArgsProduct({{10000}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
// (ctest's bench_sphere_lj_smoke leaves out n:1000000: building its configuration alone takes
// seconds.)
BENCHMARK_TEMPLATE(BM_gradient, true, true)
    ->Name("sphere_lj/potential_gradient_cutoff_threads")
    ->ArgNames({"n", "threads"})
    ->ArgsProduct({{10000, 100000, 1000000}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

void BM_potential(benchmark::State& st) {
  const auto n = static_cast<Eigen::Index>(st.range(0));
  const ScopedKernelThreads threads(1);
  PairFixture f(n, 0.0);
  for (auto _ : st) benchmark::DoNotOptimize(f.pairs.potential(f.q));
  count_pairs(st, n, f.pairs.evaluated_pairs(f.q));
}
BENCHMARK(BM_potential)->Name("sphere_lj/potential")->Arg(642)->Arg(10000)->Unit(benchmark::kMicrosecond);

/// One step of vi_explicit (LLM Cor. 3) from the lee2009 state: one gradient per step (the
/// previous step's end gradient is reused), plus O(n) work.
void BM_vi_explicit_step(benchmark::State& st) {
  const ScopedKernelThreads threads(1);
  const auto& preset = find_preset<SphereLennardJones>("lee2009");
  const SphereLennardJones model(preset_parameters(preset, {}));
  SphereLennardJones::State y = preset.initial_state(model);
  const double h = 0.005;
  ExplicitVariational<SphereLennardJones> vi(model);
  double t = 0.0;
  for (auto _ : st) {
    vi.step(t, y, h);
    t += h;
    benchmark::DoNotOptimize(y.data());
  }
  st.counters["molecules"] = static_cast<double>(model.bodies());
}
BENCHMARK(BM_vi_explicit_step)->Name("sphere_lj/vi_explicit_step/642")->Unit(benchmark::kMicrosecond);

/// One step of vi_explicit with the cutoff, n molecules on the Fibonacci sphere at the lee2009
/// density, turning about e3 at the lee2009 vortex rate. The step size is lee2009's scaled
/// with sigma (the period of a bound pair is proportional to sigma sqrt(m / eps)); the
/// spiral is not an equilibrium, so the state goes back to the start, untimed, every
/// kRestart steps, well before any molecule moves fast enough to make the step fail. The
/// work per step depends on neither.
void BM_vi_explicit_step_cutoff(benchmark::State& st) {
  constexpr int kRestart = 200;
  const ScopedKernelThreads threads(1);
  const auto n = static_cast<Eigen::Index>(st.range(0));
  ParameterSet p = SphereLennardJones::default_parameters();
  p.set("n", static_cast<double>(n));
  p.set("epsilon", kEpsilon);
  p.set("sigma", sigma_for(n));
  p.set("cutoff", kCutoff);
  const SphereLennardJones model(p);
  const Eigen::Matrix3Xd q = fibonacci_sphere(n);
  SphereLennardJones::State y0(6 * n);
  const Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
  for (Eigen::Index i = 0; i < n; ++i) {
    y0.segment<3>(3 * i) = q.col(i);
    y0.segment<3>(3 * (n + i)) =
        SphereLennardJones::kLee2009VortexRate * (axis - axis.dot(q.col(i)) * q.col(i));
  }
  const double h = 0.005 * sigma_for(n) / SphereLennardJones::lee2009_sigma();
  ExplicitVariational<SphereLennardJones> vi(model);
  SphereLennardJones::State y = y0;
  int steps = 0;
  for (auto _ : st) {
    if (steps++ % kRestart == 0) {
      st.PauseTiming();
      y = y0;
      st.ResumeTiming();
    }
    vi.step(h * (steps - 1), y, h);
    benchmark::DoNotOptimize(y.data());
  }
  st.counters["molecules"] = static_cast<double>(n);
  count_molecules(st, n);
}
BENCHMARK(BM_vi_explicit_step_cutoff)
    ->Name("sphere_lj/vi_explicit_step_cutoff")
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace geomint
