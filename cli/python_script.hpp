#pragma once
// Running one of the Python programs in reports/ on Debian's Python, which is where
// python3-matplotlib lives (build_info::kPython), with -B so that no __pycache__ lands in the
// source tree.

#include <string>
#include <vector>

namespace geomint::cli {

/// Runs reports/<script> with `arguments` and returns its exit status (its one line of error
/// is on standard error). InputError if the script is missing, IoError if Python cannot start.
int run_report_script(const std::string& script, const std::vector<std::string>& arguments);

}  // namespace geomint::cli
