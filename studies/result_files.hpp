#pragma once
// Writing result files (atomically: studies/atomic_file.hpp): CSV cells, and the per-case JSON records that
// cases.csv is assembled from (docs/result-files.md).

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "studies/case.hpp"
#include "studies/metrics.hpp"

namespace geomint {

/// A number as a CSV cell: the shortest text that reads back as the same double (std::to_chars),
/// "nan" for NaN; an empty cell for `absent`.
std::string csv_number(double v, bool absent = false);
/// A number as a reason or message shows it: three significant digits ("%.3g").
std::string short_number(double v);
/// A text CSV cell, quoted when it holds a comma, quote or newline.
std::string csv_text(const std::string& s);

/// JSON with NaN as null, and back.
nlohmann::json json_number(double v);
/// A number not known (written as null).
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
double number_from_json(const nlohmann::json& j);

/// The record of one finished case (its spec, its result, and derived columns).
nlohmann::json case_record(const std::string& case_id, const CaseSpec& spec,
                           const CaseResult& result, double reference_err,
                           bool below_reference);

/// The series of a case as CSV text.
std::string series_csv(const std::vector<SeriesDecimator::Row>& rows);

/// The columns of cases.csv, each a member of a case record; the header; one row from a record.
const std::vector<std::string>& cases_csv_columns();
std::string cases_csv_header();
std::string cases_csv_row(const nlohmann::json& record);

}  // namespace geomint
