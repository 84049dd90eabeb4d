#pragma once
// Comparisons of Eigen objects (and scalars) that print both values in full precision on failure.
//
//   EXPECT_EIGEN_NEAR(actual, expected, tol)
//       max_ij |actual - expected| <= tol
//   EXPECT_EIGEN_REL_NEAR(actual, expected, rtol)
//       max_ij |actual - expected| <= rtol max_ij |expected|
//   EXPECT_REL_NEAR(actual, expected, rtol)
//       |actual - expected| <= rtol |expected|  (scalars)
// and their ASSERT_ variants.
//
// A NaN or an infinity anywhere in either operand fails every comparison, and the message names
// the operand and the entry. (The difference alone would not do: Eigen's maxCoeff skips a NaN
// that is not in the first position, and inf - inf is NaN.) Objects of different shape fail
// with a message.

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>

#include "support/random.hpp"

namespace geomint::testing {

namespace detail {
/// Failure naming the first non-finite entry of x, or success when every entry is finite.
template <class X>
::testing::AssertionResult non_finite(const char* expr, const X& x) {
  const auto d = x.template cast<double>().eval();
  for (Eigen::Index c = 0; c < d.cols(); ++c)
    for (Eigen::Index r = 0; r < d.rows(); ++r)
      if (!std::isfinite(d(r, c)))
        return ::testing::AssertionFailure()
               << expr << " has the non-finite entry " << show(d(r, c)) << " at (" << r << ", "
               << c << ")\n  " << expr << " =\n"
               << show(d);
  return ::testing::AssertionSuccess();
}

template <class A, class B>
::testing::AssertionResult compare(const char* a_expr, const char* b_expr, const A& a, const B& b,
                                   double bound, const std::string& bound_text) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) {
    return ::testing::AssertionFailure()
           << a_expr << " is " << a.rows() << "x" << a.cols() << " but " << b_expr << " is "
           << b.rows() << "x" << b.cols();
  }
  if (auto bad = non_finite(a_expr, a); !bad) return bad;
  if (auto bad = non_finite(b_expr, b); !bad) return bad;
  const auto diff = (a.template cast<double>() - b.template cast<double>()).eval();
  const double err = diff.size() == 0 ? 0.0 : diff.cwiseAbs().maxCoeff();
  if (err <= bound) return ::testing::AssertionSuccess();
  Eigen::Index r = 0, c = 0;
  if (diff.size() > 0 && std::isfinite(err)) diff.cwiseAbs().maxCoeff(&r, &c);
  return ::testing::AssertionFailure()
         << "max |" << a_expr << " - " << b_expr << "| = " << show(err) << " at (" << r << ", " << c
         << ") exceeds " << bound_text << "\n  " << a_expr << " =\n"
         << show(a) << "\n  " << b_expr << " =\n"
         << show(b) << "\n  difference =\n"
         << show(diff);
}
}  // namespace detail

/// Absolute: max_ij |a - b| <= tol.
template <class A, class B>
::testing::AssertionResult EigenNear(const char* a_expr, const char* b_expr, const char* tol_expr,
                                     const A& a, const B& b, double tol) {
  return detail::compare(a_expr, b_expr, a, b, tol,
                         std::string("tolerance ") + tol_expr + " = " + show(tol));
}

/// Relative to the expected value: max_ij |a - b| <= rtol max_ij |b|.
template <class A, class B>
::testing::AssertionResult EigenRelNear(const char* a_expr, const char* b_expr,
                                        const char* rtol_expr, const A& a, const B& b,
                                        double rtol) {
  const double scale = b.size() == 0 ? 0.0 : b.template cast<double>().cwiseAbs().maxCoeff();
  return detail::compare(a_expr, b_expr, a, b, rtol * scale,
                         std::string("rtol * max|expected| = ") + rtol_expr + " * " + show(scale) +
                             " = " + show(rtol * scale));
}

/// Scalars, relative: |a - b| <= rtol |b|.
inline ::testing::AssertionResult RelNear(const char* a_expr, const char* b_expr,
                                          const char* rtol_expr, double a, double b, double rtol) {
  for (const auto& [expr, x] : {std::pair{a_expr, a}, std::pair{b_expr, b}})
    if (!std::isfinite(x))
      return ::testing::AssertionFailure() << expr << " = " << show(x) << " is not finite";
  const double err = std::abs(a - b);
  if (err <= rtol * std::abs(b)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << a_expr << " = " << show(a) << "\n"
         << b_expr << " = " << show(b) << "\nrelative error " << show(err / std::abs(b))
         << " exceeds " << rtol_expr << " = " << show(rtol);
}

}  // namespace geomint::testing

#define EXPECT_EIGEN_NEAR(a, b, tol) EXPECT_PRED_FORMAT3(::geomint::testing::EigenNear, a, b, tol)
#define ASSERT_EIGEN_NEAR(a, b, tol) ASSERT_PRED_FORMAT3(::geomint::testing::EigenNear, a, b, tol)
#define EXPECT_EIGEN_REL_NEAR(a, b, rtol) \
  EXPECT_PRED_FORMAT3(::geomint::testing::EigenRelNear, a, b, rtol)
#define ASSERT_EIGEN_REL_NEAR(a, b, rtol) \
  ASSERT_PRED_FORMAT3(::geomint::testing::EigenRelNear, a, b, rtol)
#define EXPECT_REL_NEAR(a, b, rtol) EXPECT_PRED_FORMAT3(::geomint::testing::RelNear, a, b, rtol)
#define ASSERT_REL_NEAR(a, b, rtol) ASSERT_PRED_FORMAT3(::geomint::testing::RelNear, a, b, rtol)
