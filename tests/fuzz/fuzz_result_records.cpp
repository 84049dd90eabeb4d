// libFuzzer target: the readers of the records a result folder keeps between runs
// (studies/result_records.hpp: cases/<id>.json, references/<id>.json). Their contract: for any
// text they return the record or null with the problem named, and never throw; an exception
// (libFuzzer reports it as a crash, "deadly signal" after std::terminate), a crash, a leak,
// undefined behaviour, a timeout or an allocation beyond libFuzzer's limits is a finding.
//
// Each input is read twice: as it is (the seal, the JSON), and, when it is a JSON object,
// sealed again with its own checksum, with the expected case id and reference inputs taken
// from it, so that the checks past the seal are reached too (a mutated record almost never
// carries a matching checksum). Run by scripts/fuzz.

#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "studies/result_records.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string problem;
  static_cast<void>(geomint::parse_case_record(text, "0123456789abcdef", problem));
  static_cast<void>(geomint::parse_reference_record(text, nlohmann::json::object(), problem));

  nlohmann::json record = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!record.is_object()) return 0;
  record.erase("checksum");
  const auto id = record.find("case_id");
  const std::string expected_id = id != record.end() && id->is_string() ? id->get<std::string>() : "";
  const auto in = record.find("inputs");
  const nlohmann::json inputs = in != record.end() ? *in : nlohmann::json();
  const std::string sealed = geomint::sealed_record_text(record);
  static_cast<void>(geomint::parse_case_record(sealed, expected_id, problem));
  static_cast<void>(geomint::parse_reference_record(sealed, inputs, problem));
  return 0;
}
