#pragma once
// The study's tables, written from its case records once every case has finished:
// cases.csv, orders.csv, verdicts.csv, and reproduction.csv and claims.csv where the spec has
// published rows or claims (docs/result-files.md).

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/convergence.hpp"
#include "studies/spec.hpp"

namespace geomint {

void write_study_tables(const std::filesystem::path& dir, const StudySpec& spec,
                        const std::vector<nlohmann::json>& records,
                        const std::map<std::string, ErrorScale>& error_scales);

}  // namespace geomint
