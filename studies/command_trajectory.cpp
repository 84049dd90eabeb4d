#include "studies/command_trajectory.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string_view>

#include "errors/exit_status_errors.hpp"
#include "models/parameter_domain.hpp"

namespace geomint {

namespace {

std::string shown(std::string_view text) {
  std::string s(text.substr(0, 40));
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  return "'" + s + (text.size() > 40 ? "...'" : "'");
}

void split(std::string_view line, std::vector<std::string_view>& fields) {
  fields.clear();
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return;
    start = comma + 1;
  }
}

/// The field as a double (NaN and infinities included: from_chars reads "nan" and "inf"), or
/// nothing when it is no number.
std::optional<double> parse(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

/// Reads the rows into `out`; throws the first problem.
void read_rows(std::ifstream& in, const std::string& file, const TrajectoryExpectation& expect,
               std::vector<double>& times, std::vector<double>& states) {
  const std::size_t n = expect.state_columns.size();
  const double direction = expect.T >= expect.t0 ? 1.0 : -1.0;
  const double time_tolerance = 1e-9 * std::max({1.0, std::abs(expect.t0), std::abs(expect.T)});
  const double state_tolerance = 1e-12 * std::max(1.0, expect.initial.cwiseAbs().maxCoeff());
  std::string line;
  std::vector<std::string_view> fields;
  std::vector<double> values(n + 1);
  if (!std::getline(in, line)) throw MalformedOutput(expect.t0, file + " is empty: no header, no rows");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  split(line, fields);
  const std::size_t columns = fields.size();
  for (std::size_t j = 0; j <= n; ++j) {
    const std::string& want = j == 0 ? std::string("t") : expect.state_columns[j - 1];
    if (j >= columns || fields[j] != want)
      throw MalformedOutput(expect.t0, file + ":1: column " + std::to_string(j + 1) + " is " +
                                           (j >= columns ? std::string("missing") : shown(fields[j])) + ", expected " +
                                           want + " (the header starts with t and the state's " +
                                           std::to_string(n) + " columns, as geomint run writes them)");
  }
  double t_last = expect.t0;
  for (std::size_t row = 2; std::getline(in, line); ++row) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() && in.peek() == std::char_traits<char>::eof()) break;
    const std::string where = file + ":" + std::to_string(row);
    if (times.size() >= expect.max_rows)
      throw MalformedOutput(t_last, where + ": more than the " + std::to_string(expect.max_rows) + " rows a run of its steps has");
    split(line, fields);
    if (fields.size() != columns)
      throw MalformedOutput(t_last, where + ": " + std::to_string(fields.size()) + " fields, the header has " +
                                        std::to_string(columns));
    for (std::size_t j = 0; j <= n; ++j) {
      const auto v = parse(fields[j]);
      const std::string name = j == 0 ? "t" : expect.state_columns[j - 1];
      if (!v) throw MalformedOutput(t_last, where + ": " + name + " = " + shown(fields[j]) + " is not a number");
      if (!std::isfinite(*v)) throw NonFinite(t_last, where + ": " + name + " = " + shown(fields[j]));
      values[j] = *v;
    }
    const double t = values[0];
    if (times.empty()) {
      if (std::abs(t - expect.t0) > time_tolerance)
        throw MalformedOutput(t, where + ": the first row is at t = " + number_text(t) + ", not at t0 = " + number_text(expect.t0));
      for (std::size_t j = 0; j < n; ++j)
        if (std::abs(values[j + 1] - expect.initial[static_cast<Eigen::Index>(j)]) > state_tolerance)
          throw MalformedOutput(t, where + ": the first row is not the initial state (" + expect.state_columns[j] +
                                       " = " + number_text(values[j + 1]) + ", the initial state has " +
                                       number_text(expect.initial[static_cast<Eigen::Index>(j)]) + ")");
    } else if (!(direction * (t - t_last) > 0.0)) {
      throw MalformedOutput(t_last, where + ": t = " + number_text(t) + " does not move on from " + number_text(t_last) +
                                        " towards T = " + number_text(expect.T));
    }
    if (direction * (t - expect.T) > time_tolerance)
      throw MalformedOutput(t_last, where + ": t = " + number_text(t) + " is past T = " + number_text(expect.T));
    times.push_back(t);
    states.insert(states.end(), values.begin() + 1, values.end());
    t_last = t;
  }
  if (in.bad()) throw MalformedOutput(t_last, file + " could not be read to its end");
  if (times.empty()) throw MalformedOutput(expect.t0, file + " has a header and no rows");
  if (std::abs(t_last - expect.T) > time_tolerance)
    throw MalformedOutput(t_last, file + " ends at t = " + number_text(t_last) + ", short of T = " + number_text(expect.T));
}

}  // namespace

CommandTrajectory read_command_trajectory(const std::filesystem::path& path, const TrajectoryExpectation& expect) {
  CommandTrajectory out;
  std::vector<double> states;
  try {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
      throw MalformedOutput(expect.t0, "it wrote no trajectory (no file " + path.filename().string() + ")");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw MalformedOutput(expect.t0, "its trajectory " + path.filename().string() + " cannot be opened");
    read_rows(in, path.filename().string(), expect, out.times, states);
  } catch (const IntegrationFailure&) {
    out.failure = std::current_exception();
  }
  out.states = Eigen::Map<const Eigen::MatrixXd>(states.data(), static_cast<Eigen::Index>(expect.state_columns.size()),
                                                 static_cast<Eigen::Index>(out.times.size()));
  return out;
}

}  // namespace geomint
