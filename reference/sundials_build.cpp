#include "reference/sundials_build.hpp"

#include <sundials/sundials_version.h>

#include <array>

namespace geomint {

std::string sundials_version() {
  std::array<char, 64> version{};
  if (SUNDIALSGetVersion(version.data(), static_cast<int>(version.size())) != 0) return "unknown";
  return version.data();
}

std::string sundials_build() { return "debian"; }

}  // namespace geomint
