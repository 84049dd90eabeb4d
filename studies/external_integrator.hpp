#pragma once
// An external integrator's command (studies/external_command.hpp) behind the run-time face of
// an integrator on a model (catalogue/integrator_on_model.hpp), so that the case runner gives
// it the treatment of a built-in one: its output points observed (invariants, manifold
// defects, long-time statistics, the series), its final state against the reference, its
// steps forward and back for a symmetric one. One call of integrate(), or of steps(), is one
// run of the command (studies/external_run.hpp); its cost is the command's CPU time.

#include <cmath>
#include <limits>

#include "catalogue/integrator_on_model.hpp"
#include "errors/exit_status_errors.hpp"
#include "integrators/step_count.hpp"
#include "studies/external_run.hpp"

namespace geomint {

template <Model M>
class ExternalIntegrator final : public IntegratorOnModel<M> {
 public:
  using State = typename M::State;
  using Observer = typename IntegratorOnModel<M>::Observer;

  /// `inputs` gives the model, preset, parameters, layout and an adaptive run's tolerances and
  /// step cap (kept by reference: they outlive the integrator); `control` the step or the
  /// tolerances.
  ExternalIntegrator(const ExternalCommand& command, ExternalRunInputs inputs, const StepControl& control)
      : command_(command), inputs_(std::move(inputs)) {
    if (const auto* fixed = std::get_if<FixedStep>(&control)) h_ = fixed->h;
    else {
      const auto& tolerances = std::get<Tolerances>(control);
      inputs_.rtol = tolerances.rtol;
      inputs_.atol = tolerances.atol;
    }
  }

  void step(double t, State& y, double h) override { steps(t, y, h, 1); }
  void steps(double t, State& y, double h, std::int64_t n) override {
    run(y, t, t + static_cast<double>(n) * h, h, n, [](double, const State&) {});
  }
  /// The whole run to T is its one step.
  void advance(double& t, State& y, double T, const Observer& observe) override {
    integrate(y, t, T, observe, inputs_.max_steps);
    t = T;
  }
  void integrate(State& y, double t0, double T, const Observer& observe, double max_steps) override {
    if (std::isnan(h_)) {
      inputs_.max_steps = max_steps;
      run(y, t0, T, std::nullopt, 0, observe);
      return;
    }
    const double count = fixed_step_count(T - t0, h_);
    if (!(count <= max_steps))
      throw TooMuchWork(t0, "h over [t0, T] is more than the " + std::to_string(static_cast<long long>(max_steps)) +
                                " steps of max_steps");
    run(y, t0, T, h_, static_cast<std::int64_t>(count), observe);
  }
  void integrate(State& y, double t0, double T, double max_steps) override {
    integrate(y, t0, T, [](double, const State&) {}, max_steps);
  }
  Work work() const override { return work_; }
  double last_step() const override { return std::numeric_limits<double>::quiet_NaN(); }
  double cpu_seconds_outside() const override { return cpu_s_; }

 private:
  /// One run of the command from (t0, y) to T: its work counted, every row it wrote observed,
  /// then the failure met reading them thrown, if any; y is the last row's state.
  template <class Observe>
  void run(State& y, double t0, double T, std::optional<double> h, std::int64_t steps, const Observe& observe) {
    inputs_.initial = y;
    inputs_.t0 = t0;
    inputs_.T = T;
    inputs_.h = h;
    inputs_.steps = steps;
    const ExternalRunResult r = run_external(command_, inputs_);
    work_.steps += r.work.steps;
    work_.rejected += r.work.rejected;
    work_.f_evals = work_.f_evals < 0 || r.work.f_evals < 0 ? -1 : work_.f_evals + r.work.f_evals;
    work_.nonlinear_iterations += r.work.nonlinear_iterations;
    work_.exponentials += r.work.exponentials;
    cpu_s_ = (std::isnan(cpu_s_) ? 0.0 : cpu_s_) + r.cpu_s;
    const Eigen::Index n = r.trajectory.states.cols();
    for (Eigen::Index k = 0; k < n; ++k) {
      y = r.trajectory.states.col(k);
      observe(r.trajectory.times[static_cast<std::size_t>(k)], static_cast<const State&>(y));
    }
    if (r.trajectory.failure) std::rethrow_exception(r.trajectory.failure);
  }

  const ExternalCommand& command_;
  ExternalRunInputs inputs_;
  double h_ = std::numeric_limits<double>::quiet_NaN();
  Work work_;
  double cpu_s_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace geomint
