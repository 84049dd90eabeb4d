#pragma once
// The direct product of group actions G_1 x ... x G_k acting on M_1 x ... x M_k factor by
// factor (Celledoni Section 6.1 builds the quadrotors' group this way). A point is the factors'
// points laid end to end, an algebra element the factors' algebra elements in the same order;
// exp, the generator, the bracket and dexpinv (exact or as the series (8)) act factor by factor,
// because the algebra of a direct product is the direct sum of the factors' algebras, with
// [(a_i), (b_i)] = ([a_i, b_i]). The distance is the root of the sum of the factors' squares.
//
// Every factor has fixed-size Point and Algebra types and the static functions of
// geometry/rotation_translation_action.hpp.

#include <Eigen/Core>
#include <array>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <utility>

namespace geomint {

template <class... Factors>
struct ProductAction {
  template <std::size_t K>
  using Factor = std::tuple_element_t<K, std::tuple<Factors...>>;

 private:
  static constexpr std::array<int, sizeof...(Factors)> kPointSizes = {
      Factors::Point::RowsAtCompileTime...};
  static constexpr std::array<int, sizeof...(Factors)> kAlgebraSizes = {
      Factors::Algebra::RowsAtCompileTime...};
  static constexpr int sum_before(const std::array<int, sizeof...(Factors)>& sizes, std::size_t k) {
    int s = 0;
    for (std::size_t i = 0; i < k; ++i) s += sizes[i];
    return s;
  }

 public:
  static constexpr int kPointDim = sum_before(kPointSizes, sizeof...(Factors));
  static constexpr int kAlgebraDim = sum_before(kAlgebraSizes, sizeof...(Factors));
  using Point = Eigen::Matrix<double, kPointDim, 1>;
  using Algebra = Eigen::Matrix<double, kAlgebraDim, 1>;

  /// Factor K's part of a point or of an algebra element (a writable view of a non-const one).
  template <std::size_t K, class V>
  static auto point(V& y) {
    return y.template segment<kPointSizes[K]>(sum_before(kPointSizes, K));
  }
  template <std::size_t K, class V>
  static auto algebra(V& xi) {
    return xi.template segment<kAlgebraSizes[K]>(sum_before(kAlgebraSizes, K));
  }

  static void exp_act(const Algebra& xi, Point& y) {
    each([&](auto k) {
      constexpr std::size_t K = decltype(k)::value;
      typename Factor<K>::Point part = point<K>(y);
      Factor<K>::exp_act(algebra<K>(xi), part);
      point<K>(y) = part;
    });
  }
  static void generator(const Algebra& xi, const Point& y, Point& dy) {
    each([&](auto k) {
      constexpr std::size_t K = decltype(k)::value;
      typename Factor<K>::Point part;
      Factor<K>::generator(algebra<K>(xi), point<K>(y), part);
      point<K>(dy) = part;
    });
  }
  static void bracket(const Algebra& a, const Algebra& b, Algebra& out) {
    combine(a, b, out, [](auto k, const auto& x, const auto& y, auto& part) {
      Factor<decltype(k)::value>::bracket(x, y, part);
    });
  }
  static void dexpinv(const Algebra& a, const Algebra& b, Algebra& out) {
    combine(a, b, out, [](auto k, const auto& x, const auto& y, auto& part) {
      Factor<decltype(k)::value>::dexpinv(x, y, part);
    });
  }
  static void dexpinv_series(const Algebra& a, const Algebra& b, int max_power, Algebra& out) {
    combine(a, b, out, [max_power](auto k, const auto& x, const auto& y, auto& part) {
      Factor<decltype(k)::value>::dexpinv_series(x, y, max_power, part);
    });
  }
  static double distance(const Point& a, const Point& b) {
    double sum = 0.0;
    each([&](auto k) {
      constexpr std::size_t K = decltype(k)::value;
      const double d = Factor<K>::distance(point<K>(a), point<K>(b));
      sum += d * d;
    });
    return std::sqrt(sum);
  }

 private:
  /// out_K = op(K, a_K, b_K) for every factor K: the bracket and dexpinv of a direct sum act
  /// factor by factor.
  template <class Op>
  static void combine(const Algebra& a, const Algebra& b, Algebra& out, Op op) {
    each([&](auto k) {
      constexpr std::size_t K = decltype(k)::value;
      typename Factor<K>::Algebra part;
      op(k, typename Factor<K>::Algebra(algebra<K>(a)), typename Factor<K>::Algebra(algebra<K>(b)), part);
      algebra<K>(out) = part;
    });
  }

  /// f(std::integral_constant<std::size_t, K>{}) for every factor K, in order.
  template <class F>
  static void each(F&& f) {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      (f(std::integral_constant<std::size_t, K>{}), ...);
    }(std::index_sequence_for<Factors...>{});
  }
};

}  // namespace geomint
