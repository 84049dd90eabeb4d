#include "studies/spec.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <new>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "catalogue/integrator_declarations.hpp"
#include "integrators/order_conditions.hpp"
#include "integrators/runtime_commutator_free.hpp"
#include "models/parameters.hpp"
#include "studies/evocation_positions.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/note_template.hpp"
#include "studies/spec_text.hpp"
#include "studies/tolerance_domain.hpp"
#include "studies/user_method.hpp"

namespace geomint {

namespace {

using spec_text::one_line;
using spec_text::quote;
using spec_text::Source;

/// The byte offset of a node in the spec's text, if it has one (nodes made in code do not).
std::optional<std::size_t> offset_of(const YAML::Node& node) {
  if (!node.IsDefined()) return std::nullopt;
  const YAML::Mark m = node.Mark();
  if (m.is_null() || m.pos < 0) return std::nullopt;
  return static_cast<std::size_t>(m.pos);
}

/// Errors are one line: `PATH:LINE:COLUMN: <where>: <what>`, at the node they are about, or,
/// for a node without a place (missing, or made in code), at the nearest enclosing one.
class Context {
 public:
  explicit Context(const Source& source) : source_(&source) {}
  /// One level further in: `more` is appended to the place's name, and `node`, if it has a
  /// place in the text, becomes the fallback for nodes that have none.
  Context at(const std::string& more) const {
    Context c = *this;
    c.where_ = where_.empty() ? more : where_ + ": " + more;
    return c;
  }
  Context at(const std::string& more, const YAML::Node& node) const {
    Context c = at(more);
    if (const auto pos = offset_of(node)) c.pos_ = *pos;
    return c;
  }
  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const {
    fail_at(offset_of(node).value_or(pos_), what);
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const {
    throw InputError(source_->place(pos) + ": " +
                     one_line(where_.empty() ? what : where_ + ": " + what));
  }

 private:
  const Source* source_;
  std::string where_;
  std::size_t pos_ = 0;
};

std::string key_text(const std::string& key) { return "'" + key + "'"; }

/// What a node is, for "must be ..., got ..." messages.
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

/// The node of `key` in `map` itself (for messages about the key), or an undefined node.
YAML::Node key_node(const YAML::Node& map, const std::string& key) {
  for (const auto& kv : map)
    if (kv.first.Scalar() == key) return kv.first;
  return YAML::Node(YAML::NodeType::Undefined);
}

/// The value of `key` in `map`, or an undefined node. (Through a const map: yaml-cpp's
/// non-const operator[] would add the key.)
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
                 bool required = true) {
  const YAML::Node v = get(node, key);
  if (!v.IsDefined()) {
    if (required) ctx.fail(node, "missing " + key_text(key));
    return {};
  }
  if (!v.IsScalar()) ctx.fail(v, key_text(key) + " must be text, got " + describe(v));
  return v.Scalar();
}

/// The text without the blanks and newlines around it.
std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

/// A name that goes into result files: letters, digits, '_', '-', '.'; at most 100 characters.
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

/// A number as YAML writes one (1e-3, -2.5, .inf, .nan); nothing if the text is not one.
/// `out_of_range` is set for a number beyond the doubles (1e999).
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

/// A number, finite unless `finite` is false.
double number(const YAML::Node& v, const Context& ctx, const std::string& what,
              bool finite = true) {
  if (!v.IsScalar()) ctx.fail(v, what + " must be a number, got " + describe(v));
  bool out_of_range = false;
  const auto x = read_number(v.Scalar(), out_of_range);
  if (out_of_range) ctx.fail(v, what + " is beyond the range of double: " + quote(v.Scalar()));
  if (!x) ctx.fail(v, what + " must be a number, got " + quote(v.Scalar()));
  if (finite && !std::isfinite(*x))
    ctx.fail(v, what + " must be a finite number, got " + quote(v.Scalar()));
  return *x;
}

using Domain = std::function<std::optional<std::string>(double)>;

std::optional<std::string> positive_problem(double x) {
  if (!(x > 0.0)) return "must be a positive number";
  return std::nullopt;
}

/// A finite number in a domain (`problem` says why a value is outside it).
double number_in(const YAML::Node& v, const Context& ctx, const std::string& what,
                 const Domain& problem) {
  const double x = number(v, ctx, what);
  if (const auto p = problem(x)) ctx.fail(v, what + " = " + number_text(x) + ": " + *p);
  return x;
}

double positive(const YAML::Node& v, const Context& ctx, const std::string& what) {
  return number_in(v, ctx, what, positive_problem);
}

/// A number and the node it was read from (for messages about it later).
struct Read {
  double value;
  YAML::Node node;
};

/// A number or a non-empty list of numbers in a domain, as a list.
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

/// A name, or a non-empty list of distinct names (`list_only`: a list).
std::vector<std::string> names(const YAML::Node& v, const Context& ctx, const std::string& key,
                               bool list_only = false) {
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

nlohmann::json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      auto a = nlohmann::json::array();
      for (const auto& e : node) a.push_back(to_json(e));
      return a;
    }
    case YAML::NodeType::Map: {
      auto o = nlohmann::json::object();
      for (const auto& kv : node) o[kv.first.Scalar()] = to_json(kv.second);
      return o;
    }
    case YAML::NodeType::Scalar: {
      const auto& s = node.Scalar();
      try {
        std::size_t used = 0;
        const double d = std::stod(s, &used);
        if (used == s.size()) return d;
      } catch (const std::exception&) {
      }
      if (s == "true") return true;
      if (s == "false") return false;
      return s;
    }
    default:
      return nullptr;
  }
}

// ---- The text and the shape of the YAML, before any key is read ----

const std::set<std::string> kTopLevelKeys = {
    "name",        "kind",        "title",   "description", "methods",
    "experiments", "every_model", "figures", "max_steps",   "max_output",
    "window_search", "known_deviations"};

/// Refuses what yaml-cpp accepts but a spec must not hold: more nodes or deeper nesting than
/// SpecLimits, an alias inside its own anchor, keys that are not text, duplicate keys, merge
/// keys, keys and list entries without a value, and a quoted scalar whose closing quote is
/// missing (yaml-cpp 0.7 reads `name: "abc` up to the end of the file).
class ShapeCheck {
 public:
  explicit ShapeCheck(const Source& source) : source_(source) {}

  /// The keys of the top-level map, first: an unknown one is named before the size of what
  /// aliases under it expand to is counted.
  void check_keys(const YAML::Node& map, const std::set<std::string>& known) const {
    for (const auto& kv : map) {
      if (!kv.first.IsScalar() || (kv.first.Scalar() == "<<" && kv.first.Tag() == "?"))
        return;  // check() names it
      check_scalar(kv.first);
      if (!known.contains(kv.first.Scalar())) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        fail(kv.first,
             "unknown key " + quote(kv.first.Scalar()) + " (expected one of: " + list + ")");
      }
    }
  }

  /// Checks `node` and everything under it; `path` names it (experiments[0].runs[1].h).
  void check(const YAML::Node& node, const std::string& path, int depth) {
    if (++nodes_ > SpecLimits::kNodes)
      fail(node, "more than " + std::to_string(SpecLimits::kNodes) +
                     " YAML nodes, the limit for a spec (an alias counts at every use)");
    if (depth > SpecLimits::kDepth)
      fail(node, "nested deeper than " + std::to_string(SpecLimits::kDepth) +
                     " levels, the limit for a spec");
    if (node.IsScalar()) return check_scalar(node);
    if (!node.IsSequence() && !node.IsMap()) return;
    for (const auto& outer : path_)
      if (outer.is(node)) fail(node, "an alias refers to a list or map that contains it (&a [*a])");
    path_.push_back(node);
    const std::string where = path.empty() ? "" : path + ": ";
    if (node.IsSequence()) {
      for (std::size_t i = 0; i < node.size(); ++i) {
        const YAML::Node e = node[i];
        const std::string entry =
            (path.empty() ? "the spec" : path) + "[" + std::to_string(i) + "]";
        if (e.IsNull())
          fail_at(empty_entry_place(e.Mark().is_null() ? node : e), entry + " has no value");
        check(e, entry, depth + 1);
      }
    } else {
      std::map<std::string, std::size_t> seen;  // key -> its line
      for (const auto& kv : node) {
        const YAML::Node& key = kv.first;
        if (++nodes_ > SpecLimits::kNodes)
          fail(key, "more than " + std::to_string(SpecLimits::kNodes) +
                        " YAML nodes, the limit for a spec");
        if (!key.IsScalar())
          fail(key.Mark().is_null() ? node : key,
               where + "a key must be text, got " +
                   (key.IsNull() ? std::string("an empty key") : describe(key)));
        check_scalar(key);
        const std::string& name = key.Scalar();
        if (name == "<<" && key.Tag() == "?")
          fail(key, where + "merge keys ('<<') are not supported: write the keys out");
        const std::size_t line = source_.line(offset_of(key).value_or(0));
        if (const auto [it, fresh] = seen.emplace(name, line); !fresh)
          fail(key, where + "duplicate key " + quote(name) + " (first given on line " +
                        std::to_string(it->second) + ")");
        if (kv.second.IsNull()) fail(key, where + quote(name) + " has no value");
        check(kv.second, (path.empty() ? "" : path + ".") + one_line(name, 40), depth + 1);
      }
    }
    path_.pop_back();
  }

 private:
  [[noreturn]] void fail(const YAML::Node& node, const std::string& what) const {
    fail_at(offset_of(node).value_or(0), what);
  }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& what) const {
    throw InputError(source_.place(pos) + ": " + one_line(what));
  }

  /// Where an empty list entry is: yaml-cpp places `- ` with nothing after it at the next
  /// token; the dash is where it is.
  std::size_t empty_entry_place(const YAML::Node& entry) const {
    const std::string_view t = source_.text();
    std::size_t p = offset_of(entry).value_or(0);
    std::size_t q = std::min(p, t.size());
    while (q > 0 && (t[q - 1] == ' ' || t[q - 1] == '\t' || t[q - 1] == '\r' || t[q - 1] == '\n'))
      --q;
    return q > 0 && t[q - 1] == '-' ? q - 1 : p;
  }

  /// A scalar: closed if quoted, and UTF-8 once its escapes are read.
  void check_scalar(const YAML::Node& scalar) const {
    check_closed(scalar);
    if (!spec_text::is_utf8(scalar.Scalar()))
      fail(scalar,
           "this text is not UTF-8 once its escapes are read (yaml-cpp 0.7 reads \\N and \\_ "
           "as single bytes): write the character itself");
  }

  /// A quoted scalar must end with its quote before the end of the text.
  void check_closed(const YAML::Node& scalar) const {
    const auto start = offset_of(scalar);
    if (!start) return;
    const std::string_view t = source_.text();
    std::size_t p = *start;
    while (p < t.size() && (t[p] == '&' || t[p] == '!')) {  // an anchor or a tag before it
      while (p < t.size() && t[p] != ' ' && t[p] != '\t' && t[p] != '\n' && t[p] != '\r') ++p;
      while (p < t.size() && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n' || t[p] == '\r')) ++p;
    }
    if (p >= t.size() || (t[p] != '"' && t[p] != '\'')) return;
    const char quote = t[p];
    for (std::size_t q = p + 1; q < t.size(); ++q) {
      if (quote == '"' && t[q] == '\\') {
        ++q;
      } else if (t[q] == quote) {
        if (quote == '\'' && q + 1 < t.size() && t[q + 1] == '\'') {
          ++q;
        } else {
          return;
        }
      }
    }
    fail_at(p, std::string("the quote ") + (quote == '"' ? "(\")" : "(')") +
                   " opening this text is never closed");
  }

  const Source& source_;
  std::size_t nodes_ = 0;
  std::vector<YAML::Node> path_;
};

/// The start of each document yaml-cpp's parser reads; nothing else is kept.
class DocumentStarts : public YAML::EventHandler {
 public:
  std::vector<YAML::Mark> starts;
  void OnDocumentStart(const YAML::Mark& mark) override { starts.push_back(mark); }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

// ---- Methods the spec defines by their coefficients (`methods:`, studies/user_method.hpp) ----

/// A coefficient: a number, or a fraction p/q of two numbers (YAML reads 1/6 as text).
double coefficient(const YAML::Node& v, const Context& ctx, const std::string& what) {
  if (!v.IsScalar()) ctx.fail(v, what + " must be a number or a fraction p/q, got " + describe(v));
  const auto& s = v.Scalar();
  const auto slash = s.find('/');
  if (slash == std::string::npos) return number(v, ctx, what);
  const auto part = [&](std::string t) {
    t.erase(0, t.find_first_not_of(' '));
    t.erase(t.find_last_not_of(' ') + 1);
    bool out_of_range = false;
    const auto d = read_number(t, out_of_range);
    if (!d || !std::isfinite(*d))
      ctx.fail(v, what + " must be a number or a fraction p/q, got " + quote(s));
    return *d;
  };
  const double numerator = part(s.substr(0, slash)), denominator = part(s.substr(slash + 1));
  if (denominator == 0.0) ctx.fail(v, what + " divides by zero: " + quote(s));
  const double value = numerator / denominator;
  if (!std::isfinite(value))
    ctx.fail(v, what + " = " + quote(s) + " is beyond the range of double");
  return value;
}

std::vector<double> coefficients(const YAML::Node& v, const Context& ctx, const std::string& what) {
  if (!v.IsSequence()) ctx.fail(v, what + " must be a list of numbers, got " + describe(v));
  if (v.size() == 0) ctx.fail(v, what + " is an empty list");
  std::vector<double> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(coefficient(v[i], ctx, what + " entry " + std::to_string(i + 1)));
  return out;
}

std::vector<std::vector<double>> coefficient_rows(const YAML::Node& v, const Context& ctx,
                                                  const std::string& what) {
  if (!v.IsSequence()) ctx.fail(v, what + " must be a list of rows, got " + describe(v));
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out.push_back(coefficients(v[i], ctx, what + " row " + std::to_string(i + 1)));
  return out;
}

/// A point of a commutator-free scheme: {base: r, exponentials: [[...], ...]}, r counted from 1;
/// without base it starts from y_n, without exponentials it is its base.
CfPoint<kDynamicStages> cf_point(const YAML::Node& node, const Context& ctx) {
  CfPoint<kDynamicStages> p;
  require_map(node, ctx, "a stage or the update is a map {base: r, exponentials: [[...]]}");
  reject_unknown_keys(node, ctx, {"base", "exponentials"});
  if (const YAML::Node base = get(node, "base"); base.IsDefined())
    p.base = whole_number(base, ctx, "'base' (a stage, counted from 1)", 1, 1000000) - 1;
  if (const YAML::Node e = get(node, "exponentials"); e.IsDefined())
    p.alpha = coefficient_rows(e, ctx, "'exponentials'");
  p.exponentials = p.alpha.size();
  return p;
}

// ---- The study ----

const std::set<std::string> kPlots = {
    "energy",          "unit_length", "tangency", "momentum",           "casimir",
    "manifold_defect", "convergence", "steps",    "kinetic_energy_map", "work_precision",
    "curves",          "outputs",     "formation"};
const std::set<std::string> kPublishedMetrics = {"energy_err_mean", "unit_length_err_mean",
                                                 "energy_rel_err_max"};
const std::set<std::string> kFigureMetrics = {"global_err",       "energy_err_max",
                                              "energy_err_mean",  "energy_drift_per_time",
                                              "momentum_err_max", "manifold_err_max",
                                              "tangency_err_max", "steps",
                                              "f_evals",          "cpu_s"};

/// `formation_times`, the times of a `formation` plot: 1 to kMaxFormationTimes increasing
/// times in [0, T] (each a panel's worth of markers: more would be unreadable).
constexpr std::size_t kMaxFormationTimes = 12;
std::vector<double> formation_times(const YAML::Node& v, const Context& ctx, double T) {
  if (!v.IsSequence() || v.size() == 0 || v.size() > kMaxFormationTimes)
    ctx.fail(v, "'formation_times' must be a list of 1 to " + std::to_string(kMaxFormationTimes) +
                    " times, got " + (v.IsSequence() ? std::to_string(v.size()) + " entries" : describe(v)));
  std::vector<double> times;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::string what = "'formation_times' entry " + std::to_string(i + 1);
    const double t = number(v[i], ctx, what);
    if (t < 0.0 || t > T || (!times.empty() && t <= times.back()))
      ctx.fail(v[i], what + " = " + number_text(t) + ": formation times must increase within [0, T = " +
                         number_text(T) + "]");
    times.push_back(t);
  }
  return times;
}

/// What the case runner would refuse of an experiment's model and initial state before it
/// integrates (an unknown block, a block of the wrong size, a state off the manifold without
/// project_initial), found by the runner's own code; whether the model has bodies on S^2
/// to take snapshots of; and its state layout and invariants with the case's parameters.
struct ModelCheck {
  std::optional<std::string> initial_problem;
  bool has_bodies = false;
  StateLayout layout;
  std::vector<Invariant> invariants;
};
ModelCheck check_model_case(const CaseSpec& c) {
  ModelCheck out;
  const ModelEntry& model = find_model(c.model);
  out.has_bodies = model.has_bodies;
  try {
    std::tie(out.layout, out.invariants) = model.check_initial_state(c);
  } catch (const InputError& e) {
    out.initial_problem = e.what();
  } catch (const std::bad_alloc&) {
    out.initial_problem = c.model + " with these parameters does not fit in memory";
  } catch (const std::length_error&) {
    out.initial_problem = c.model + " with these parameters does not fit in memory";
  }
  return out;
}

/// The settings of a case, as a message names it.
std::string setting_text(const CaseSpec& c) {
  if (c.same_steps_as)
    return "same_steps_as " + c.same_steps_as->integrator +
           " at rtol = " + number_text(c.same_steps_as->rtol) +
           ", atol = " + number_text(c.same_steps_as->atol);
  if (!std::isnan(c.h)) return "h = " + number_text(c.h);
  return "rtol = " + number_text(c.rtol) + ", atol = " + number_text(c.atol);
}

class SpecReader {
 public:
  SpecReader(const Source& source, StudySpec& spec) : source_(source), spec_(spec) {}

  void read(const YAML::Node& root) {
    const Context ctx(source_);
    require_map(root, ctx, "a study spec is a map with name, title and experiments");
    reject_unknown_keys(root, ctx, kTopLevelKeys);
    spec_.name = name_text(root, ctx, "name");
    spec_.title = text(root, ctx, "title", false);
    spec_.description = text(root, ctx, "description", false);
    spec_.kind = text(root, ctx, "kind", false);
    if (spec_.kind.empty()) spec_.kind = "study";
    if (spec_.kind != "study" && spec_.kind != "matrix")
      ctx.fail(get(root, "kind"), "'kind' is 'study' or 'matrix', got " + quote(spec_.kind));
    read_limits(root, ctx);
    read_methods(get(root, "methods"), ctx);

    const YAML::Node experiments = get(root, "experiments");
    if (const YAML::Node every = get(root, "every_model"); every.IsDefined()) {
      if (experiments.IsDefined())
        ctx.fail(key_node(root, "experiments"), "give 'experiments' or 'every_model', not both");
      require_map(every, ctx,
                  "'every_model' must be a map (an experiment without name, model, preset, T)");
      const Context mc = ctx.at("every_model", every);
      for (const auto& m : model_catalogue())
        add_experiment(read_experiment(every, mc, "", &m), every, ctx);
    } else {
      if (!experiments.IsDefined()) ctx.fail(root, "missing 'experiments' (or 'every_model')");
      if (!experiments.IsSequence())
        ctx.fail(experiments,
                 "'experiments' must be a list of experiments, got " + describe(experiments));
      if (experiments.size() == 0)
        ctx.fail(experiments, "'experiments' is an empty list: give at least one");
      for (std::size_t k = 0; k < experiments.size(); ++k) {
        const YAML::Node e = experiments[k];
        const Context ec = ctx.at("experiments[" + std::to_string(k) + "]", e);
        require_map(e, ec, "an experiment must be a map with name, model, preset, T and runs");
        std::vector<std::string> presets{""};
        if (const YAML::Node p = get(e, "presets"); p.IsDefined()) {
          if (has(e, "preset"))
            ec.fail(key_node(e, "presets"), "give 'preset' or 'presets', not both");
          presets = names(p, ec, "presets", true);
        }
        for (const auto& preset : presets)
          add_experiment(read_experiment(e, ec, preset, nullptr), e, ec);
      }
    }
    read_figures(get(root, "figures"), ctx);
    if (const YAML::Node v = get(root, "window_search"); v.IsDefined())
      spec_.window_search = whole_number(v, ctx, "'window_search'", 0, StudySpec::kMaxWindowSearch);
    read_known_deviations(get(root, "known_deviations"), ctx);
    if (spec_.kind == "matrix")  // the matrix leaves no model out
      for (const auto& m : model_catalogue())
        if (std::none_of(spec_.experiments.begin(), spec_.experiments.end(),
                         [&](const ExperimentSpec& ex) { return ex.model == m.name; }))
          ctx.fail(key_node(root, "kind"),
                   "the matrix has no experiment for model " + std::string(m.name));
  }

 private:
  void read_limits(const YAML::Node& root, const Context& ctx) {
    if (const YAML::Node v = get(root, "max_steps"); v.IsDefined()) {
      const double cap = number(v, ctx, "'max_steps'");
      if (const auto p = step_cap_problem(cap))
        ctx.fail(v, "'max_steps' = " + number_text(cap) + ": " + *p);
      spec_.limits.max_steps = cap;
    }
    if (const YAML::Node v = get(root, "max_output"); v.IsDefined()) {
      const auto bytes = v.IsScalar() ? parse_byte_size(v.Scalar()) : std::nullopt;
      if (!bytes)
        ctx.fail(v,
                 "'max_output' must be a size in bytes, a whole number or one with K, M, G or T "
                 "(powers of 1024) like '2 GiB', got " +
                     describe(v));
      spec_.limits.max_output_bytes = *bytes;
    }
  }

  void add_experiment(ExperimentSpec ex, const YAML::Node& node, const Context& ctx) {
    if (spec_.experiments.size() == SpecLimits::kExperiments)
      ctx.fail(node, "more than " + std::to_string(SpecLimits::kExperiments) +
                         " experiments, the limit for a spec");
    for (const auto& other : spec_.experiments)
      if (other.name == ex.name)
        ctx.fail(key_node(node, "name"), "two experiments are named " + quote(ex.name));
    spec_.experiments.push_back(std::move(ex));
  }

  // -- methods --

  void read_methods(const YAML::Node& list, const Context& ctx) {
    if (!list.IsDefined()) return;
    if (!list.IsSequence())
      ctx.fail(list, "'methods' must be a list of methods, got " + describe(list));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const Context mc = ctx.at("methods[" + std::to_string(k) + "]", list[k]);
      auto m = read_method(list[k], mc);
      if (!methods_by_name_.emplace(m->name(), m).second)
        mc.fail(list[k], "two methods are named " + quote(m->name()));
      spec_.methods.push_back(std::move(m));
    }
  }

  /// One entry of `methods:`, checked: its coefficients satisfy the order conditions up to its
  /// declared order (integrators/order_conditions.hpp; for commutator-free methods, consistency
  /// and the conditions of the classical method they are on a commutative group).
  std::shared_ptr<const UserMethod> read_method(const YAML::Node& node, const Context& ctx) {
    require_map(node, ctx, "a method is a map with name, kind, order and its coefficients");
    const std::string name = text(node, ctx, "name");
    if (name.empty() || name.size() > 100 || !std::all_of(name.begin(), name.end(), [](char ch) {
          return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
        }))
      ctx.fail(get(node, "name"),
               "a method's name is letters, digits and '_' (at most 100), got " + quote(name));
    const Context mc = ctx.at("method " + quote(name));
    if (find_integrator_declaration(name))
      mc.fail(get(node, "name"),
              quote(name) + " is the name of a built-in integrator: choose another");
    const std::string kind = text(node, mc, "kind");
    std::set<std::string> keys = {"name", "kind", "order", "description", "symmetric", "c"};
    if (kind == "runge_kutta" || kind == "rkmk") {
      keys.insert({"a", "b"});
      if (kind == "runge_kutta") keys.insert("reproject");
    } else if (kind == "commutator_free") {
      keys.insert({"stages", "update"});
    } else {
      mc.fail(get(node, "kind"),
              "unknown kind " + quote(kind) + " (known: runge_kutta, rkmk, commutator_free)");
    }
    reject_unknown_keys(node, mc, keys);
    for (const auto& key : keys)
      if (key != "description" && key != "symmetric" && key != "reproject" && key != "c" &&
          !has(node, key))
        mc.fail(node, "missing " + key_text(key));
    const int order = whole_number(get(node, "order"), mc, "'order'", 1, kMaxCheckedOrder);
    const bool symmetric =
        has(node, "symmetric") && flag(get(node, "symmetric"), mc, "'symmetric'");
    std::string description = text(node, mc, "description", false);
    if (description.empty())
      description =
          kind + " method of order " + std::to_string(order) + " given by its coefficients";
    std::vector<double> nodes;
    if (has(node, "c")) nodes = coefficients(get(node, "c"), mc, "'c'");

    Declaration d{
        .family = Family::LieGroup, .order = order, .symmetric = symmetric, .stays_on_manifold = true};
    UserMethodCoefficients method;
    if (kind == "commutator_free") {
      RuntimeCfMethod cf{d, {}};
      const YAML::Node stages = get(node, "stages");
      if (!stages.IsSequence())
        mc.fail(stages, "'stages' must be a list of stages, got " + describe(stages));
      if (stages.size() == 0)
        mc.fail(stages, "'stages' is an empty list: a method has at least one stage");
      for (std::size_t r = 0; r < stages.size(); ++r)
        cf.scheme.stages.push_back(
            cf_point(stages[r], mc.at("stage " + std::to_string(r + 1), stages[r])));
      cf.scheme.update = cf_point(get(node, "update"), mc.at("'update'", get(node, "update")));
      if (const auto defect = commutator_free_defect(cf.scheme, nodes, order))
        mc.fail(node, defect->what);
      method = std::move(cf);
    } else {
      ButcherTableau<kDynamicStages> tab;
      tab.a = coefficient_rows(get(node, "a"), mc, "'a'");
      if (tab.a.empty())
        mc.fail(get(node, "a"), "'a' is an empty list: a method has at least one stage");
      tab.b = coefficients(get(node, "b"), mc, "'b'");
      if (has(node, "c")) {
        tab.c = nodes;
      } else {  // the row sums of a
        for (const auto& row : tab.a) tab.c.push_back(std::accumulate(row.begin(), row.end(), 0.0));
      }
      if (const auto defect = tableau_defect(tab, order)) mc.fail(node, defect->what);
      if (kind == "rkmk") {
        method = RuntimeRkmkMethod{d, std::move(tab)};
      } else {
        const bool reproject =
            has(node, "reproject") && flag(get(node, "reproject"), mc, "'reproject'");
        d.family = Family::Classical;
        d.stays_on_manifold = reproject;
        method = RuntimeRkMethod{d, std::move(tab), reproject};
      }
    }
    return std::make_shared<const UserMethod>(name, description, std::move(method));
  }

  /// The spec's method of that name, else null (a built-in integrator's name).
  std::shared_ptr<const UserMethod> user_method(const std::string& name) const {
    const auto it = methods_by_name_.find(name);
    return it == methods_by_name_.end() ? nullptr : it->second;
  }

  const Declaration& declaration_of(const std::string& name, const YAML::Node& node,
                                    const Context& ctx) const {
    if (const auto m = user_method(name)) return m->declaration();
    if (const Declaration* d = find_integrator_declaration(name)) return *d;
    std::string known;
    for (const auto& d : integrator_declarations())
      known += (known.empty() ? "" : ", ") + std::string(d.name);
    for (std::size_t i = 0; i < spec_.methods.size() && i < 20; ++i)
      known += ", " + spec_.methods[i]->name();
    if (spec_.methods.size() > 20)
      known += " and " + std::to_string(spec_.methods.size() - 20) + " more of the spec's";
    ctx.fail(node, "unknown integrator " + quote(name) + " (known: " + known + ")");
  }

  // -- cases --

  /// Adds a case to the experiment; a fixed-step case's steps T / h are checked against
  /// max_steps first, and a case given twice is refused.
  void add_case(ExperimentSpec& ex, CaseSpec c, const YAML::Node& node, const Context& ctx) {
    if (!std::isnan(c.h)) {
      if (c.h > c.T)
        ctx.fail(node, c.integrator + ": h = " + number_text(c.h) +
                           " is longer than T = " + number_text(c.T));
      if (const auto p = step_count_problem(c.T, c.h, spec_.limits.max_steps))
        ctx.fail(node, c.integrator + ": " + *p);
    }
    if (!case_settings_.insert(c.integrator + " at " + setting_text(c)).second)
      ctx.fail(node,
               c.integrator + " at " + setting_text(c) + " is given twice in this experiment");
    c.max_steps = spec_.limits.max_steps;  // an adaptive run stops there
    if (++cases_ > SpecLimits::kCases)
      ctx.fail(node,
               "more than " + std::to_string(SpecLimits::kCases) + " cases, the limit for a spec");
    run_settings_.insert(run_key(c.integrator, c.h, c.rtol, c.atol));
    ex.cases.push_back(std::move(c));
  }

  /// A case's integrator and the h, rtol and atol it runs at (NaN where none), as a key.
  static std::string run_key(const std::string& integrator, double h, double rtol, double atol) {
    return integrator + " " + number_text(h) + " " + number_text(rtol) + " " + number_text(atol);
  }
  bool has_run(const std::string& integrator, double h, double rtol, double atol) const {
    return run_settings_.contains(run_key(integrator, h, rtol, atol));
  }

  /// The rtol and atol lists of a run: atol one number, as many as rtol, or none (rtol * 1e-3).
  std::vector<std::pair<double, double>> tolerances(const YAML::Node& run,
                                                    const Context& ctx) const {
    std::vector<Read> rtols, atols;
    if (has(run, "rtol")) rtols = number_list(get(run, "rtol"), ctx, "rtol", rtol_problem);
    if (has(run, "atol")) atols = number_list(get(run, "atol"), ctx, "atol", atol_problem);
    if (rtols.empty() && !atols.empty()) ctx.fail(key_node(run, "atol"), "'atol' without 'rtol'");
    if (atols.size() > 1 && atols.size() != rtols.size())
      ctx.fail(get(run, "atol"), "'atol' must be one number or a list as long as 'rtol' (" +
                                     std::to_string(rtols.size()) + "), got " +
                                     std::to_string(atols.size()));
    std::vector<std::pair<double, double>> out;
    for (std::size_t i = 0; i < rtols.size(); ++i)
      out.emplace_back(rtols[i].value, atols.empty()       ? rtols[i].value * 1e-3
                                       : atols.size() == 1 ? atols[0].value
                                                           : atols[i].value);
    return out;
  }

  void read_runs(const YAML::Node& runs, const Context& ctx, ExperimentSpec& ex,
                 const CaseSpec& base) {
    if (!runs.IsSequence()) ctx.fail(runs, "'runs' must be a list of runs, got " + describe(runs));
    if (runs.size() == 0) ctx.fail(runs, "'runs' is an empty list: give at least one run");
    for (std::size_t k = 0; k < runs.size(); ++k) {
      const YAML::Node run = runs[k];
      const Context rc = ctx.at("runs[" + std::to_string(k) + "]", run);
      require_map(run, rc, "a run must be a map {integrators, h | rtol, atol | same_steps_as}");
      reject_unknown_keys(run, rc, {"integrators", "h", "rtol", "atol", "same_steps_as"});
      if (!has(run, "integrators")) rc.fail(run, "missing 'integrators'");
      const YAML::Node list = get(run, "integrators");
      const auto integrators = names(list, rc, "integrators");
      const auto node_of = [&](std::size_t i) { return list.IsSequence() ? list[i] : list; };
      if (const YAML::Node source = get(run, "same_steps_as"); source.IsDefined()) {
        require_map(source, rc, "'same_steps_as' must be a map {integrator, rtol, atol}");
        const Context sc = rc.at("same_steps_as", source);
        reject_unknown_keys(source, sc, {"integrator", "rtol", "atol"});
        CaseSpec::StepsOf of{text(source, sc, "integrator"), 1e-3, 1e-6};
        if (has(source, "rtol"))
          of.rtol = number_in(get(source, "rtol"), sc, "'rtol'", rtol_problem);
        if (has(source, "atol"))
          of.atol = number_in(get(source, "atol"), sc, "'atol'", atol_problem);
        for (const char* key : {"h", "rtol", "atol"})
          if (has(run, key))
            rc.fail(key_node(run, key),
                    std::string("give either h/rtol/atol or same_steps_as, not '") + key + "'");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        if (!has_run(of.integrator, nan, of.rtol, of.atol))
          sc.fail(source, "no earlier run of this experiment is " + quote(of.integrator) +
                              " at rtol = " + number_text(of.rtol) +
                              ", atol = " + number_text(of.atol));
        for (std::size_t i = 0; i < integrators.size(); ++i) {
          const auto& name = integrators[i];
          if (declaration_of(name, node_of(i), rc).adaptive)
            rc.fail(node_of(i), name + " is adaptive: same_steps_as is for fixed-step methods");
          CaseSpec c = base;
          c.integrator = name;
          c.user_method = user_method(name);
          c.same_steps_as = of;
          add_case(ex, std::move(c), node_of(i), rc);
        }
        continue;
      }
      std::vector<Read> hs;
      if (has(run, "h")) hs = number_list(get(run, "h"), rc, "h", positive_problem);
      const auto tols = tolerances(run, rc);
      for (std::size_t i = 0; i < integrators.size(); ++i) {
        const auto& name = integrators[i];
        const Declaration& d = declaration_of(name, node_of(i), rc);
        CaseSpec c = base;
        c.integrator = name;
        c.user_method = user_method(name);
        if (d.adaptive) {
          if (!hs.empty())
            rc.fail(key_node(run, "h"), name + " is adaptive: give rtol/atol, not h");
          if (tols.empty()) {  // MATLAB ode45's defaults
            c.rtol = 1e-3;
            c.atol = 1e-6;
            add_case(ex, c, node_of(i), rc);
          }
          for (const auto& [rtol, atol] : tols) {
            c.rtol = rtol;
            c.atol = atol;
            add_case(ex, c, node_of(i), rc);
          }
        } else {
          if (hs.empty()) rc.fail(node_of(i), name + " is a fixed-step method: give h");
          if (!tols.empty())
            rc.fail(key_node(run, has(run, "rtol") ? "rtol" : "atol"),
                    name + " is a fixed-step method: rtol/atol do not apply");
          for (const auto& h : hs) {
            c.h = h.value;
            add_case(ex, c, h.node, rc);
          }
        }
      }
    }
  }

  /// `all_integrators`: every catalogued integrator and every method of the spec, fixed-step
  /// ones at h (at h_high_order from order 5 up, if given), adaptive ones at the tolerances.
  /// Under `every_model`, the steps are factors of the model's Exercise h (`exercise_h`).
  void read_all_integrators(const YAML::Node& all, const Context& ac, ExperimentSpec& ex,
                            const CaseSpec& base, std::optional<double> exercise_h) {
    const std::string h_key = exercise_h ? "h_factors" : "h",
                      high_key = exercise_h ? "h_high_order_factors" : "h_high_order";
    reject_unknown_keys(all, ac, {h_key, high_key, "rtol", "atol"});
    if (!has(all, h_key) || !has(all, "rtol"))
      ac.fail(all, "needs " + h_key + " (for fixed-step methods) and rtol (for adaptive ones)");
    const auto steps = [&](const std::string& key) {
      std::vector<Read> hs = number_list(get(all, key), ac, key, positive_problem);
      if (exercise_h)
        for (auto& h : hs) {
          h.value *= *exercise_h;
          if (!(h.value > 0.0 && std::isfinite(h.value)))
            ac.fail(h.node, key_text(key) +
                                " entry times the Exercise's h = " + number_text(*exercise_h) +
                                " is not a positive finite step: " + number_text(h.value));
        }
      return hs;
    };
    const std::vector<Read> fixed = steps(h_key);
    const std::vector<Read> high = has(all, high_key) ? steps(high_key) : fixed;
    const auto tols = tolerances(all, ac);
    std::vector<Declaration> declarations = integrator_declarations();
    for (const auto& m : spec_.methods) declarations.push_back(m->declaration());  // the spec's own
    for (const auto& d : declarations) {
      CaseSpec c = base;
      c.integrator = std::string(d.name);
      c.user_method = user_method(c.integrator);
      if (d.adaptive) {
        for (const auto& [rtol, atol] : tols) {
          c.rtol = rtol;
          c.atol = atol;
          add_case(ex, c, get(all, "rtol"), ac);
        }
      } else {
        for (const auto& h : d.order >= 5 ? high : fixed) {
          c.h = h.value;
          add_case(ex, c, h.node, ac);
        }
      }
    }
  }

  // -- experiments --

  /// One experiment: `node` with `preset` for its preset if not empty (from `presets:`), or,
  /// for `every_model`, the experiment of `exercise_of`'s model at its Exercise.
  ExperimentSpec read_experiment(const YAML::Node& node, const Context& outer,
                                 const std::string& preset_override,
                                 const ModelEntry* exercise_of) {
    static const std::set<std::string> keys = {
        "name",    "title",           "description", "model",     "preset", "presets", "parameters",
        "initial", "project_initial", "T",           "reference", "plots",  "series",  "snapshots",
        "runs",    "all_integrators", "published", "evoke", "formation_times", "claims"};
    case_settings_.clear();
    run_settings_.clear();
    ExperimentSpec ex;
    const ModelEntry* model = exercise_of;
    if (exercise_of) {
      for (const char* key : {"name", "model", "preset", "presets", "T", "runs"})
        if (has(node, key))
          outer.fail(key_node(node, key),
                     std::string("'") + key + "' comes from each model's Exercise");
      ex.base_name = ex.name = ex.model = std::string(model->name);
      ex.preset = std::string(model->exercise.preset);
      ex.T = model->exercise.T;
    } else {
      ex.base_name = name_text(node, outer, "name");
      ex.name = preset_override.empty() ? ex.base_name : ex.base_name + "-" + preset_override;
    }
    const Context ec = outer.at("experiment " + quote(ex.name), node);
    if (exercise_of) {
      std::set<std::string> pattern_keys = keys;
      for (const char* key : {"name", "model", "preset", "presets", "T", "runs"})
        pattern_keys.erase(key);
      reject_unknown_keys(node, ec, pattern_keys);
    } else {
      reject_unknown_keys(node, ec, keys);
    }
    ex.title = text(node, ec, "title", false);
    if (!preset_override.empty()) {
      if (!ex.title.empty()) ex.title += ' ';
      ex.title.append("(").append(preset_override).append(")");
    }
    ex.description = text(node, ec, "description", false);
    if (!exercise_of) {
      ex.model = text(node, ec, "model");
      model = &find_model_at(get(node, "model"), ec, ex.model);
      ex.preset = preset_override.empty() ? text(node, ec, "preset") : preset_override;
      const auto presets = model->presets();
      if (std::none_of(presets.begin(), presets.end(),
                       [&](const auto& p) { return p.first == ex.preset; })) {
        std::string known;
        for (const auto& p : presets) known += (known.empty() ? "" : ", ") + p.first;
        YAML::Node at = preset_override.empty() ? get(node, "preset") : get(node, "presets");
        for (std::size_t i = 0; at.IsSequence() && i < at.size(); ++i)
          if (at[i].Scalar() == preset_override) at.reset(at[i]);
        ec.fail(at, "model " + ex.model + " has no preset " + quote(ex.preset) +
                        " (known: " + known + ")");
      }
    }
    const YAML::Node params = get(node, "parameters");
    if (params.IsDefined()) {
      require_map(params, ec, "'parameters' must be a map name: value");
      // Setting each value on the defaults checks it against its parameter's domain now, at load
      // time, rather than when the case runs.
      ParameterSet checked = model->default_parameters();
      for (const auto& kv : params) {
        const std::string& name = kv.first.Scalar();
        if (!checked.contains(name)) {
          std::string known;
          for (const auto& p : checked.list()) known += (known.empty() ? "" : ", ") + p.name;
          ec.fail(kv.first, "model " + ex.model + " has no parameter " + quote(name) +
                                " (known: " + known + ")");
        }
        const double value = number(kv.second, ec, "parameter " + name, false);
        try {
          checked.set(name, value);
        } catch (const InputError& e) {
          ec.fail(kv.second, ex.model + ": " + e.what());
        }
        ex.parameters[name] = value;
      }
    }
    const YAML::Node initial = get(node, "initial");
    if (initial.IsDefined()) {
      require_map(initial, ec, "'initial' must be a map of state blocks like q1: [x, y, z]");
      for (const auto& kv : initial) {
        const std::string& name = kv.first.Scalar();
        if (name.empty() || name.size() > 32 || !std::all_of(name.begin(), name.end(), [](char ch) {
              return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
            }))
          ec.fail(kv.first, "'initial' names state blocks like q1 or Pi, got " + quote(name));
        if (!kv.second.IsSequence())
          ec.fail(kv.second, "initial " + name + " must be a list of numbers like [x, y, z], got " +
                                 describe(kv.second));
        if (kv.second.size() == 0) ec.fail(kv.second, "initial " + name + " is an empty list");
        Eigen::VectorXd v(static_cast<Eigen::Index>(kv.second.size()));
        for (std::size_t i = 0; i < kv.second.size(); ++i)
          v(static_cast<Eigen::Index>(i)) =
              number(kv.second[i], ec, "initial " + name + " entry " + std::to_string(i + 1));
        ex.initial.emplace_back(name, v);
      }
    }
    if (has(node, "project_initial"))
      ex.project_initial = flag(get(node, "project_initial"), ec, "'project_initial'");
    if (!exercise_of) {
      if (!has(node, "T")) ec.fail(node, "missing 'T'");
      ex.T = positive(get(node, "T"), ec, "'T'");
    }
    if (const YAML::Node ref = get(node, "reference"); ref.IsDefined()) {
      ex.reference = read_reference(ref, ec, *model);
      if (!ex.reference->model.empty()) check_other_formulation(ref, ec, ex);
    }
    if (const YAML::Node plots = get(node, "plots"); plots.IsDefined()) {
      ex.plots = names(plots, ec, "plots", true);
      for (std::size_t i = 0; i < ex.plots.size(); ++i)
        if (!kPlots.contains(ex.plots[i])) {
          std::string known;
          for (const auto& p : kPlots) known += (known.empty() ? "" : ", ") + p;
          ec.fail(plots[i], "unknown plot " + quote(ex.plots[i]) + " (known: " + known + ")");
        }
    }
    if (has(node, "series")) ex.series = flag(get(node, "series"), ec, "'series'");
    const YAML::Node snapshots = get(node, "snapshots");
    if (snapshots.IsDefined()) {
      if (!snapshots.IsSequence())
        ec.fail(snapshots, "'snapshots' must be a list of times, got " + describe(snapshots));
      for (std::size_t i = 0; i < snapshots.size(); ++i) {
        const double t = number(snapshots[i], ec, "'snapshots' entry " + std::to_string(i + 1));
        if (t < 0.0 || t > ex.T || (!ex.snapshots.empty() && t <= ex.snapshots.back()))
          ec.fail(snapshots[i],
                  "'snapshots' entry " + std::to_string(i + 1) + " = " + number_text(t) +
                      ": snapshot times must increase within [0, T = " + number_text(ex.T) + "]");
        ex.snapshots.push_back(t);
      }
    }

    const YAML::Node formation = get(node, "formation_times");
    if (formation.IsDefined()) {
      ex.formation_times = formation_times(formation, ec, ex.T);
      if (!ex.draws_formation())
        ec.fail(key_node(node, "formation_times"), "'formation_times' without the formation plot");
    } else if (ex.draws_formation()) {
      ec.fail(get(node, "plots"), "the formation plot needs 'formation_times'");
    }

    CaseSpec base;
    base.study = spec_.name;
    base.experiment = ex.name;
    base.model = ex.model;
    base.preset = ex.preset;
    base.parameters = ex.parameters;
    base.initial = ex.initial;
    base.project_initial = ex.project_initial;
    base.T = ex.T;
    const ModelCheck check = check_model_case(base);
    if (check.initial_problem)
      ec.fail(initial.IsDefined()  ? initial
              : params.IsDefined() ? params
                                   : node,
              *check.initial_problem);
    if (!ex.snapshots.empty() && !check.has_bodies)
      ec.fail(snapshots, "model " + ex.model + " has no bodies on S^2 to take snapshots of");
    if (ex.has_plot("curves") && model->curves == 0)
      ec.fail(get(node, "plots"), "model " + ex.model + " draws no curves (models/curves.hpp)");
    if (ex.draws_formation() && model->curve_links.empty())
      ec.fail(get(node, "plots"), "model " + ex.model + " draws no formation (models/formation.hpp)");
    if (ex.draws_outputs() && model->outputs == 0)
      ec.fail(get(node, "plots"), "model " + ex.model + " has no outputs (models/outputs.hpp)");
    if (const YAML::Node evoke = get(node, "evoke"); evoke.IsDefined())
      ex.evoke = read_evoke(evoke, ec.at("evoke", evoke), ex, check);

    if (const YAML::Node all = get(node, "all_integrators"); all.IsDefined()) {
      if (has(node, "runs"))
        ec.fail(key_node(node, "runs"), "give 'runs' or 'all_integrators', not both");
      require_map(
          all, ec,
          exercise_of
              ? "'all_integrators' must be a map {h_factors, h_high_order_factors, rtol, atol}"
              : "'all_integrators' must be a map {h, h_high_order, rtol, atol}");
      read_all_integrators(
          all, ec.at("all_integrators", all), ex, base,
          exercise_of ? std::optional<double>(exercise_of->exercise.h) : std::nullopt);
    } else if (exercise_of) {
      ec.fail(node, "needs all_integrators with h_factors and rtol");
    } else {
      if (!has(node, "runs")) ec.fail(node, "missing 'runs' (or 'all_integrators')");
      read_runs(get(node, "runs"), ec, ex, base);
    }
    if (ex.cases.empty()) ec.fail(node, "no case: the experiment runs nothing");
    if (ex.evoke) check_evoked_cases(ex, node, ec.at("evoke"));
    read_published(get(node, "published"), ec, ex);
    read_claims(get(node, "claims"), ec, ex);
    return ex;
  }

  /// `evoke: {xi: [min, max], count, best, lag: [min, max]}` of an experiment whose model
  /// (checked in `model`) has bodies and an S^1 symmetry about e3.
  static EvokeSpec read_evoke(const YAML::Node& v, const Context& ctx, const ExperimentSpec& ex,
                              const ModelCheck& model) {
    require_map(v, ctx, "'evoke' must be a map {xi: [min, max], count, best, lag: [min, max]}");
    reject_unknown_keys(v, ctx, {"xi", "count", "best", "lag"});
    EvokeSpec e;
    for (const char* key : {"xi", "count"})
      if (!has(v, key)) ctx.fail(v, "missing " + key_text(key));
    const auto [xi_min, xi_max] = rate_range(get(v, "xi"), ctx, "xi", "frame rates [rad/s]");
    e.scan.xi_min = xi_min;
    e.scan.xi_max = xi_max;
    e.scan.count = whole_number(get(v, "count"), ctx, "'count'", 2, 100000);
    if (has(v, "best")) e.scan.best = whole_number(get(v, "best"), ctx, "'best'", 1, 100);
    if (const YAML::Node lag = get(v, "lag"); lag.IsDefined()) {
      const auto [lo, hi] = rate_range(lag, ctx, "lag", "lags [s]");
      if (!(lo > 0.0)) ctx.fail(lag[0], "'lag' = " + number_text(lo) + ": must be a positive number");
      if (!(hi < ex.T))
        ctx.fail(lag[1], "'lag' = " + number_text(hi) + ": the longest lag must be shorter than T = " +
                             number_text(ex.T));
      e.scan.lag_min = lo;
      e.scan.lag_max = hi;
    }
    e.bodies = position_blocks(model.layout).size();
    if (e.bodies == 0)
      ctx.fail(v, "model " + ex.model + " has no position blocks q1, q2, ... (bodies on S^2 or in R^3)");
    if (!turns_about_e3(model.invariants))
      ctx.fail(v, "model " + ex.model + " with these parameters has no S^1 symmetry about e3 (no conserved "
                  "Lz or Jz): pattern evocation needs one");
    return e;
  }

  /// A list [low, high] of two finite numbers, low below high.
  static std::pair<double, double> rate_range(const YAML::Node& v, const Context& ctx, const std::string& key,
                                              const std::string& what) {
    if (!v.IsSequence() || v.size() != 2)
      ctx.fail(v, key_text(key) + " must be a list [min, max] of " + what + ", got " + describe(v));
    const double lo = number(v[0], ctx, key_text(key) + " entry 1"), hi = number(v[1], ctx, key_text(key) + " entry 2");
    if (!(lo < hi))
      ctx.fail(v, key_text(key) + " = [" + number_text(lo) + ", " + number_text(hi) + "]: the first must be below the second");
    return {lo, hi};
  }

  /// An evoked experiment needs a fixed-step case, and its lag range a whole sample spacing of
  /// each case whose step is known (the spacing is h, or a multiple when the positions are
  /// thinned, studies/evocation_positions.hpp).
  static void check_evoked_cases(const ExperimentSpec& ex, const YAML::Node& experiment, const Context& ctx) {
    if (std::none_of(ex.cases.begin(), ex.cases.end(), [&](const CaseSpec& c) { return ex.evokes(c); }))
      ctx.fail(key_node(experiment, "evoke"), "no fixed-step case to evoke patterns in (an adaptive run's output points are not evenly spaced)");
    const EvocationScan& scan = ex.evoke->scan;
    if (std::isnan(scan.lag_min)) return;
    for (const CaseSpec& c : ex.cases) {
      if (std::isnan(c.h)) continue;
      const double spacing = c.h * static_cast<double>(evocation_stride(fixed_step_count(c.T, c.h), ex.evoke->bodies));
      if (std::max(1.0, std::ceil(scan.lag_min / spacing - 1e-9)) > std::floor(scan.lag_max / spacing + 1e-9))
        ctx.fail(get(get(experiment, "evoke"), "lag"), "'lag' = [" + number_text(scan.lag_min) + ", " + number_text(scan.lag_max) +
                         "] holds no whole sample spacing of " + c.integrator + " at " + setting_text(c) +
                         " (the positions are kept every " + number_text(spacing) + ")");
    }
  }

  /// The model of that name; an unknown one is refused at `at`, listing the known ones.
  const ModelEntry& find_model_at(const YAML::Node& at, const Context& ctx, const std::string& name) const {
    for (const auto& m : model_catalogue())
      if (m.name == name) return m;
    std::string known;
    for (const auto& m : model_catalogue()) known += (known.empty() ? "" : ", ") + std::string(m.name);
    ctx.fail(at, "unknown model " + quote(name) + " (known: " + known + ")");
  }

  ReferenceSpec read_reference(const YAML::Node& ref, const Context& ec,
                               const ModelEntry& model) const {
    ReferenceSpec r;
    if (ref.IsScalar()) {
      if (ref.Scalar() != "exact")
        ec.fail(ref,
                "'reference' is 'exact' or a map {integrator, rtol, atol, model}, got " + describe(ref));
      if (!model.has_exact_solution)
        ec.fail(ref, "model " + std::string(model.name) + " has no exact solution");
      r.exact = true;
      return r;
    }
    require_map(ref, ec, "'reference' is 'exact' or a map {integrator, rtol, atol, model}");
    const Context rc = ec.at("reference", ref);
    reject_unknown_keys(ref, rc, {"integrator", "rtol", "atol", "model"});
    if (has(ref, "model")) {
      r.model = text(ref, rc, "model");
      const ModelEntry& other = find_model_at(get(ref, "model"), rc, r.model);
      if (other.formulation_of != model.name)
        rc.fail(get(ref, "model"), "model " + r.model + " is not a formulation of " +
                                       std::string(model.name) + " (models/formulation.hpp)");
    }
    if (has(ref, "integrator")) r.integrator = text(ref, rc, "integrator");
    const YAML::Node at = has(ref, "integrator") ? get(ref, "integrator") : ref;
    if (!declaration_of(r.integrator, at, rc).adaptive)
      rc.fail(at, quote(r.integrator) +
                      " is a fixed-step method: the reference must be an adaptive solver");
    if (has(ref, "rtol")) r.rtol = number_in(get(ref, "rtol"), rc, "'rtol'", rtol_problem);
    if (has(ref, "atol")) r.atol = number_in(get(ref, "atol"), rc, "'atol'", atol_problem);
    return r;
  }

  /// A reference in another formulation starts from the preset of the same name with the same
  /// parameter overrides, so the experiment may not set its initial state otherwise.
  void check_other_formulation(const YAML::Node& ref, const Context& ec, const ExperimentSpec& ex) const {
    const Context rc = ec.at("reference", ref);
    const YAML::Node at = get(ref, "model");
    if (!ex.initial.empty() || ex.project_initial)
      rc.fail(at, "a reference in model " + ex.reference->model +
                      " starts from the preset of the same name: 'initial' and 'project_initial' "
                      "cannot be set");
    try {
      find_model(ex.reference->model).parameters_for(ex.preset, ex.parameters);
    } catch (const InputError& e) {
      rc.fail(at, "the reference in model " + ex.reference->model + ": " + e.what());
    }
  }

  void read_published(const YAML::Node& list, const Context& ctx, ExperimentSpec& ex) {
    if (!list.IsDefined()) return;
    if (!list.IsSequence())
      ctx.fail(list, "'published' must be a list of rows, got " + describe(list));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const YAML::Node row = list[k];
      const Context pc = ctx.at("published[" + std::to_string(k) + "]", row);
      require_map(
          row, pc,
          "a published row is a map {example, method, integrator, role, <metric>: value, ...}");
      std::set<std::string> known = {"example", "method", "integrator", "h",      "rtol",
                                     "atol",    "role",   "note",       "setting"};
      known.insert(kPublishedMetrics.begin(), kPublishedMetrics.end());
      reject_unknown_keys(row, pc, known);
      PublishedRow p;
      p.example = text(row, pc, "example");
      p.method = text(row, pc, "method");
      p.integrator = text(row, pc, "integrator");
      p.role = text(row, pc, "role");
      if (p.role != "printed" && p.role != "reproducing")
        pc.fail(get(row, "role"),
                "'role' must be 'printed' or 'reproducing', got " + quote(p.role));
      p.note = trimmed(text(row, pc, "note", false));
      p.setting = text(row, pc, "setting", false);
      if (has(row, "h")) p.h = positive(get(row, "h"), pc, "'h'");
      if (has(row, "rtol")) p.rtol = number_in(get(row, "rtol"), pc, "'rtol'", rtol_problem);
      if (has(row, "atol")) p.atol = number_in(get(row, "atol"), pc, "'atol'", atol_problem);
      for (const auto& m : kPublishedMetrics)
        if (has(row, m)) p.values[m] = positive(get(row, m), pc, key_text(m));
      if (p.values.empty())
        pc.fail(row,
                "no published value (energy_err_mean, unit_length_err_mean or energy_rel_err_max)");
      std::set<std::string> published;
      for (const auto& [metric, value] : p.values) published.insert(metric);
      if (const auto problem = note_template_problem(p.note, published))
        pc.fail(get(row, "note"), "'note': " + *problem);
      // No setting given also matches the adaptive defaults (ode45's rtol 1e-3, atol 1e-6).
      const bool no_setting = std::isnan(p.rtol) && std::isnan(p.atol) && std::isnan(p.h);
      const bool matched = has_run(p.integrator, p.h, p.rtol, p.atol) ||
                           (no_setting && has_run(p.integrator, p.h, 1e-3, 1e-6));
      if (!matched)
        pc.fail(row, "no case of this experiment has integrator " + quote(p.integrator) +
                         " with these settings");
      ex.published.push_back(p);
    }
  }

  /// `claims`: a paper's checkable claims about the experiment (studies/claims.hpp).
  void read_claims(const YAML::Node& list, const Context& ctx, ExperimentSpec& ex) {
    if (!list.IsDefined()) return;
    if (!list.IsSequence()) ctx.fail(list, "'claims' must be a list of claims, got " + describe(list));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const YAML::Node node = list[k];
      const Context cc = ctx.at("claims[" + std::to_string(k) + "]", node);
      require_map(node, cc, "a claim is a map {claim, where, metric, integrators, at_most or at_least}");
      reject_unknown_keys(node, cc, {"claim", "where", "metric", "integrators", "at_most", "at_least"});
      ClaimSpec c;
      c.claim = trimmed(text(node, cc, "claim"));  // a folded '>' keeps a final newline
      c.where = trimmed(text(node, cc, "where"));
      if (c.claim.empty()) cc.fail(get(node, "claim"), "'claim' is empty: quote what the paper says");
      c.metric = text(node, cc, "metric");
      if (!kNoteMetrics.contains(c.metric)) {
        std::string known;
        for (const auto& m : kNoteMetrics) known += (known.empty() ? "" : ", ") + m;
        cc.fail(get(node, "metric"), "unknown metric " + quote(c.metric) + " (known: " + known + ")");
      }
      if (has(node, "integrators")) {
        c.integrators = names(get(node, "integrators"), cc, "integrators", true);
        for (std::size_t i = 0; i < c.integrators.size(); ++i)
          if (std::none_of(ex.cases.begin(), ex.cases.end(),
                           [&](const CaseSpec& cs) { return cs.integrator == c.integrators[i]; }))
            cc.fail(get(node, "integrators")[i], "no case of this experiment runs " + quote(c.integrators[i]));
      }
      const bool most = has(node, "at_most"), least = has(node, "at_least");
      if (most == least) cc.fail(node, "give the claim's bound as 'at_most' or 'at_least' (one of them)");
      c.at_most = most;
      c.bound = number(get(node, most ? "at_most" : "at_least"), cc, most ? "'at_most'" : "'at_least'");
      ex.claims.push_back(std::move(c));
    }
  }

  /// `known_deviations`: promises the spec expects not to be kept, each with its reason.
  void read_known_deviations(const YAML::Node& list, const Context& ctx) {
    if (!list.IsDefined()) return;
    if (!list.IsSequence())
      ctx.fail(list, "'known_deviations' must be a list of deviations, got " + describe(list));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const YAML::Node node = list[k];
      const Context kc = ctx.at("known_deviations[" + std::to_string(k) + "]", node);
      require_map(node, kc, "a known deviation is a map {experiment, model, integrators, promise, reason}");
      reject_unknown_keys(node, kc, {"experiment", "model", "integrators", "promise", "reason"});
      KnownDeviation d;
      d.experiment = text(node, kc, "experiment", false);
      if (has(node, "experiment") &&
          std::none_of(spec_.experiments.begin(), spec_.experiments.end(),
                       [&](const ExperimentSpec& ex) { return ex.base_name == d.experiment; }))
        kc.fail(get(node, "experiment"), "no experiment named " + quote(d.experiment));
      d.model = text(node, kc, "model", false);
      if (has(node, "model")) find_model_at(get(node, "model"), kc, d.model);
      if (!has(node, "integrators")) kc.fail(node, "missing 'integrators'");
      d.integrators = names(get(node, "integrators"), kc, "integrators", true);
      for (std::size_t i = 0; i < d.integrators.size(); ++i)
        if (!find_integrator_declaration(d.integrators[i]) && !methods_by_name_.contains(d.integrators[i]))
          kc.fail(get(node, "integrators")[i], "unknown integrator " + quote(d.integrators[i]));
      d.promise = text(node, kc, "promise");
      if (d.promise != "order" && d.promise != "manifold" && d.promise != "momentum" && d.promise != "energy")
        kc.fail(get(node, "promise"), "'promise' is order, manifold, momentum or energy, got " + quote(d.promise));
      d.reason = trimmed(text(node, kc, "reason"));
      if (d.reason.empty()) kc.fail(get(node, "reason"), "'reason' is empty: say why the deviation is expected");
      spec_.known_deviations.push_back(std::move(d));
    }
  }

  /// Study-level figures across experiments; the engine records them in the manifest.
  void read_figures(const YAML::Node& list, const Context& ctx) {
    if (!list.IsDefined()) return;
    if (!list.IsSequence())
      ctx.fail(list, "'figures' must be a list of figures, got " + describe(list));
    for (std::size_t k = 0; k < list.size(); ++k) {
      const YAML::Node f = list[k];
      const Context fc = ctx.at("figures[" + std::to_string(k) + "]", f);
      require_map(f, fc, "a figure is a map {name, title, kind, parameter, metric, experiments}");
      reject_unknown_keys(f, fc, {"name", "title", "kind", "parameter", "metric", "experiments"});
      nlohmann::json fig;
      const std::string name = name_text(f, fc, "name");
      if (!figure_names_.insert(name).second)
        fc.fail(get(f, "name"), "two figures are named " + quote(name));
      fig["name"] = name;
      fig["title"] = text(f, fc, "title", false);
      const std::string kind = text(f, fc, "kind");
      if (kind != "metric_vs_parameter")
        fc.fail(get(f, "kind"),
                "unknown figure kind " + quote(kind) + " (known: metric_vs_parameter)");
      fig["kind"] = kind;
      const std::string parameter = text(f, fc, "parameter");
      fig["parameter"] = parameter;
      const std::string metric = text(f, fc, "metric");
      if (!kFigureMetrics.contains(metric)) {
        std::string known;
        for (const auto& m : kFigureMetrics) known += (known.empty() ? "" : ", ") + m;
        fc.fail(get(f, "metric"), "unknown metric " + quote(metric) + " (known: " + known + ")");
      }
      fig["metric"] = metric;
      std::vector<std::string> wanted;
      if (has(f, "experiments")) {
        wanted = names(get(f, "experiments"), fc, "experiments", true);
        for (std::size_t i = 0; i < wanted.size(); ++i)
          if (std::none_of(spec_.experiments.begin(), spec_.experiments.end(),
                           [&](const ExperimentSpec& ex) { return ex.base_name == wanted[i]; }))
            fc.fail(get(f, "experiments")[i], "no experiment named " + quote(wanted[i]));
      }
      auto chosen = nlohmann::json::array();
      for (const auto& ex : spec_.experiments) {
        if (!wanted.empty() &&
            std::find(wanted.begin(), wanted.end(), ex.base_name) == wanted.end())
          continue;
        auto& parameters = parameter_names_[ex.model];
        if (parameters.empty()) {
          const ParameterSet defaults = find_model(ex.model).default_parameters();
          for (const auto& p : defaults.list()) parameters.insert(p.name);
        }
        if (!parameters.contains(parameter))
          fc.fail(get(f, "parameter"), "experiment " + quote(ex.name) + " (model " + ex.model +
                                           ") has no parameter " + quote(parameter));
        chosen.push_back(ex.name);
      }
      fig["experiments"] = chosen;
      spec_.figures.push_back(fig);
    }
  }

  const Source& source_;
  StudySpec& spec_;
  std::size_t cases_ = 0;
  std::set<std::string> case_settings_, run_settings_;  // of the experiment being read
  std::set<std::string> figure_names_;
  std::map<std::string, std::shared_ptr<const UserMethod>> methods_by_name_;
  std::map<std::string, std::set<std::string>> parameter_names_;  // by model
};

StudySpec parse(const std::string& text, const std::string& path) {
  if (text.size() > SpecLimits::kBytes)
    throw InputError(one_line(path) + ":1:1: the file is larger than 1 MiB (" +
                     std::to_string(SpecLimits::kBytes) + " bytes), the limit for a spec");
  std::string_view body = text;
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);  // a UTF-8 byte-order mark
  const Source source(path, body);
  const Context ctx(source);
  if (const auto problem = spec_text::text_problem(body)) ctx.fail_at(problem->pos, problem->what);
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos)
    ctx.fail_at(0, "the file is empty: a study spec is a map with name, title and experiments");

  // The documents are counted (up to two) before the first is loaded: yaml-cpp 0.7's LoadAll
  // never ends on a text that starts with ',' (it makes empty documents without consuming it).
  DocumentStarts documents;
  YAML::Node root;
  try {
    std::istringstream in{std::string(body)};
    YAML::Parser parser(in);
    if (parser.HandleNextDocument(documents)) parser.HandleNextDocument(documents);
    if (documents.starts.size() == 1) root = YAML::Load(std::string(body));
  } catch (const YAML::DeepRecursion& e) {
    ctx.fail_at(e.mark.is_null() ? 0 : static_cast<std::size_t>(e.mark.pos),
                "nested deeper than " + std::to_string(SpecLimits::kDepth) +
                    " levels, the limit for a spec");
  } catch (const YAML::Exception& e) {
    ctx.fail_at(e.mark.is_null() ? 0 : static_cast<std::size_t>(e.mark.pos),
                "not valid YAML: " + e.msg);
  }
  if (documents.starts.empty())
    ctx.fail_at(
        0, "the file has only comments: a study spec is a map with name, title and experiments");
  if (documents.starts.size() > 1) {
    const std::size_t second =
        documents.starts[1].is_null() ? 0 : static_cast<std::size_t>(documents.starts[1].pos);
    if (second < body.size() && (body[second] == ',' || body[second] == ']' || body[second] == '}'))
      ctx.fail_at(second,
                  std::string("not valid YAML: '") + body[second] + "' outside a flow list or map");
    ctx.fail_at(second, "a second YAML document (after '---' or '...'): a spec is one document");
  }
  if (root.IsNull())
    ctx.fail(root, "the document is empty: a study spec is a map with name, title and experiments");
  ShapeCheck shape(source);
  if (root.IsMap()) shape.check_keys(root, kTopLevelKeys);  // before aliases are expanded below
  shape.check(root, "", 1);

  StudySpec spec;
  spec.file = path;
  SpecReader(source, spec).read(root);
  spec.as_json = to_json(root);
  return spec;
}

}  // namespace

StudySpec load_study_spec(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(one_line(path) + ": is a folder, not a spec file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(one_line(path) + ": cannot read the file");
  // Read at most one byte beyond the limit: a larger file is refused unread.
  std::string text(SpecLimits::kBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw InputError(one_line(path) + ": cannot read the file");
  text.resize(static_cast<std::size_t>(in.gcount()));
  return parse_study_spec(text, path);
}

StudySpec parse_study_spec(const std::string& content, const std::string& path) {
  try {
    return parse(content, path);
  } catch (const InputError&) {
    throw;
  } catch (const YAML::Exception& e) {  // a last resort: every yaml-cpp call above is guarded
    const std::string_view body = std::string_view(content).starts_with("\xEF\xBB\xBF")
                                      ? std::string_view(content).substr(3)
                                      : std::string_view(content);
    const Source source(path, body);
    throw InputError(source.place(e.mark.is_null() ? 0 : static_cast<std::size_t>(e.mark.pos)) +
                     ": " + one_line("the spec could not be read here (yaml-cpp: " + e.msg + ")"));
  } catch (const std::exception& e) {
    throw InputError(one_line(path) + ":1:1: the spec could not be read: " + one_line(e.what()));
  }
}

}  // namespace geomint
