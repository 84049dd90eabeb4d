#pragma once
// Which SUNDIALS this binary uses, for result manifests.

#include <string>

namespace geomint {

/// SUNDIALS' own version string, e.g. "6.4.1".
std::string sundials_version();
/// Where that SUNDIALS came from: "debian" for Debian's libsundials-dev package.
std::string sundials_build();

}  // namespace geomint
