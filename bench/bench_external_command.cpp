// What geomint adds around an external integrator's command (studies/external_run.hpp): reading
// back and checking the trajectory it wrote, per row (12 state columns, as the double pendulum's,
// 10^5 rows), and starting a command at all (/bin/sh -c true), which every case pays once.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "studies/command_process.hpp"
#include "studies/command_trajectory.hpp"

namespace {

constexpr int kColumns = 12;

/// A folder of its own under the temporary folder, removed when the program ends.
struct Folder {
  std::filesystem::path path;
  Folder() {
    std::string name = "geomint-bench-external-";
    name += std::to_string(::getpid());
    path = std::filesystem::temp_directory_path() / name;
    std::filesystem::create_directories(path);
  }
  ~Folder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

const std::filesystem::path& folder() {
  static const Folder dir;
  return dir.path;
}

geomint::TrajectoryExpectation write_trajectory(std::size_t rows) {
  geomint::TrajectoryExpectation e{{}, Eigen::VectorXd::Constant(kColumns, 0.5), 0.0, 1.0, rows};
  std::ofstream out(folder() / "trajectory.csv");
  out << "t";
  for (int j = 0; j < kColumns; ++j) {
    std::string name = "y";
    name += std::to_string(j);
    out << ',' << name;
    e.state_columns.push_back(name);
  }
  out << "\n";
  char number[32];
  for (std::size_t k = 0; k < rows; ++k) {
    std::snprintf(number, sizeof number, "%.17g", k + 1 == rows ? 1.0 : static_cast<double>(k) / static_cast<double>(rows - 1));
    out << number;
    for (int j = 0; j < kColumns; ++j) out << (k == 0 ? ",0.5" : ",0.49999999999999994");
    out << "\n";
  }
  return e;
}

void read_trajectory(benchmark::State& state) {
  const auto rows = static_cast<std::size_t>(state.range(0));
  const geomint::TrajectoryExpectation e = write_trajectory(rows);
  for (auto _ : state) {
    const auto t = geomint::read_command_trajectory(folder() / "trajectory.csv", e);
    if (t.failure) state.SkipWithError("the trajectory did not read");
    benchmark::DoNotOptimize(t.states.data());
  }
  state.counters["s_per_row"] = benchmark::Counter(static_cast<double>(rows), benchmark::Counter::kIsIterationInvariantRate |
                                                                                 benchmark::Counter::kInvert);
}
BENCHMARK(read_trajectory)->Arg(100000)->Unit(benchmark::kMillisecond);

void start_a_command(benchmark::State& state) {
  for (auto _ : state) {
    const auto r = geomint::run_command("true", folder(), folder(), {});
    if (!r.succeeded()) state.SkipWithError("/bin/sh -c true failed");
  }
}
BENCHMARK(start_a_command)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
