#pragma once
// Derivatives by finite differences, for checking analytic derivatives.
//
// central_difference(f, h) = (f(h) - f(-h)) / (2h) = f'(0) + h^2/6 f'''(0) + h^4/120 f^(5)(0) + ...
// richardson_derivative(f, h) = (4 D(h/2) - D(h)) / 3 = f'(0) - h^4/480 f^(5)(0) + O(h^6),
// with roundoff about 3 u |f| / h (u = 2^-53, D(h/2) weighs 4/3 and divides by h).
// With h = 2e-3 and derivatives of order one, truncation is ~3e-14 and roundoff ~3e-13, so a
// tolerance of 1e-11 (relative to the size of f and its derivatives) has a safety factor ~30.

#include <Eigen/Core>

namespace geomint::testing {

inline constexpr double kRichardsonStep = 2e-3;
/// Error bound for richardson_derivative with kRichardsonStep when f and its first five
/// derivatives are of order one (see above).
inline constexpr double kRichardsonTol = 1e-11;

template <class F>
auto central_difference(const F& f, double h) {
  return ((f(h) - f(-h)) / (2.0 * h)).eval();
}

template <class F>
auto richardson_derivative(const F& f, double h = kRichardsonStep) {
  const auto coarse = central_difference(f, h);
  const auto fine = central_difference(f, 0.5 * h);
  return ((4.0 * fine - coarse) / 3.0).eval();
}

/// Scalar version (the Eigen one calls .eval()).
template <class F>
double richardson_derivative_scalar(const F& f, double x, double h) {
  const auto d = [&](double s) { return (f(x + s) - f(x - s)) / (2.0 * s); };
  return (4.0 * d(0.5 * h) - d(h)) / 3.0;
}

/// The gradient of a scalar function f of a fixed-size vector at x, by central differences of
/// step h in each coordinate.
template <class F, int N>
Eigen::Matrix<double, N, 1> gradient_by_differences(const F& f, const Eigen::Matrix<double, N, 1>& x, double h) {
  Eigen::Matrix<double, N, 1> g;
  for (int i = 0; i < N; ++i) {
    const Eigen::Matrix<double, N, 1> e = Eigen::Matrix<double, N, 1>::Unit(i) * h;
    g(i) = (f(x + e) - f(x - e)) / (2.0 * h);
  }
  return g;
}

/// The Hessian of f at x, by central differences of step h in each pair of coordinates.
template <class F, int N>
Eigen::Matrix<double, N, N> hessian_by_differences(const F& f, const Eigen::Matrix<double, N, 1>& x, double h) {
  Eigen::Matrix<double, N, N> m;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      const Eigen::Matrix<double, N, 1> a = Eigen::Matrix<double, N, 1>::Unit(i) * h;
      const Eigen::Matrix<double, N, 1> b = Eigen::Matrix<double, N, 1>::Unit(j) * h;
      m(i, j) = (f(x + a + b) - f(x + a - b) - f(x - a + b) + f(x - a - b)) / (4.0 * h * h);
    }
  return m;
}

}  // namespace geomint::testing
