// A spec's method of kind `command` (studies/external_command.hpp): an integrator outside
// geomint, its template and declared promises checked when the spec is read.

#include <algorithm>
#include <cmath>
#include <optional>

#include "studies/spec_reader.hpp"

namespace geomint::spec_reading {

namespace {

/// A command longer than this is more likely a mistake than a command line.
constexpr std::size_t kMaxCommandLength = 4096;
/// A day: a run that takes longer is a study of its own.
constexpr double kMaxTimeout = 86400.0;

std::string command_text(const YAML::Node& node, const Context& mc) {
  const YAML::Node v = get(node, "command");
  const std::string command = text(node, mc, "command");
  if (trimmed(command).empty()) mc.fail(v, "'command' is empty");
  if (command.size() > kMaxCommandLength)
    mc.fail(v, "'command' has " + std::to_string(command.size()) + " characters, more than " +
                   std::to_string(kMaxCommandLength));
  if (std::any_of(command.begin(), command.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\t'; }))
    mc.fail(v, "'command' is one line: it holds a newline or another control character");
  return command;
}

/// Its placeholders are known, {out} among them, and fit the step control it declares.
void check_placeholders(const std::string& command, bool adaptive, const YAML::Node& v, const Context& mc) {
  std::vector<std::string> used;
  try {
    used = command_placeholders(command);
  } catch (const InputError& e) {
    mc.fail(v, e.what());
  }
  const auto uses = [&](const char* p) { return std::find(used.begin(), used.end(), p) != used.end(); };
  if (!uses("out")) mc.fail(v, "'command' has no {out}: the path of the trajectory it writes");
  for (const char* p : {"h", "steps"})
    if (adaptive && uses(p))
      mc.fail(v, "'command' uses {" + std::string(p) + "}, which an adaptive method (adaptive: true) has not: use {rtol} and {atol}");
  for (const char* p : {"rtol", "atol"})
    if (!adaptive && uses(p))
      mc.fail(v, "'command' uses {" + std::string(p) + "}, which a fixed-step method has not (declare adaptive: true)");
}

std::filesystem::path command_directory(const YAML::Node& node, const Context& mc, const std::filesystem::path& spec_folder) {
  std::error_code ec;
  std::filesystem::path folder = spec_folder.empty() ? std::filesystem::current_path(ec) : spec_folder;
  if (has(node, "directory")) folder /= text(node, mc, "directory");
  folder = std::filesystem::absolute(folder, ec).lexically_normal();
  if (!std::filesystem::is_directory(folder, ec))
    mc.fail(has(node, "directory") ? get(node, "directory") : node,
            "'directory': the command's folder " + quote(folder.string()) + " is not a folder");
  return folder;
}

bool declared(const YAML::Node& node, const Context& mc, const std::string& key) {
  return has(node, key) && flag(get(node, key), mc, "'" + key + "'");
}

}  // namespace

ExternalCommand read_command_method(const YAML::Node& node, const Context& mc, const std::filesystem::path& spec_folder) {
  for (const char* key : {"command", "order"})
    if (!has(node, key)) mc.fail(node, "missing " + key_text(key));
  std::string command = command_text(node, mc);
  const CommandPromises promises{.order = whole_number(get(node, "order"), mc, "'order'", 1, 20),
                                 .adaptive = declared(node, mc, "adaptive"),
                                 .symplectic = declared(node, mc, "symplectic"),
                                 .symmetric = declared(node, mc, "symmetric"),
                                 .stays_on_manifold = declared(node, mc, "stays_on_manifold"),
                                 .momentum = declared(node, mc, "momentum")};
  check_placeholders(command, promises.adaptive, get(node, "command"), mc);
  std::optional<double> timeout_s;
  if (has(node, "timeout"))
    timeout_s = number_in(get(node, "timeout"), mc, "'timeout'", [](double t) -> std::optional<std::string> {
      if (!(t > 0.0 && t <= kMaxTimeout)) return "must be a number of seconds above 0 and at most a day (86400)";
      return std::nullopt;
    });
  ExternalCommand c = external_command(std::move(command), promises, command_directory(node, mc, spec_folder));
  if (timeout_s) c.timeout_s = *timeout_s;
  std::vector<std::string> files;
  if (has(node, "files")) files = names(get(node, "files"), mc, "files", true);
  try {
    c.file_digests = command_file_digests(c.command, c.directory, files);
  } catch (const InputError& e) {
    mc.fail(has(node, "files") ? get(node, "files") : get(node, "command"), e.what());
  }
  return c;
}

}  // namespace geomint::spec_reading
