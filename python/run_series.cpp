#include "python/run_series.hpp"

#include <pybind11/pybind11.h>

#include <cstdio>

#include "errors/exit_status_errors.hpp"

namespace geomint::python {

namespace {
/// How many output points pass between two looks for a pending signal.
constexpr long long kSignalInterval = 1024;
}  // namespace

void RunSeries::start(const std::vector<std::string>& state_columns,
                      const std::vector<std::string>& invariant_columns,
                      const std::vector<std::string>& output_columns) {
  state_names = state_columns;
  invariant_names = invariant_columns;
  output_names = output_columns;
  invariants.assign(invariant_names.size(), {});
  outputs.assign(output_names.size(), {});
}

double RunSeries::bytes(double rows) const {
  return rows *
         static_cast<double>(1 + state_names.size() + invariant_names.size() +
                             output_names.size()) *
         static_cast<double>(sizeof(double));
}

void RunSeries::add(double time, const Eigen::VectorXd& y, const std::vector<double>& inv,
                    const std::vector<double>& out) {
  if (points_ % kSignalInterval == kSignalInterval - 1) {
    pybind11::gil_scoped_acquire gil;
    if (PyErr_CheckSignals() != 0) throw Interrupted{};
  }
  held_ = points_++ % every_ != 0;
  if (!held_) return keep(time, y, inv, out);
  held_t_ = time;
  held_y_ = y;
  held_invariants_ = inv;
  held_outputs_ = out;
}

void RunSeries::finish() {
  if (held_) keep(held_t_, held_y_, held_invariants_, held_outputs_);
  held_ = false;
}

void RunSeries::keep(double time, const Eigen::VectorXd& y, const std::vector<double>& inv,
                     const std::vector<double>& out) {
  if (bytes(static_cast<double>(t.size() + 1)) > max_bytes_) {
    char text[160];
    std::snprintf(text, sizeof text, "the result passes max_output = %.0f bytes after %zu points",
                  max_bytes_, t.size());
    throw TooMuchWork(time, text);
  }
  t.push_back(time);
  state.insert(state.end(), y.data(), y.data() + y.size());
  for (std::size_t i = 0; i < inv.size(); ++i) invariants[i].push_back(inv[i]);
  for (std::size_t i = 0; i < out.size(); ++i) outputs[i].push_back(out[i]);
}

}  // namespace geomint::python
