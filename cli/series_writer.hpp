#pragma once
// The CSV series `geomint run` writes (cli/run_command.cpp), thinned by --every N.

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "studies/atomic_file.hpp"
#include "studies/result_files.hpp"

namespace geomint::cli {

/// The rows a fixed-step run of `steps` steps writes at --every N: t0, every Nth step, the last.
inline double rows_written(double steps, long long every) {
  return std::ceil(steps / static_cast<double>(every)) + 1.0;
}

/// The CSV series of a run: the header, then the first, every Nth and the last output point
/// (--every N), each row refused past the output cap with TooMuchWork. The last point is held
/// back until finish() when the stride passes over it; holding it copies into vectors of the
/// same sizes, which does not allocate.
class SeriesWriter {
 public:
  SeriesWriter(AtomicFile& out, double max_output, long long every)
      : out_(out), max_output_(max_output), every_(every) {}

  void header(const std::vector<std::string>& state, const std::vector<std::string>& inv,
              const std::vector<std::string>& outputs) {
    row_ = "t";
    for (const auto* names : {&state, &inv, &outputs})
      for (const auto& c : *names) row_ += "," + c;
    out_.write(row_ + "\n");
  }

  void point(double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
             const std::vector<double>& outputs) {
    held_ = points_++ % every_ != 0;
    if (!held_) return write(t, y, inv, outputs);
    t_ = t;
    y_ = y;
    inv_ = inv;
    outputs_ = outputs;
  }

  /// Writes the last output point if the stride passed over it.
  void finish() {
    if (held_) write(t_, y_, inv_, outputs_);
    held_ = false;
  }

 private:
  void write(double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
             const std::vector<double>& outputs) {
    row_ = csv_number(t);
    for (Eigen::Index i = 0; i < y.size(); ++i) row_ += "," + csv_number(y(i));
    for (const auto* values : {&inv, &outputs})
      for (double v : *values) row_ += "," + csv_number(v);
    row_ += "\n";
    if (static_cast<double>(out_.size() + row_.size()) > max_output_)
      throw TooMuchWork(t, "the output reached the cap of " + csv_number(max_output_) + " bytes (--max-output)");
    out_.write(row_);
  }

  AtomicFile& out_;
  double max_output_;
  long long every_;
  long long points_ = 0;  // the output points so far, t0 the 0th
  std::string row_;
  bool held_ = false;  // the last point is held back, not written
  double t_ = 0.0;
  Eigen::VectorXd y_;
  std::vector<double> inv_, outputs_;
};

}  // namespace geomint::cli
