#pragma once
// R^N acting on itself by translation, y -> y + a: the abelian factor of a product action
// (geometry/product_action.hpp), e.g. the load's (y, v) in R^6 of Celledoni Section 6.1. exp is
// the identity map, the bracket is zero and dexpinv is the identity.

#include <Eigen/Core>

namespace geomint {

template <int N>
struct TranslationAction {
  using Point = Eigen::Matrix<double, N, 1>;
  using Algebra = Eigen::Matrix<double, N, 1>;

  static void exp_act(const Algebra& xi, Point& y) { y += xi; }
  static void generator(const Algebra& xi, const Point& /*y*/, Point& dy) { dy = xi; }
  static void bracket(const Algebra& /*a*/, const Algebra& /*b*/, Algebra& out) { out.setZero(); }
  static void dexpinv(const Algebra& /*a*/, const Algebra& b, Algebra& out) { out = b; }
  static void dexpinv_series(const Algebra& /*a*/, const Algebra& b, int /*max_power*/, Algebra& out) {
    out = b;
  }
  static double distance(const Point& a, const Point& b) { return (a - b).norm(); }
};

}  // namespace geomint
