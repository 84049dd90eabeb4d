#include "studies/spec_values.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

namespace geomint::spec_reading {

std::optional<std::size_t> offset_of(const YAML::Node& node) {
  if (!node.IsDefined()) return std::nullopt;
  const YAML::Mark m = node.Mark();
  if (m.is_null() || m.pos < 0) return std::nullopt;
  return static_cast<std::size_t>(m.pos);
}

std::optional<double> read_number(const std::string& s, bool& out_of_range) {
  out_of_range = false;
  if (s.empty()) return std::nullopt;
  std::string_view t = s;
  bool negative = false;
  if (!t.empty() && (t.front() == '+' || t.front() == '-')) {
    negative = t.front() == '-';
    t.remove_prefix(1);
  }
  const double sign = negative ? -1.0 : 1.0;
  if (t == ".inf" || t == ".Inf" || t == ".INF")
    return sign * std::numeric_limits<double>::infinity();
  if (!negative && s.front() != '+' && (t == ".nan" || t == ".NaN" || t == ".NAN"))
    return std::numeric_limits<double>::quiet_NaN();
  if (t.empty() || t.front() == '+' || t.front() == '-') return std::nullopt;
  double d = 0.0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), d);
  if (end != t.data() + t.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    out_of_range = true;
    return std::nullopt;
  }
  if (ec != std::errc()) return std::nullopt;
  return sign * d;
}

std::string key_text(const std::string& key) { return "'" + key + "'"; }

std::string describe(const YAML::Node& node) {
  if (!node.IsDefined()) return "nothing";
  switch (node.Type()) {
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Map:
      return "a map";
    case YAML::NodeType::Scalar:
      return quote(node.Scalar());
    default:
      return "nothing";
  }
}

YAML::Node key_node(const YAML::Node& map, const std::string& key) {
  for (const auto& kv : map)
    if (kv.first.Scalar() == key) return kv.first;
  return YAML::Node(YAML::NodeType::Undefined);
}

YAML::Node get(const YAML::Node& map, const std::string& key) {
  const YAML::Node& m = map;
  return m[key];
}

bool has(const YAML::Node& map, const std::string& key) { return get(map, key).IsDefined(); }

void require_map(const YAML::Node& node, const Context& ctx, const std::string& what) {
  if (!node.IsMap()) ctx.fail(node, what + ", got " + describe(node));
}

void reject_unknown_keys(const YAML::Node& node, const Context& ctx,
                         const std::set<std::string>& known) {
  for (const auto& kv : node) {
    const std::string& key = kv.first.Scalar();
    if (!known.contains(key)) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      ctx.fail(kv.first, "unknown key " + quote(key) + " (expected one of: " + list + ")");
    }
  }
}

std::string text(const YAML::Node& node, const Context& ctx, const std::string& key,
                 bool required) {
  const YAML::Node v = get(node, key);
  if (!v.IsDefined()) {
    if (required) ctx.fail(node, "missing " + key_text(key));
    return {};
  }
  if (!v.IsScalar()) ctx.fail(v, key_text(key) + " must be text, got " + describe(v));
  return v.Scalar();
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::string name_text(const YAML::Node& node, const Context& ctx, const std::string& key) {
  const std::string name = text(node, ctx, key);
  if (name.empty() || name.size() > 100 || !std::all_of(name.begin(), name.end(), [](char ch) {
        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.';
      }))
    ctx.fail(get(node, key),
             key_text(key) +
                 " must be a name of letters, digits, '_', '-' and '.' (at most 100), got " +
                 quote(name));
  return name;
}

double number(const YAML::Node& v, const Context& ctx, const std::string& what,
              bool finite) {
  if (!v.IsScalar()) ctx.fail(v, what + " must be a number, got " + describe(v));
  bool out_of_range = false;
  const auto x = read_number(v.Scalar(), out_of_range);
  if (out_of_range) ctx.fail(v, what + " is beyond the range of double: " + quote(v.Scalar()));
  if (!x) ctx.fail(v, what + " must be a number, got " + quote(v.Scalar()));
  if (finite && !std::isfinite(*x))
    ctx.fail(v, what + " must be a finite number, got " + quote(v.Scalar()));
  return *x;
}

std::optional<std::string> positive_problem(double x) {
  if (!(x > 0.0)) return "must be a positive number";
  return std::nullopt;
}

double number_in(const YAML::Node& v, const Context& ctx, const std::string& what,
                 const Domain& problem) {
  const double x = number(v, ctx, what);
  if (const auto p = problem(x)) ctx.fail(v, what + " = " + number_text(x) + ": " + *p);
  return x;
}

double positive(const YAML::Node& v, const Context& ctx, const std::string& what) {
  return number_in(v, ctx, what, positive_problem);
}

std::vector<Read> number_list(const YAML::Node& v, const Context& ctx, const std::string& key,
                              const Domain& problem) {
  std::vector<Read> out;
  if (v.IsSequence()) {
    if (v.size() == 0) ctx.fail(v, key_text(key) + " is an empty list: give at least one number");
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(
          {number_in(v[i], ctx, key_text(key) + " entry " + std::to_string(i + 1), problem), v[i]});
  } else if (v.IsScalar()) {
    out.push_back({number_in(v, ctx, key_text(key), problem), v});
  } else {
    ctx.fail(v, key_text(key) + " must be a number or a list of numbers, got " + describe(v));
  }
  return out;
}

std::vector<std::string> names(const YAML::Node& v, const Context& ctx, const std::string& key,
                               bool list_only) {
  std::vector<std::string> out;
  if (v.IsSequence()) {
    if (v.size() == 0) ctx.fail(v, key_text(key) + " is an empty list: name at least one");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < v.size(); ++i) {
      const YAML::Node e = v[i];
      if (!e.IsScalar())
        ctx.fail(e, key_text(key) + " entry " + std::to_string(i + 1) + " must be a name, got " +
                        describe(e));
      if (!seen.insert(e.Scalar()).second)
        ctx.fail(e, key_text(key) + " names " + quote(e.Scalar()) + " twice");
      out.push_back(e.Scalar());
    }
  } else if (v.IsScalar() && !list_only) {
    out.push_back(v.Scalar());
  } else {
    ctx.fail(v,
             key_text(key) +
                 (list_only ? " must be a list of names" : " must be a name or a list of names") +
                 ", got " + describe(v));
  }
  return out;
}

bool flag(const YAML::Node& v, const Context& ctx, const std::string& what) {
  bool b = false;
  if (!v.IsScalar() || !YAML::convert<bool>::decode(v, b))
    ctx.fail(v, what + " must be true or false, got " + describe(v));
  return b;
}

int whole_number(const YAML::Node& v, const Context& ctx, const std::string& what, int min,
                 int max) {
  const double x = number(v, ctx, what);
  if (x != std::floor(x) || x < min || x > max)
    ctx.fail(v, what + " must be a whole number from " + std::to_string(min) + " to " +
                    std::to_string(max) + ", got " + quote(v.Scalar()));
  return static_cast<int>(x);
}

}  // namespace geomint::spec_reading
