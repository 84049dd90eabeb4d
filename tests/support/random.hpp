#pragma once
// Replayable random inputs for tests.
//
// Every random test input comes from an `Rng` with a fixed seed, and the seed is put into the
// failure message (GEOMINT_SEEDED_RNG below adds a SCOPED_TRACE), so a failure can be replayed
// exactly. The variates are built from the raw 64-bit output of std::mt19937_64 (whose sequence
// is fixed by the standard), not from std::*_distribution (whose algorithms are not), so the same
// seed gives the same inputs with every standard library.
//
// The environment variable GEOMINT_TEST_SEED, if set, replaces the default seed (to explore other
// inputs, or to replay a failure reported with another seed).

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

namespace geomint::testing {

inline constexpr std::uint64_t kDefaultSeed = 0x67656f6d696e74ULL;  // "geomint"

/// The default seed, or GEOMINT_TEST_SEED if that is set.
inline std::uint64_t test_seed(std::uint64_t offset = 0) {
  if (const char* env = std::getenv("GEOMINT_TEST_SEED"); env != nullptr && *env != '\0')
    return std::strtoull(env, nullptr, 0) + offset;
  return kDefaultSeed + offset;
}

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : seed_(seed), engine_(seed) {}

  std::uint64_t seed() const { return seed_; }
  std::string describe() const {
    return "random inputs from std::mt19937_64 with seed " + std::to_string(seed_) +
           " (replay: GEOMINT_TEST_SEED=" + std::to_string(seed_) + ")";
  }

  /// Uniform in [0, 1), from the top 53 bits of one draw.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  /// Standard normal (Box-Muller).
  double normal() {
    const double u1 = 1.0 - uniform();  // in (0, 1]
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }

  /// Uniform in the cube [-scale, scale]^n.
  template <int N>
  Eigen::Matrix<double, N, 1> cube(double scale = 1.0, Eigen::Index n = N) {
    Eigen::Matrix<double, N, 1> x(n);
    for (Eigen::Index i = 0; i < n; ++i) x(i) = uniform(-scale, scale);
    return x;
  }
  Eigen::Vector3d vec3(double scale = 1.0) { return cube<3>(scale); }
  Eigen::Matrix<double, 6, 1> vec6(double scale = 1.0) { return cube<6>(scale); }

  /// Uniform on the unit sphere S^2.
  Eigen::Vector3d unit3() {
    Eigen::Vector3d x;
    do {
      x << normal(), normal(), normal();
    } while (x.norm() < 1e-3);
    return x.normalized();
  }
  /// A uniformly random direction scaled to length r.
  Eigen::Vector3d with_norm(double r) { return r * unit3(); }
  /// A random unit vector orthogonal to the unit vector n (|x . n| of order 1e-16): rejects
  /// draws nearly parallel to n, and orthogonalises twice so that the residual is not
  /// magnified by the normalisation.
  Eigen::Vector3d orthogonal_unit(const Eigen::Vector3d& n) {
    Eigen::Vector3d x;
    do {
      x = unit3();
      x -= x.dot(n) * n;
    } while (x.norm() < 0.1);
    x.normalize();
    x -= x.dot(n) * n;
    return x.normalized();
  }

  /// A uniformly random rotation (Haar measure), from a normalised Gaussian quaternion; built
  /// with Eigen::Quaternion, independently of geomint's so3::exp.
  Eigen::Matrix3d rotation() {
    Eigen::Vector4d x;
    do {
      x << normal(), normal(), normal(), normal();
    } while (x.norm() < 1e-3);
    x.normalize();
    return Eigen::Quaterniond(x(0), x(1), x(2), x(3)).toRotationMatrix();
  }

 private:
  std::uint64_t seed_;
  std::mt19937_64 engine_;
};

/// A random point of (TS^2)^n, y = [q_1..q_n, w_1..w_n], |w_i| of order one, drawn again until
/// every pair (q_i, q_j), i < j, passes `apart` (a model's potential is O(1) only away from its
/// singular configurations).
template <class State, class Apart>
State random_sphere_state(Rng& rng, Eigen::Index n, Apart apart) {
  State y(6 * n);
  for (;;) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const Eigen::Vector3d q = rng.unit3();
      Eigen::Vector3d w(rng.normal(), rng.normal(), rng.normal());
      w -= q.dot(w) * q;
      y.template segment<3>(3 * i) = q;
      y.template segment<3>(3 * (n + i)) = w;
    }
    bool separated = true;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = i + 1; j < n; ++j)
        separated = separated && apart(Eigen::Vector3d(y.template segment<3>(3 * i)),
                                       Eigen::Vector3d(y.template segment<3>(3 * j)));
    if (separated) return y;
  }
}

/// Full-precision text of a scalar or an Eigen object, for failure messages.
inline std::string show(double x) {
  std::ostringstream os;
  os << std::setprecision(std::numeric_limits<double>::max_digits10) << x;
  return os.str();
}
template <class Derived>
std::string show(const Eigen::DenseBase<Derived>& x) {
  const Eigen::IOFormat fmt(Eigen::FullPrecision, 0, ", ", ";\n", "", "", "[", "]");
  std::ostringstream os;
  if (x.cols() == 1)
    os << x.transpose().format(fmt);
  else
    os << x.format(fmt);
  return os.str();
}

}  // namespace geomint::testing

/// Declares `Rng name` seeded with test_seed(offset) and adds the seed to every failure message
/// in the enclosing scope.
#define GEOMINT_SEEDED_RNG(name, offset)                               \
  ::geomint::testing::Rng name(::geomint::testing::test_seed(offset)); \
  SCOPED_TRACE(name.describe())
