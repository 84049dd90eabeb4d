// geomint.study: a study spec (studies/*.yaml) run into a result folder by the study engine, as
// `geomint study` (cli/study_command.cpp), and the folder's cases and verdicts read back.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "python/arrays.hpp"
#include "python/module_parts.hpp"
#include "studies/engine.hpp"
#include "studies/spec.hpp"

namespace py = pybind11;
using namespace pybind11::literals;

namespace geomint::python {

namespace {

/// The whole text is a number (an empty cell is a missing one, NaN).
bool read_number(const std::string& text, double& value) {
  if (text.empty()) {
    value = std::nan("");
    return true;
  }
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

/// A result file's columns by name (docs/result-files.md): a column whose every cell is a number
/// as a float64 array, any other as a list of str. The case id, a hash in hex, can be all
/// digits, and stays text.
py::dict read_columns(const std::string& path) {
  py::object file =
      py::module_::import("builtins").attr("open")(path, "newline"_a = "", "encoding"_a = "utf-8");
  py::list rows;
  try {
    rows = py::list(py::module_::import("csv").attr("reader")(file));
  } catch (...) {
    file.attr("close")();
    throw;
  }
  file.attr("close")();
  py::dict columns;
  if (rows.empty()) return columns;
  const auto header = rows[0].cast<std::vector<std::string>>();
  for (std::size_t c = 0; c < header.size(); ++c) {
    std::vector<std::string> cells;
    for (std::size_t r = 1; r < rows.size(); ++r) {
      const auto row = rows[r].cast<std::vector<std::string>>();
      cells.push_back(c < row.size() ? row[c] : std::string());
    }
    Eigen::VectorXd numbers(static_cast<Eigen::Index>(cells.size()));
    bool numeric = header[c] != "case_id";
    for (std::size_t i = 0; numeric && i < cells.size(); ++i)
      numeric = read_number(cells[i], numbers[static_cast<Eigen::Index>(i)]);
    if (numeric)
      columns[py::str(header[c])] = to_array(numbers);
    else
      columns[py::str(header[c])] = py::cast(cells);
  }
  return columns;
}

py::dict study(const std::string& spec_path, const std::string& out, int jobs, bool progress) {
  const StudyOptions options{.out_dir = out, .jobs = jobs, .progress = progress};
  const StudySpec spec = load_study_spec(spec_path);
  StudySummary s;
  {
    py::gil_scoped_release release;
    s = run_study(spec, options);
  }
  const std::string folder = options.out_dir;
  return py::dict(
      "folder"_a = folder,
      "summary"_a = py::dict("cases"_a = s.cases, "resumed"_a = s.resumed, "failed"_a = s.failed,
                             "not_applicable"_a = s.not_applicable, "added"_a = s.added),
      "cases"_a = read_columns(folder + "/cases.csv"),
      "verdicts"_a = read_columns(folder + "/verdicts.csv"));
}

}  // namespace

void bind_study(py::module_& m) {
  m.def("study", &study, "spec"_a, "out"_a, py::kw_only(), "jobs"_a = 0, "progress"_a = true,
        "Run a study spec (studies/*.yaml) into the result folder out, as `geomint study` (an\n"
        "interrupted study resumes there; docs/result-files.md). jobs: worker threads (0: one per\n"
        "hardware thread); progress: the progress line on stderr. Returns a dict: folder; summary\n"
        "(cases, resumed, failed, not_applicable, added); cases and verdicts, the columns of "
        "cases.csv\n"
        "and verdicts.csv by name (numbers as float64 arrays, an empty cell NaN; text as lists).");
}

}  // namespace geomint::python
