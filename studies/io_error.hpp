#pragma once
// An input/output failure (disk full, an unwritable or unreadable path): exit status 4, the
// path and the system's reason named. Bad input is an InputError (exit 2) instead.

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace geomint {

class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// "cannot <what> <path>: <the system's reason for errno>".
inline IoError io_error(const std::string& what, const std::string& path, int error = errno) {
  return IoError("cannot " + what + " " + path + ": " + std::strerror(error));
}

}  // namespace geomint
