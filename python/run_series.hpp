#pragma once
// What geomint.run keeps of a run: t, the state, the invariants and the model's named outputs at
// every output point, or every Nth (and always the last), up to a cap on their bytes. Filled by
// the case's output hook with the GIL released; it takes the GIL only to look for a pending signal
// (Ctrl-C), and throws Interrupted when there is one.

#include <Eigen/Core>
#include <string>
#include <vector>

namespace geomint::python {

/// A signal is pending in Python (its exception is set): the run stops and the exception is raised.
struct Interrupted {};

class RunSeries {
 public:
  RunSeries(long long every, double max_bytes) : every_(every), max_bytes_(max_bytes) {}

  void start(const std::vector<std::string>& state, const std::vector<std::string>& invariants,
             const std::vector<std::string>& outputs);
  /// The bytes `rows` output points take.
  double bytes(double rows) const;
  void add(double t, const Eigen::VectorXd& y, const std::vector<double>& invariants,
           const std::vector<double>& outputs);
  /// Keeps the last output point if the stride passed over it.
  void finish();

  std::vector<std::string> state_names, invariant_names, output_names;
  std::vector<double> t, state;                          // state: row after row
  std::vector<std::vector<double>> invariants, outputs;  // one vector per name

 private:
  void keep(double time, const Eigen::VectorXd& y, const std::vector<double>& inv,
            const std::vector<double>& out);

  long long every_;
  double max_bytes_;
  long long points_ = 0;
  bool held_ = false;
  double held_t_ = 0.0;
  Eigen::VectorXd held_y_;
  std::vector<double> held_invariants_, held_outputs_;
};

}  // namespace geomint::python
