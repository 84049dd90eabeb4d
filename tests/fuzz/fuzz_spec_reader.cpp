// libFuzzer target: the study-spec reader (studies/spec.hpp) on any text. Its contract: it
// returns a spec or throws InputError. Any other exception (libFuzzer reports it as a crash,
// "deadly signal" after std::terminate), a crash, a leak, undefined behaviour, a timeout or an
// allocation beyond libFuzzer's limits is a finding. Run by scripts/fuzz.

#include <cstddef>
#include <cstdint>
#include <string>

#include "errors/exit_status_errors.hpp"
#include "studies/spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    static_cast<void>(geomint::parse_study_spec(text, "fuzz.yaml"));
  } catch (const geomint::InputError&) {
  }
  return 0;
}
