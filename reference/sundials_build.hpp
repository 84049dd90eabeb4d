#pragma once
// Which SUNDIALS this binary uses, for result manifests.

#include <string>

namespace geomint {

/// SUNDIALS' own version string, e.g. "6.4.1".
std::string sundials_version();

/// Which build of SUNDIALS the process has loaded.
struct SundialsBuild {
  /// "debian (unoptimised)" for Debian's libsundials-dev, "source -O3 (<prefix>)" for
  /// scripts/build-sundials; when a library was loaded from elsewhere than the build it was
  /// linked against (LD_LIBRARY_PATH, a static copy), it says which and from where.
  std::string description;
  /// False for Debian's package, which is compiled without optimisation (CVODE and ARKODE run up
  /// to ~3x slower), and for a build this binary cannot vouch for.
  bool optimised = false;
};

/// Decided by the libraries the process has loaded, not only by how it was configured
/// (GEOMINT_SUNDIALS_PREFIX), so that a result manifest cannot claim a build it did not use.
SundialsBuild sundials_build();

}  // namespace geomint
