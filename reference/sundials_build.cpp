#include "reference/sundials_build.hpp"

#include <arkode/arkode_arkstep.h>
#include <cvode/cvode.h>
#include <dlfcn.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_version.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <array>
#include <filesystem>
#include <utility>

// reference/CMakeLists.txt defines GEOMINT_SUNDIALS_PREFIX (empty for Debian's package) and
// GEOMINT_SUNDIALS_LIBDIR, the folder of the SUNDIALS libraries the binary was linked against.

namespace geomint {
namespace {

/// The folder, symbolic links resolved, of the loaded object that defines `symbol`.
std::filesystem::path loaded_from(const void* symbol) {
  Dl_info info{};
  if (dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code error;
  const auto file = std::filesystem::canonical(info.dli_fname, error);
  return (error ? std::filesystem::path(info.dli_fname) : file).parent_path();
}

}  // namespace

std::string sundials_version() {
  std::array<char, 64> version{};
  if (SUNDIALSGetVersion(version.data(), static_cast<int>(version.size())) != 0) return "unknown";
  return version.data();
}

SundialsBuild sundials_build() {
  // One function from each SUNDIALS library the reference solvers link.
  const std::array<std::pair<const char*, const void*>, 5> libraries{{
      {"cvode", reinterpret_cast<const void*>(&CVodeCreate)},
      {"arkode", reinterpret_cast<const void*>(&ARKStepCreate)},
      {"nvecserial", reinterpret_cast<const void*>(&N_VWrmsNorm_Serial)},
      {"sunmatrixdense", reinterpret_cast<const void*>(&SUNDenseMatrix)},
      {"sunlinsoldense", reinterpret_cast<const void*>(&SUNLinSol_Dense)},
  }};
  std::error_code error;
  const auto linked = std::filesystem::canonical(GEOMINT_SUNDIALS_LIBDIR, error);
  for (const auto& [name, symbol] : libraries) {
    const auto loaded = loaded_from(symbol);
    if (error || loaded != linked) {
      return {std::string("libsundials_") + name + " loaded from " + loaded.string() +
                  ", not from " + GEOMINT_SUNDIALS_LIBDIR + " as linked",
              false};
    }
  }
  const std::string prefix = GEOMINT_SUNDIALS_PREFIX;
  if (prefix.empty()) return {"debian (unoptimised)", false};
  return {"source -O3 (" + prefix + ")", true};
}

}  // namespace geomint
