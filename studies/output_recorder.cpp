#include "studies/output_recorder.hpp"

#include <algorithm>
#include <cmath>

#include "studies/metrics.hpp"
#include "studies/result_files.hpp"

namespace geomint {

namespace {
std::string row_text(double t, const std::vector<double>& values) {
  std::string row = csv_number(t);
  for (double v : values) row.append(",").append(csv_number(v));
  return row.append("\n");
}
}  // namespace

OutputRecorder::OutputRecorder(double T, int bins) : T_(T), bins_(bins) {}

void OutputRecorder::start(const std::vector<std::string>& names) {
  std::string header = "t";
  for (const auto& name : names) header.append(",").append(name);  // no commas (models/outputs.hpp)
  text_ = std::move(header) + "\n";
}

void OutputRecorder::add(double t, const std::vector<double>& values) {
  const long bin = T_ > 0.0 ? std::clamp(static_cast<long>(std::floor(bins_ * t / T_)), 0L,
                                         static_cast<long>(bins_ - 1))
                            : 0L;
  if (bin != current_) {
    if (current_ >= 0) text_ += row_text(open_t_, open_);
    current_ = bin;
    open_t_ = t;
    open_ = values;
    return;
  }
  open_t_ = t;
  for (std::size_t k = 0; k < open_.size(); ++k) open_[k] = larger_magnitude(open_[k], values[k]);
}

std::string OutputRecorder::csv() const {
  return current_ >= 0 ? text_ + row_text(open_t_, open_) : text_;
}

}  // namespace geomint
