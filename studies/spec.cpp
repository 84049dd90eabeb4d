#include "studies/spec.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "studies/spec_reader.hpp"
#include "studies/spec_text.hpp"

namespace geomint {

namespace {

using spec_reading::Context;
using spec_reading::describe;
using spec_reading::kTopLevelKeys;
using spec_reading::offset_of;
using spec_reading::SpecReader;
using spec_text::one_line;
using spec_text::quote;
using spec_text::Source;

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
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status))
    throw InputError(one_line(path) + ": is a folder, not a spec file");
  // A FIFO or a device would block the read or never end: a spec is a file.
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw InputError(one_line(path) + ": is not a regular file (a pipe or a device), not a spec file");
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
