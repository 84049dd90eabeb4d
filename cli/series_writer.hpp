#pragma once
// The CSV series `geomint run` writes (cli/run_command.cpp), thinned by --every N or
// --output-times.

#include <Eigen/Core>
#include <cmath>
#include <string>
#include <vector>

#include "errors/exit_status_errors.hpp"
#include "studies/atomic_file.hpp"
#include "studies/result_files.hpp"

namespace geomint::cli {

/// Which output points a run writes: every Nth (and always the first and the last), or the first
/// output point at or after each of a list of times (`listed`, increasing) or of `count` uniform
/// times start, start + step, ... (held as three numbers: --output-times 0:1e-3:1e6 is 10^9 times).
/// A point within 10^-9 of a step before a listed time counts as at it (k h rounds either way).
struct OutputSelection {
  long long every = 1;
  std::vector<double> listed;
  double start = 0.0, step = 0.0;
  long long count = 0;  // of the uniform times

  bool by_time() const { return !listed.empty() || count > 0; }
  long long times() const { return listed.empty() ? count : static_cast<long long>(listed.size()); }
  double time(long long k) const {
    return listed.empty() ? start + static_cast<double>(k) * step : listed[static_cast<std::size_t>(k)];
  }
  /// The rows a fixed-step run of `steps` steps writes, at most.
  double rows(double steps) const {
    if (by_time()) return static_cast<double>(times());
    return std::ceil(steps / static_cast<double>(every)) + 1.0;
  }
};

/// The CSV series of a run: the header, then the output points the selection asks for, each row
/// refused past the output cap with TooMuchWork. At --every N the last point is held back until
/// finish() when the stride passes over it; holding it copies into vectors of the same sizes,
/// which does not allocate.
class SeriesWriter {
 public:
  SeriesWriter(AtomicFile& out, double max_output, OutputSelection selection)
      : out_(out), max_output_(max_output), selection_(std::move(selection)) {}

  void header(const std::vector<std::string>& state, const std::vector<std::string>& inv,
              const std::vector<std::string>& outputs) {
    row_ = "t";
    for (const auto* names : {&state, &inv, &outputs})
      for (const auto& c : *names) row_ += "," + c;
    out_.write(row_ + "\n");
  }

  void point(double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
             const std::vector<double>& outputs) {
    if (selection_.by_time()) return timed_point(t, y, inv, outputs);
    held_ = points_++ % selection_.every != 0;
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
  void timed_point(double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
                   const std::vector<double>& outputs) {
    const double slack = points_++ == 0 ? 0.0 : 1e-9 * (t - t_);
    t_ = t;
    if (next_ >= selection_.times() || t < selection_.time(next_) - slack) return;
    write(t, y, inv, outputs);
    while (next_ < selection_.times() && selection_.time(next_) - slack <= t) ++next_;
  }

  void write(double t, const Eigen::VectorXd& y, const std::vector<double>& inv,
             const std::vector<double>& outputs) {
    row_ = csv_number(t);
    const auto cell = [this](double v) {
      row_ += ',';
      row_ += csv_number(v);
    };
    for (Eigen::Index i = 0; i < y.size(); ++i) cell(y(i));
    for (const auto* values : {&inv, &outputs})
      for (double v : *values) cell(v);
    row_ += '\n';
    if (static_cast<double>(out_.size() + row_.size()) > max_output_)
      throw TooMuchWork(t, "the output reached the cap of " + csv_number(max_output_) + " bytes (--max-output)");
    out_.write(row_);
  }

  AtomicFile& out_;
  double max_output_;
  OutputSelection selection_;
  long long points_ = 0;  // the output points so far, t0 the 0th
  long long next_ = 0;    // the next output time to write a point for
  std::string row_;
  bool held_ = false;  // the last point is held back, not written
  double t_ = 0.0;     // the held point's, or the previous point's, time
  Eigen::VectorXd y_;
  std::vector<double> inv_, outputs_;
};

}  // namespace geomint::cli
