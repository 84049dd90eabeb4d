#include "studies/note_template.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "studies/reproduction.hpp"

namespace geomint {

const std::set<std::string> kNoteMetrics = {
    "global_err",         "global_err_ambient",   "energy_err_max",       "energy_err_mean",
    "energy_rel_err_max", "energy_drift_per_time", "momentum_err_max",     "momentum_rel_err_max",
    "manifold_err_max",   "tangency_err_max",     "unit_length_err_mean", "casimir_err_max",
    "manifold_defect_max", "constraint_err_max",  "steps",                "rejected",
    "f_evals",            "mean_step",            "cpu_s"};

namespace {

const std::set<std::string> kSettings = {"h", "rtol", "atol", "T"};

/// A placeholder's text split at its dot: {kind, name}; a setting has kind "setting".
std::pair<std::string, std::string> split(const std::string& inside) {
  const auto dot = inside.find('.');
  if (dot == std::string::npos) return {"setting", inside};
  return {inside.substr(0, dot), inside.substr(dot + 1)};
}

std::optional<std::string> placeholder_problem(const std::string& inside, const std::set<std::string>& published) {
  const auto [kind, name] = split(inside);
  if (kind == "setting") {
    if (kSettings.contains(name)) return std::nullopt;
  } else if (kind == "ours") {
    if (kNoteMetrics.contains(name)) return std::nullopt;
    return "{ours." + name + "}: " + name + " is not a metric of cases.csv a note can quote";
  } else if (kind == "published" || kind == "ratio") {
    if (published.contains(name)) return std::nullopt;
    return "{" + inside + "}: the row publishes no " + name;
  }
  return "unknown placeholder {" + inside +
         "} (known: {ours.METRIC}, {published.METRIC}, {ratio.METRIC}, {h}, {rtol}, {atol}, {T})";
}

/// A digit inside a name such as ode45, RK45 or e3 (after a letter, a digit of it or '_') is
/// not a number.
bool in_name(const std::string& note, std::size_t i) {
  while (i > 0 && std::isdigit(static_cast<unsigned char>(note[i - 1]))) --i;
  return i > 0 && (std::isalpha(static_cast<unsigned char>(note[i - 1])) || note[i - 1] == '_');
}

bool in_band(double ratio) { return ratio >= kBandLow && ratio <= kBandHigh; }

/// Counts whole; ratios and values to four significant digits, a ratio to as many more as it
/// takes to stay on its side of the reproduction band's edges (0.749986 is not "0.75").
std::string formatted(const std::string& kind, const std::string& name, double v) {
  char buf[40];
  const bool count = name == "steps" || name == "rejected" || name == "f_evals";
  if (count && kind == "ours") {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  int digits = 4;
  do std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  while (kind == "ratio" && in_band(std::strtod(buf, nullptr)) != in_band(v) && ++digits <= 17);
  return buf;
}

}  // namespace

std::optional<std::string> note_template_problem(const std::string& note, const std::set<std::string>& published) {
  for (std::size_t i = 0; i < note.size(); ++i) {
    if (note[i] == '{') {
      const auto close = note.find('}', i);
      if (close == std::string::npos) return "a '{' without its '}'";
      if (const auto p = placeholder_problem(note.substr(i + 1, close - i - 1), published)) return p;
      i = close;
    } else if (note[i] == '}') {
      return "a '}' without its '{'";
    } else if (std::isdigit(static_cast<unsigned char>(note[i])) && !in_name(note, i)) {
      std::size_t start = i, end = i;
      while (start > 0 && !std::isspace(static_cast<unsigned char>(note[start - 1]))) --start;
      while (end < note.size() && !std::isspace(static_cast<unsigned char>(note[end]))) ++end;
      const std::string word = note.substr(start, end - start);
      return "a number typed in the note ('" + word +
             "'): give it as a placeholder such as {ours.energy_err_mean} or {ratio.energy_err_mean}, "
             "so that it is computed from the result";
    }
  }
  return std::nullopt;
}

std::string expand_note(const std::string& note,
                        const std::function<double(const std::string& kind, const std::string& name)>& value) {
  std::string out;
  for (std::size_t i = 0; i < note.size(); ++i) {
    if (note[i] != '{') {
      out += note[i];
      continue;
    }
    const auto close = note.find('}', i);
    const auto [kind, name] = split(note.substr(i + 1, close - i - 1));
    out += formatted(kind, name, value(kind, name));
    i = close;
  }
  return out;
}

}  // namespace geomint
