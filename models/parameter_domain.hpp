#pragma once
// The values a model parameter may take, declared with the parameter so that every way a value
// arrives (a preset, `geomint run --param`, a study spec, the matrix) is checked against the same
// rule before anything is integrated.

#include <charconv>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

namespace geomint {

/// A number as a reader types it back: the shortest text that reads back as the same double
/// ("2.5", "1e-07", "nan", "-inf").
inline std::string number_text(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return {buf, end};
}

/// Where a parameter's value must lie. NaN and the infinities lie outside every domain: no
/// parameter of a model means anything there, and letting one through would surface as an
/// integration failure far from its cause.
class ParameterDomain {
 public:
  /// Any finite number: a gravitational acceleration (its sign is a direction), a coupling
  /// whose sign is attraction or repulsion.
  static ParameterDomain finite() { return ParameterDomain(Kind::kFinite); }
  /// Finite and > 0: masses, lengths, moments.
  static ParameterDomain positive() { return ParameterDomain(Kind::kPositive); }
  /// Finite and >= 0: a spring that may be absent, a cutoff where 0 means none.
  static ParameterDomain non_negative() { return ParameterDomain(Kind::kNonNegative); }
  /// A whole number in [min, max]: a count. The maximum keeps the memory a count asks for
  /// (and its conversion to an index) within reason.
  static ParameterDomain whole(double min, double max = std::numeric_limits<double>::infinity()) {
    ParameterDomain d(Kind::kWhole);
    d.min_ = min;
    d.max_ = max;
    return d;
  }
  /// Exactly one of the values listed: a switch between formulations.
  static ParameterDomain one_of(std::initializer_list<double> values) {
    ParameterDomain d(Kind::kOneOf);
    d.values_ = values;
    return d;
  }

  bool contains(double v) const {
    if (!std::isfinite(v)) return false;
    switch (kind_) {
      case Kind::kFinite:
        return true;
      case Kind::kPositive:
        return v > 0.0;
      case Kind::kNonNegative:
        return v >= 0.0;
      case Kind::kWhole:
        return v == std::floor(v) && v >= min_ && v <= max_;
      case Kind::kOneOf:
        for (double allowed : values_)
          if (v == allowed) return true;
        return false;
    }
    return false;
  }

  /// The domain in words, for error messages and `geomint list models`.
  std::string describe() const {
    switch (kind_) {
      case Kind::kFinite:
        return "finite numbers";
      case Kind::kPositive:
        return "positive numbers";
      case Kind::kNonNegative:
        return "non-negative numbers";
      case Kind::kWhole:
        return std::isinf(max_) ? "whole numbers >= " + number_text(min_)
                                : "whole numbers " + number_text(min_) + ".." + number_text(max_);
      case Kind::kOneOf: {
        std::string s;
        for (double allowed : values_) s += (s.empty() ? "" : ", ") + number_text(allowed);
        return "one of " + s;
      }
    }
    return {};
  }

 private:
  enum class Kind { kFinite, kPositive, kNonNegative, kWhole, kOneOf };
  explicit ParameterDomain(Kind kind) : kind_(kind) {}

  Kind kind_;
  double min_ = 0.0, max_ = 0.0;  // kWhole
  std::vector<double> values_;    // kOneOf
};

}  // namespace geomint
