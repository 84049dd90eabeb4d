// An external integrator's command template (studies/external_command.hpp), the process it runs
// in (studies/command_process.hpp) and the trajectory it writes (studies/command_trajectory.hpp):
// each against what /bin/sh and the documented contract (docs/external-integrators.md) say.
#include <gtest/gtest.h>

#include <fstream>

#include "errors/exit_status_errors.hpp"
#include "studies/command_process.hpp"
#include "studies/command_trajectory.hpp"
#include "studies/external_command.hpp"

namespace geomint {
namespace {

class Folder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("geomint-test-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }
  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  std::filesystem::path dir_;
};

TEST(CommandTemplate, PlaceholdersAreFoundAndUnknownOnesRefused) {
  EXPECT_EQ(command_placeholders("x {init} {out} {init} {{literal}}"), (std::vector<std::string>{"init", "out"}));
  EXPECT_THROW(command_placeholders("x {nope} {out}"), InputError);
  EXPECT_THROW(command_placeholders("x {out"), InputError);
  EXPECT_THROW(command_placeholders("x out}"), InputError);
}

TEST_F(Folder, AnExpandedValueIsOneWordToTheShellWhateverItHolds) {
  // A value with blanks, quotes, $ and ; must reach the program as it is, as one argument.
  const std::string value = "a b'c\"$HOME;d";
  const std::string command = expand_command("printf '%s\\n' {model} > {out}", {{"model", value}, {"out", (dir_ / "o").string()}});
  const CommandOutcome r = run_command(command, dir_, dir_, {});
  ASSERT_TRUE(r.succeeded()) << r.failure();
  EXPECT_EQ(read("o"), value + "\n");
}

TEST_F(Folder, AFailureSaysHowWithItsLastLineOnStderr) {
  const CommandOutcome r = run_command("echo first >&2; echo 'the last words' >&2; exit 7", dir_, dir_, {});
  EXPECT_FALSE(r.succeeded());
  EXPECT_EQ(r.exit_status, 7);
  EXPECT_EQ(r.stderr_tail, "the last words");
  EXPECT_NE(r.failure().find("exited with status 7"), std::string::npos) << r.failure();
}

TEST_F(Folder, ATimeoutKillsTheCommandAndWhatItStarted) {
  const CommandOutcome r = run_command("sleep 30 & sleep 30; wait", dir_, dir_, {.timeout_s = 0.2});
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.wall_s, 5.0);
  EXPECT_NE(r.failure().find("timeout of 0.2 s"), std::string::npos) << r.failure();
}

TEST_F(Folder, AFileBeyondTheLimitStopsTheCommand) {
  const CommandOutcome r = run_command("head -c 100000 /dev/zero > big", dir_, dir_, {.max_file_bytes = 4096});
  EXPECT_FALSE(r.succeeded());
  EXPECT_LE(std::filesystem::file_size(dir_ / "big"), 4096u);
}

TEST_F(Folder, TheCpuTimeIsTheCommandsAndItsChildrens) {
  const CommandOutcome r = run_command("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", dir_, dir_, {});
  ASSERT_TRUE(r.succeeded()) << r.failure();
  EXPECT_GT(r.cpu_s, 0.01);
  EXPECT_LE(r.cpu_s, r.wall_s * 1.05 + 0.01);
}

TrajectoryExpectation pendulum(double t0, double T) {
  Eigen::VectorXd y0(2);
  y0 << 1.0, 0.0;
  return {{"x", "v"}, y0, t0, T, 10};
}

TEST_F(Folder, ATrajectoryReadsWithCrLfExtraColumnsAndBackwards) {
  const auto good = read_command_trajectory(write("a.csv", "t,x,v,energy\r\n0,1,0,7\r\n0.5,0.9,-0.4,7\r\n1,0.5,-0.8,7\r\n"),
                                            pendulum(0.0, 1.0));
  EXPECT_FALSE(good.failure);
  ASSERT_EQ(good.times.size(), 3u);
  EXPECT_EQ(good.states(1, 2), -0.8);
  const auto back = read_command_trajectory(write("b.csv", "t,x,v\n1,1,0\n0.5,0.9,-0.4\n0,0.5,-0.8\n"), pendulum(1.0, 0.0));
  EXPECT_FALSE(back.failure);
  EXPECT_EQ(back.times.back(), 0.0);
}

/// The failure's kind and whether its message holds `words`.
std::pair<FailureKind, bool> failure_of(const CommandTrajectory& r, const std::string& words) {
  try {
    std::rethrow_exception(r.failure);
  } catch (const IntegrationFailure& f) {
    return {f.kind(), std::string(f.what()).find(words) != std::string::npos};
  }
}

TEST_F(Folder, EachWayATrajectoryIsWrongIsTyped) {
  const std::pair<std::string, std::pair<std::string, FailureKind>> bad[] = {
      {"t,x\n0,1\n", {"column 3 is missing, expected v", FailureKind::MalformedOutput}},
      {"t,v,x\n0,0,1\n", {"column 2 is 'v', expected x", FailureKind::MalformedOutput}},
      {"", {"is empty", FailureKind::MalformedOutput}},
      {"t,x,v\n", {"a header and no rows", FailureKind::MalformedOutput}},
      {"t,x,v\n0,1,0\n0.5,1\n", {"2 fields, the header has 3", FailureKind::MalformedOutput}},
      {"t,x,v\n0,1,0\n0.5,one,0\n", {"x = 'one' is not a number", FailureKind::MalformedOutput}},
      {"t,x,v\n0,1,0\n0.5,inf,0\n", {"x = 'inf'", FailureKind::NonFinite}},
      {"t,x,v\n0,1,0\n0,1,0\n", {"does not move on from 0", FailureKind::MalformedOutput}},
      {"t,x,v\n0,1,0\n2,1,0\n", {"is past T = 1", FailureKind::MalformedOutput}},
      {"t,x,v\n0,2,0\n1,1,0\n", {"not the initial state (x = 2", FailureKind::MalformedOutput}},
      {"t,x,v\n0.1,1,0\n1,1,0\n", {"the first row is at t = 0.1", FailureKind::MalformedOutput}},
      {"t,x,v\n0,1,0\n0.5,1,0\n", {"short of T = 1", FailureKind::MalformedOutput}},
  };
  for (const auto& [text, expected] : bad) {
    SCOPED_TRACE(text);
    const auto r = read_command_trajectory(write("bad.csv", text), pendulum(0.0, 1.0));
    ASSERT_TRUE(r.failure);
    const auto [kind, says] = failure_of(r, expected.first);
    EXPECT_EQ(kind, expected.second);
    EXPECT_TRUE(says) << expected.first;
  }
  std::string many = "t,x,v\n";
  for (int k = 0; k <= 10; ++k) many += std::to_string(k / 10.0) + ",1,0\n";
  EXPECT_TRUE(failure_of(read_command_trajectory(write("many.csv", many), pendulum(0.0, 1.0)), "more than the 10 rows").second);
  EXPECT_TRUE(failure_of(read_command_trajectory(dir_ / "none.csv", pendulum(0.0, 1.0)), "wrote no trajectory").second);
}

TEST_F(Folder, TheFilesACommandNamesKeyItsResults) {
  write("rk.py", "print(1)\n");
  const auto before = command_file_digests("python3 rk.py --out {out}", dir_, {});
  ASSERT_EQ(before.count("rk.py"), 1u);
  EXPECT_EQ(before.count("python3"), 0u);
  write("rk.py", "print(2)\n");
  EXPECT_NE(command_file_digests("python3 rk.py --out {out}", dir_, {}).at("rk.py"), before.at("rk.py"));
  EXPECT_THROW(command_file_digests("python3 rk.py {out}", dir_, {"missing.py"}), InputError);
}

}  // namespace
}  // namespace geomint
