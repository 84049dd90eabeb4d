#pragma once
// An integrator outside geomint, in any language, given as a command template (a spec's
// `methods:` entry of kind `command`, or `geomint verify --command`): geomint fills in the
// template's placeholders, runs it with /bin/sh once per case (step size or tolerance), and
// reads back the trajectory it writes (studies/external_run.hpp). docs/external-integrators.md
// documents the placeholders, the initial-state file and the trajectory's columns.

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "integrators/declaration.hpp"

namespace geomint {

struct ExternalCommand {
  Declaration declaration;  // its declared promises; name and description are the UserMethod's
  std::string command;      // the template, e.g. "python3 rk.py --init {init} --out {out}"
  std::filesystem::path directory;  // where it runs (absolute)
  double timeout_s = 600.0;         // a run that lasts longer is killed: CommandTimeout
  // It declares that it conserves the model's momentum maps (as a symplectic method does,
  // which implies it): the momentum verdicts judge it.
  bool momentum = false;
  // The content digest of every file the command reads that the spec names: the words of the
  // command that are files in `directory`, and `files:`. Part of its cases' keys, so that an
  // edited script is never served from a cached result.
  std::map<std::string, std::string> file_digests;
};

/// What a command declares of itself: a spec's method of kind command, `geomint verify`'s
/// options, geomint.verify's arguments.
struct CommandPromises {
  int order = 0;
  bool adaptive = false, symplectic = false, symmetric = false, stays_on_manifold = false, momentum = false;
};

/// The command with its promises as its declaration (family External); it runs in `directory`
/// with the default timeout and no file digests yet.
ExternalCommand external_command(std::string command, const CommandPromises& promises,
                                 std::filesystem::path directory);

/// The placeholders a template may use, each written {name}; {{ and }} are literal braces.
inline constexpr std::string_view kCommandPlaceholders[] = {
    "model", "preset", "params", "init", "out", "work", "state", "t0", "T", "h", "steps", "rtol", "atol"};

/// The placeholders `command` uses, in order of first use; an InputError naming the first
/// unknown or unclosed one.
std::vector<std::string> command_placeholders(std::string_view command);

/// The template with each placeholder replaced by its value in `values` (every one it uses
/// must be there), each value quoted for /bin/sh.
std::string expand_command(std::string_view command, const std::map<std::string, std::string>& values);

/// `text` as one word for /bin/sh: in single quotes, a single quote as '\''.
std::string shell_quoted(std::string_view text);

/// The digests of the files the command names in `directory` (its words that are regular files
/// there or absolute paths of one) and of `files` (relative to `directory`; each must be a
/// regular file, else an InputError naming it), keyed by the path as written.
std::map<std::string, std::string> command_file_digests(std::string_view command,
                                                         const std::filesystem::path& directory,
                                                         const std::vector<std::string>& files);

}  // namespace geomint
