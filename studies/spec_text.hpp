#pragma once
// The text of a study spec before it is read as YAML, and the pieces every message about it is
// made of: a place `PATH:LINE:COLUMN` from a byte offset, and user text quoted on one line.
// A spec is refused before YAML reads it if it is larger than its limit, not UTF-8, holds a
// control character (a NUL among them), or indents a line with a tab.

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace geomint::spec_text {

/// The length of the UTF-8 sequence at text[i], or 0 if it is not one (overlong forms,
/// surrogates and code points beyond U+10FFFF are not).
inline std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = byte(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) low = 0xA0;   // overlong
    if (c == 0xED) high = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) low = 0x90;   // overlong
    if (c == 0xF4) high = 0x8F;  // beyond U+10FFFF
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  return n;
}

/// Whether all of `text` is UTF-8.
inline bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

/// The code point of a valid UTF-8 sequence of length n at text[i].
inline char32_t code_point(std::string_view text, std::size_t i, std::size_t n) {
  const auto byte = [&](std::size_t k) {
    return static_cast<char32_t>(static_cast<unsigned char>(text[k]));
  };
  if (n == 1) return byte(i);
  char32_t cp = byte(i) & (n == 2 ? 0x1Fu : n == 3 ? 0x0Fu : 0x07u);
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (byte(i + k) & 0x3Fu);
  return cp;
}

/// A character no message may carry as it is: C0 and C1 controls (line feeds among them), DEL,
/// and the Unicode line and paragraph separators.
inline bool breaks_a_line(char32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029;
}

/// `text` on one line: every character that breaks_a_line, and every byte that is not UTF-8,
/// written as an escape (\n, \t, \x01, \u2028); at most `max_chars` characters of it, then "...".
inline std::string one_line(std::string_view text, std::size_t max_chars = std::string::npos) {
  std::string out;
  std::size_t chars = 0;
  char buf[16];
  for (std::size_t i = 0; i < text.size();) {
    if (chars == max_chars) {
      out += "...";
      break;
    }
    ++chars;
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02X",
                    static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      out += buf;
      ++i;
      continue;
    }
    const char32_t cp = code_point(text, i, n);
    if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (breaks_a_line(cp)) {
      std::snprintf(buf, sizeof buf, cp < 0x100 ? "\\x%02X" : "\\u%04X", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

/// User text as a message quotes it: on one line, at most 60 characters, in single quotes.
inline std::string quote(std::string_view text) {
  // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "'" + string where
  // this is inlined into some callers.
  std::string out(1, '\'');
  out += one_line(text, 60);
  out += '\'';
  return out;
}

/// A spec's text (without a byte-order mark) and its name, turning byte offsets into places.
class Source {
 public:
  Source(std::string_view path, std::string_view text) : path_(one_line(path)), text_(text) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') line_starts_.push_back(i + 1);
  }

  std::string_view text() const { return text_; }
  const std::string& path() const { return path_; }

  /// The 1-based line of byte `pos`.
  std::size_t line(std::size_t pos) const {
    pos = std::min(pos, text_.size());
    return static_cast<std::size_t>(
        std::upper_bound(line_starts_.begin(), line_starts_.end(), pos) - line_starts_.begin());
  }

  /// `PATH:LINE:COLUMN` of byte `pos`, the column counted in characters from 1.
  std::string place(std::size_t pos) const {
    pos = std::min(pos, text_.size());
    const std::size_t l = line(pos);
    std::size_t column = 1;
    for (std::size_t i = line_starts_[l - 1]; i < pos; ++i)
      if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++column;
    return path_ + ":" + std::to_string(l) + ":" + std::to_string(column);
  }

 private:
  std::string path_;
  std::string_view text_;
  std::vector<std::size_t> line_starts_;
};

/// A problem of the raw text, at a byte offset.
struct TextProblem {
  std::size_t pos;
  std::string what;
};

/// The first character YAML or this reader refuses before parsing: a byte that is not UTF-8,
/// a control character other than tab, line feed and carriage return (a NUL among them), or a
/// tab before the first text of a line (YAML indents with spaces).
inline std::optional<TextProblem> text_problem(std::string_view text) {
  char buf[96];
  bool indenting = true;                     // only blanks so far on this line
  std::size_t tab = std::string_view::npos;  // the first tab of the indentation
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      std::snprintf(buf, sizeof buf, "not UTF-8 text: byte 0x%02X is not part of a UTF-8 character",
                    static_cast<unsigned>(static_cast<unsigned char>(text[i])));
      return TextProblem{i, buf};
    }
    const char32_t cp = code_point(text, i, n);
    if (cp == 0) return TextProblem{i, "a NUL byte: a spec is text"};
    if (cp != '\t' && cp != '\n' && cp != '\r' && breaks_a_line(cp) && cp != 0x2028 &&
        cp != 0x2029) {
      std::snprintf(buf, sizeof buf, "control character U+%04X: a spec holds printable text",
                    static_cast<unsigned>(cp));
      return TextProblem{i, buf};
    }
    if (cp == '\n') {
      indenting = true;
      tab = std::string_view::npos;
    } else if (indenting && cp == '\t') {
      if (tab == std::string_view::npos) tab = i;
    } else if (cp != ' ' && cp != '\r') {
      if (indenting && tab != std::string_view::npos)
        return TextProblem{tab, "a tab in the indentation: YAML indents with spaces"};
      indenting = false;
    }
    i += n;
  }
  return std::nullopt;
}

}  // namespace geomint::spec_text
