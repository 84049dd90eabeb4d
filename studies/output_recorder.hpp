#pragma once
// A model's named outputs (models/outputs.hpp) over a run, for a study's `outputs` plot
// (series/<case_id>-outputs.csv), decimated as the series are (SeriesDecimator): the output
// points fall into `bins` equal time bins of [0, T] and each bin gives one row, its last output
// time and, per output, its value of largest magnitude, so that a short peak of a tracking
// error is not lost between the rows kept.

#include <string>
#include <vector>

namespace geomint {

class OutputRecorder {
 public:
  explicit OutputRecorder(double T, int bins = 2000);
  /// The outputs' names (the CSV columns after t), before the first point.
  void start(const std::vector<std::string>& names);
  void add(double t, const std::vector<double>& values);
  /// t, then one column per output; the open bin included.
  std::string csv() const;

 private:
  double T_;
  int bins_;
  long current_ = -1;
  double open_t_ = 0.0;
  std::vector<double> open_;
  std::string text_;  // the header and the finished rows
};

}  // namespace geomint
