#pragma once
// The values a study spec holds, read from its YAML nodes: text, names, numbers, lists of
// them, flags. A value that is not what its key needs is refused with one line naming the
// place (Context) and what was wanted. Shared by the parts of the spec reader
// (studies/spec_reader.hpp); not for use outside it.

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "models/parameters.hpp"
#include "studies/spec_text.hpp"

namespace geomint::spec_reading {

using spec_text::one_line;
using spec_text::quote;
using spec_text::Source;

/// The byte offset of a node in the spec's text, if it has one (nodes made in code do not).
std::optional<std::size_t> offset_of(const YAML::Node& node);

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

std::string key_text(const std::string& key);

/// What a node is, for "must be ..., got ..." messages.
std::string describe(const YAML::Node& node);

/// The node of `key` in `map` itself (for messages about the key), or an undefined node.
YAML::Node key_node(const YAML::Node& map, const std::string& key);

/// The value of `key` in `map`, or an undefined node. (Through a const map: yaml-cpp's
/// non-const operator[] would add the key.)
YAML::Node get(const YAML::Node& map, const std::string& key);

bool has(const YAML::Node& map, const std::string& key);

void require_map(const YAML::Node& node, const Context& ctx, const std::string& what);

void reject_unknown_keys(const YAML::Node& node, const Context& ctx,
                         const std::set<std::string>& known);

std::string text(const YAML::Node& node, const Context& ctx, const std::string& key,
                 bool required = true);

/// The text without the blanks and newlines around it.
std::string trimmed(const std::string& s);

/// A name that goes into result files: letters, digits, '_', '-', '.'; at most 100 characters.
std::string name_text(const YAML::Node& node, const Context& ctx, const std::string& key);

/// A number as YAML writes one (1e-3, -2.5, .inf, .nan); nothing if the text is not one.
/// `out_of_range` is set for a number beyond the doubles (1e999).
std::optional<double> read_number(const std::string& s, bool& out_of_range);

/// A number, finite unless `finite` is false.
double number(const YAML::Node& v, const Context& ctx, const std::string& what,
              bool finite = true);

using Domain = std::function<std::optional<std::string>(double)>;

std::optional<std::string> positive_problem(double x);

/// A finite number in a domain (`problem` says why a value is outside it).
double number_in(const YAML::Node& v, const Context& ctx, const std::string& what,
                 const Domain& problem);

double positive(const YAML::Node& v, const Context& ctx, const std::string& what);

/// A number and the node it was read from (for messages about it later).
struct Read {
  double value;
  YAML::Node node;
};

/// A number or a non-empty list of numbers in a domain, as a list.
std::vector<Read> number_list(const YAML::Node& v, const Context& ctx, const std::string& key,
                              const Domain& problem);

/// A name, or a non-empty list of distinct names (`list_only`: a list).
std::vector<std::string> names(const YAML::Node& v, const Context& ctx, const std::string& key,
                               bool list_only = false);

bool flag(const YAML::Node& v, const Context& ctx, const std::string& what);

int whole_number(const YAML::Node& v, const Context& ctx, const std::string& what, int min,
                 int max);

}  // namespace geomint::spec_reading
