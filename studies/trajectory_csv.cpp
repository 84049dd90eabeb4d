#include "studies/trajectory_csv.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <string_view>

#include "errors/exit_status_errors.hpp"

namespace geomint {

namespace {

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

/// The columns read: t, and for each body its x, y, z columns.
struct Columns {
  std::size_t t = 0;
  std::vector<std::string> bodies;
  std::vector<std::array<std::size_t, 3>> xyz;
  std::vector<std::string> names;  // every header field, for messages
};

Columns find_columns(const std::vector<std::string_view>& header, const std::string& where) {
  Columns c;
  bool has_t = false;
  std::map<long, std::array<long, 3>> blocks;  // body number -> column of x, y, z (-1: missing)
  static const std::regex component(R"(q([1-9][0-9]{0,5})_([xyz]))");
  for (std::size_t j = 0; j < header.size(); ++j) {
    const std::string name(header[j]);
    c.names.push_back(name);
    for (std::size_t i = 0; i < j; ++i)
      if (c.names[i] == name) throw InputError(where + ": the column " + name + " appears twice");
    std::smatch m;
    if (name == "t") {
      has_t = true;
      c.t = j;
    } else if (std::regex_match(name, m, component)) {
      auto& block = blocks.try_emplace(std::stol(m[1]), std::array<long, 3>{-1, -1, -1}).first->second;
      block[static_cast<std::size_t>(m[2].str()[0] - 'x')] = static_cast<long>(j);
    }
  }
  if (!has_t) throw InputError(where + ": no column t (a trajectory as `geomint run` writes it)");
  if (blocks.empty())
    throw InputError(where + ": no position columns q<i>_x, q<i>_y, q<i>_z (a model with bodies on S2 or R3)");
  for (const auto& [number, columns] : blocks) {
    const std::string body = std::string("q").append(std::to_string(number));
    for (std::size_t a = 0; a < 3; ++a)
      if (columns[a] < 0)
        throw InputError(where + ": the column " + body + "_" + std::string(1, "xyz"[a]) + " is missing (" + body +
                         " has the others)");
    c.bodies.push_back(body);
    c.xyz.push_back({static_cast<std::size_t>(columns[0]), static_cast<std::size_t>(columns[1]),
                     static_cast<std::size_t>(columns[2])});
  }
  return c;
}

double finite_field(std::string_view text, const std::string& where) {
  double v = 0.0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    throw InputError(where + ": '" + std::string(text) + "' is not a finite number");
  return v;
}

/// The largest trajectory read (its text is held in memory, then its numbers): 2 GiB, some
/// 10^7 rows of a dozen columns; a longer run is thinned with `geomint run --every`.
constexpr std::size_t kMaxTrajectoryBytes = std::size_t{2} << 30;

std::string read_text(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw InputError(path.string() + " does not exist");
  if (std::filesystem::is_directory(status)) throw InputError(path.string() + " is a folder, not a CSV file");
  // A FIFO could block for ever and a device (/dev/zero) never end.
  if (!std::filesystem::is_regular_file(status))
    throw InputError(path.string() + " is not a regular file (a pipe or a device), not a CSV file");
  const auto too_large = [&] {
    return InputError(path.string() + " is larger than 2 GiB, the most a trajectory is read (thin the run with geomint run --every)");
  };
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxTrajectoryBytes) throw too_large();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error("read", path.string());
  std::string text;
  text.reserve(ec ? 0 : static_cast<std::size_t>(size));
  // Read in pieces up to the cap, whatever size the file claimed (it may grow meanwhile).
  std::array<char, 1 << 16> piece;
  while (in.read(piece.data(), piece.size()) || in.gcount() > 0) {
    text.append(piece.data(), static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxTrajectoryBytes) throw too_large();
  }
  if (in.bad()) throw io_error("read", path.string());
  return text;
}

}  // namespace

TrajectoryPositions read_trajectory_positions(const std::filesystem::path& path) {
  const std::string text = read_text(path);
  const std::string file = path.string();
  std::vector<std::string_view> lines;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  if (lines.empty()) throw InputError(file + ": empty file");
  const std::vector<std::string_view> header = split_fields(lines.front());
  const Columns c = find_columns(header, file + ":1");

  TrajectoryPositions out;
  out.bodies = c.bodies;
  std::vector<std::vector<double>> coordinates(c.bodies.size());
  for (std::size_t l = 1; l < lines.size(); ++l) {
    if (lines[l].empty() && l + 1 == lines.size()) break;  // the final newline
    const std::string where = file + ":" + std::to_string(l + 1);
    const std::vector<std::string_view> fields = split_fields(lines[l]);
    if (fields.size() != header.size())
      throw InputError(where + ": " + std::to_string(fields.size()) + " fields, the header has " +
                       std::to_string(header.size()));
    const auto field = [&](std::size_t j) {
      return finite_field(fields[j], where + ": column " + c.names[j]);
    };
    out.times.push_back(field(c.t));
    for (std::size_t b = 0; b < c.bodies.size(); ++b)
      for (std::size_t j : c.xyz[b]) coordinates[b].push_back(field(j));
  }
  if (out.times.empty()) throw InputError(file + ": no rows after the header");
  for (const auto& xyz : coordinates)
    out.positions.push_back(Eigen::Map<const Eigen::Matrix3Xd>(xyz.data(), 3, static_cast<Eigen::Index>(out.times.size())));
  return out;
}

}  // namespace geomint
