#include "studies/external_command.hpp"

#include <algorithm>
#include <fstream>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "studies/result_records.hpp"

namespace geomint {

ExternalCommand external_command(std::string command, const CommandPromises& promises,
                                 std::filesystem::path directory) {
  ExternalCommand c;
  c.command = std::move(command);
  Declaration& d = c.declaration;
  d.family = Family::External;
  d.order = promises.order;
  d.adaptive = promises.adaptive;
  d.symplectic = promises.symplectic;
  d.symmetric = promises.symmetric;
  d.stays_on_manifold = promises.stays_on_manifold;
  c.momentum = promises.momentum;
  c.directory = std::move(directory);
  return c;
}

namespace {

/// A file a command reads may be large (a compiled integrator); beyond this it is refused
/// rather than read whole to be hashed.
constexpr std::uintmax_t kMaxDigestedBytes = 256u << 20;

bool known_placeholder(std::string_view name) {
  return std::find(std::begin(kCommandPlaceholders), std::end(kCommandPlaceholders), name) !=
         std::end(kCommandPlaceholders);
}

/// Walks the template: literal text to `literal`, each placeholder's name to `placeholder`.
template <class Literal, class Placeholder>
void walk_template(std::string_view command, Literal&& literal, Placeholder&& placeholder) {
  for (std::size_t i = 0; i < command.size(); ++i) {
    const char c = command[i];
    if ((c == '{' || c == '}') && i + 1 < command.size() && command[i + 1] == c) {
      literal(c);
      ++i;
    } else if (c == '}') {
      throw InputError("the command has a '}' that closes no placeholder (write }} for a literal brace)");
    } else if (c == '{') {
      const std::size_t close = command.find('}', i);
      if (close == std::string_view::npos)
        throw InputError("the command has a '{' that is never closed (write {{ for a literal brace)");
      const std::string_view name = command.substr(i + 1, close - i - 1);
      if (!known_placeholder(name)) {
        std::string known;
        for (std::string_view k : kCommandPlaceholders) known += (known.empty() ? "{" : ", {") + std::string(k) + "}";
        throw InputError("the command has an unknown placeholder {" + std::string(name).substr(0, 40) +
                         "} (known: " + known + ")");
      }
      placeholder(name);
      i = close;
    } else {
      literal(c);
    }
  }
}

/// The words of the command as /bin/sh would split plain text: blanks separate, quotes group.
std::vector<std::string> words_of(std::string_view command) {
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  for (const char c : command) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ' ' || c == '\t' || c == ';' || c == '|' || c == '&') {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(word);
  return words;
}

/// Read up to the cap whatever size the file claims: a file of /proc says 0 and can be endless.
std::string file_digest(const std::filesystem::path& path, const std::string& written) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("the command's file " + written + " cannot be read");
  std::string text;
  std::vector<char> chunk(1 << 16);
  while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxDigestedBytes)
      throw InputError("the command's file " + written + " has more than the 256 MiB geomint reads to key its results");
  }
  if (in.bad()) throw InputError("the command's file " + written + " cannot be read");
  return hash_hex(text);
}

}  // namespace

std::vector<std::string> command_placeholders(std::string_view command) {
  std::vector<std::string> used;
  walk_template(command, [](char) {}, [&](std::string_view name) {
    if (std::find(used.begin(), used.end(), name) == used.end()) used.emplace_back(name);
  });
  return used;
}

std::string shell_quoted(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string expand_command(std::string_view command, const std::map<std::string, std::string>& values) {
  std::string out;
  walk_template(command, [&](char c) { out += c; },
                [&](std::string_view name) { out += shell_quoted(values.at(std::string(name))); });
  return out;
}

std::map<std::string, std::string> command_file_digests(std::string_view command,
                                                         const std::filesystem::path& directory,
                                                         const std::vector<std::string>& files) {
  std::map<std::string, std::string> digests;
  std::string literal;  // the template without its placeholders
  walk_template(command, [&](char c) { literal += c; }, [&](std::string_view) { literal += ' '; });
  for (const std::string& word : words_of(literal)) {
    std::error_code ec;
    const std::filesystem::path path = directory / word;  // an absolute word stays itself
    if (word.size() < 4096 && std::filesystem::is_regular_file(path, ec))
      digests[word] = file_digest(path, word);
  }
  for (const std::string& file : files) {
    std::error_code ec;
    const std::filesystem::path path = directory / file;
    if (!std::filesystem::is_regular_file(path, ec))
      throw InputError("files: " + file + " is not a file in " + directory.string());
    digests[file] = file_digest(path, file);
  }
  return digests;
}

}  // namespace geomint
