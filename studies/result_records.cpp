#include "studies/result_records.hpp"

#include <cmath>
#include <cstdio>

#include "studies/result_files.hpp"

namespace geomint {

std::string hash_hex(std::string_view text) {  // FNV-1a, 64 bit
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

namespace {

std::string checksum_of(nlohmann::json record) {
  record.erase("checksum");
  return hash_hex(record.dump());
}

/// The record in `text` if it is a JSON object carrying the checksum of the rest of it.
std::optional<nlohmann::json> unseal(const std::string& text, std::string& problem) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    problem = "not valid JSON (truncated?)";
    return std::nullopt;
  }
  if (!j.is_object()) {
    problem = "not a JSON object";
    return std::nullopt;
  }
  const auto c = j.find("checksum");
  if (c == j.end() || !c->is_string()) {
    problem = "it has no checksum";
    return std::nullopt;
  }
  if (c->get<std::string>() != checksum_of(j)) {
    problem = "its checksum does not match its content";
    return std::nullopt;
  }
  return j;
}

bool has(const nlohmann::json& j, const char* key, bool (nlohmann::json::*type)() const noexcept) {
  const auto it = j.find(key);
  return it != j.end() && ((*it).*type)();
}

}  // namespace

std::string sealed_record_text(nlohmann::json record) {
  record["checksum"] = checksum_of(record);
  return record.dump(1);
}

std::optional<nlohmann::json> parse_case_record(const std::string& text, const std::string& expected_id,
                                                std::string& problem) {
  auto j = unseal(text, problem);
  if (!j) return std::nullopt;
  if (!has(*j, "case_id", &nlohmann::json::is_string) || (*j)["case_id"] != expected_id) {
    problem = "it is the record of another case";
    return std::nullopt;
  }
  for (const auto& column : cases_csv_columns()) {
    const auto it = j->find(column);
    if (it == j->end() || !(it->is_primitive())) {
      problem = "it has no value for " + column;
      return std::nullopt;
    }
  }
  const bool typed = has(*j, "status", &nlohmann::json::is_string) &&
                     has(*j, "adaptive", &nlohmann::json::is_boolean) &&
                     has(*j, "nominal_order", &nlohmann::json::is_number_integer) &&
                     has(*j, "steps", &nlohmann::json::is_number) &&
                     has(*j, "cpu_s", &nlohmann::json::is_number);
  bool absent_ok = !j->contains("absent") || (*j)["absent"].is_array();
  if (absent_ok && j->contains("absent"))
    for (const auto& a : (*j)["absent"]) absent_ok = absent_ok && a.is_string();
  if (!typed || !absent_ok) {
    problem = "a value has the wrong type";
    return std::nullopt;
  }
  return j;
}

std::string reference_record_text(const ReferenceSolution& reference, const nlohmann::json& inputs,
                                  const std::string& description) {
  nlohmann::json j;
  j["inputs"] = inputs;
  j["final_state"] = std::vector<double>(reference.final_state.data(),
                                         reference.final_state.data() + reference.final_state.size());
  j["error_estimate"] = json_number(reference.error_estimate);
  j["description"] = description;
  return sealed_record_text(std::move(j));
}

std::optional<ReferenceSolution> parse_reference_record(const std::string& text,
                                                        const nlohmann::json& inputs,
                                                        std::string& problem) {
  const auto j = unseal(text, problem);
  if (!j) return std::nullopt;
  if (!j->contains("inputs") || (*j)["inputs"] != inputs) {
    problem = "it was computed for other inputs";
    return std::nullopt;
  }
  const auto it = j->find("final_state");
  if (it == j->end() || !it->is_array() || it->empty()) {
    problem = "it has no final state";
    return std::nullopt;
  }
  ReferenceSolution r;
  r.final_state.resize(static_cast<Eigen::Index>(it->size()));
  for (std::size_t i = 0; i < it->size(); ++i) {
    const auto& v = (*it)[i];
    if (!v.is_number() || !std::isfinite(v.get<double>())) {
      problem = "its final state is not finite numbers";
      return std::nullopt;
    }
    r.final_state(static_cast<Eigen::Index>(i)) = v.get<double>();
  }
  const auto e = j->find("error_estimate");
  if (e == j->end() || !(e->is_number() || e->is_null())) {
    problem = "it has no error estimate";
    return std::nullopt;
  }
  r.error_estimate = number_from_json(*e);
  return r;
}

}  // namespace geomint
