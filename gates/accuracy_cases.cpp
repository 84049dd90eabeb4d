// The accuracy gate's cases (scripts/accuracy-gate, gates/README.md): fitted convergence
// orders, energy drift, energy and manifold errors and work counts of a fixed set of runs,
// printed as JSON for comparison with gates/accuracy_answers.json.
//
//   accuracy_cases               {"cases": [{"case": NAME, "kind": KIND, "value": X}, ...]}
//                                (an at_most case also has "limit": L)
//   accuracy_cases --perturb E   the same with every run's initial angular velocities scaled
//                                by 1 + E and every reference's by 1 - E
//   accuracy_cases --break-symplecticity
//                                the same with the symplectic methods of the drift runs made
//                                non-symplectic (Dissipative, below): the test
//                                accuracy_gate_trips_on_drift checks that the gate then fails on
//                                exactly the drift cases
//
// Every number carries a kind, which says how the gate compares it:
//   float    truncation-dominated, so reproducible to 4 significant digits;
//   count    steps or iterations, within 10 %;
//   ceiling  at round-off level (the unit-length error of a method that stays on the sphere):
//            its digits are rounding noise that any reordering of a kernel's arithmetic
//            changes, so only its order of magnitude is held;
//   at_most  a symplectic method's energy drift against its own error band (Cases::drift):
//            drift over the run / band, at most the limit the case carries (5 %), a rule that
//            does not depend on the value at the last update.
// A case is made a float only where a rounding-level change cannot move its 4th digit: the
// runs are short or on integrable models, and the order fits stay far above the reference's
// error. `--perturb` is that check (gates/CMakeLists.txt runs it as the test
// accuracy_cases_robust): a perturbation far larger than a kernel's rounding must leave every
// answer inside the gate's tolerance.

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalogue/integrator_catalogue.hpp"
#include "catalogue/integrator_on_model.hpp"
#include "catalogue/model_types.hpp"
#include "integrators/declaration.hpp"
#include "integrators/integrate.hpp"
#include "integrators/options.hpp"
#include "integrators/work.hpp"
#include "models/model_contract.hpp"
#include "studies/metrics.hpp"
#include "support/energy_ensemble.hpp"
#include "support/model_setup.hpp"

namespace geomint {
namespace {

enum class Kind { Float, Count, Ceiling, AtMost };

constexpr const char* to_string(Kind k) {
  switch (k) {
    case Kind::Float:
      return "float";
    case Kind::Count:
      return "count";
    case Kind::Ceiling:
      return "ceiling";
    case Kind::AtMost:
      return "at_most";
  }
  return "?";
}

struct Answer {
  std::string name;
  Kind kind;
  double value;
  double limit = 0.0;  // an at_most case's
};

/// The drift rule: a symplectic method's energy drift over the run is at most 5 % of its error
/// band (Cases::drift), as the conservation tests ask (tests/support/energy_ensemble.hpp).
constexpr double kDriftOverBandLimit = testing::kDriftOverBandLimit;

/// What --break-symplecticity does to a symplectic integrator I: after each of its steps the
/// angular velocities are scaled by 1 - h^4. The map is then no longer symplectic (it contracts
/// the velocities, so phase-space volume, by a factor 1 - h^4 per step: a dissipation) while
/// every other property stays: the state is on TS^2 and the order is unchanged. At h = 0.01 the
/// scaling (1e-8) is a hundredth of a second-order method's local error (h^3), a loss of
/// symplecticity far smaller than the truncation error, which the drift rule still catches.
template <class I>
class Dissipative {
  static_assert(!I::declaration.adaptive, "a fixed-step method: h^4 is of its step");

 public:
  using State = typename I::State;
  static constexpr Declaration declaration = [] {
    Declaration d = I::declaration;
    d.symplectic = false;
    return d;
  }();

  explicit Dissipative(const typename I::Model& model) : inner_(model) {}
  const Work& work() const { return inner_.work(); }
  void step(double t, State& y, double h) {
    inner_.step(t, y, h);
    y.tail(y.size() / 2) *= 1.0 - h * h * h * h;
  }

 private:
  I inner_;
};

/// Which orbit a run follows: member 0 of an ensemble is the preset's own, and every run but
/// the drift runs' is member 0 of 1.
struct Orbit {
  int member = 0, of = 1;
};

/// One run of an integrator from a preset's initial condition, with what the cases read from
/// it: the energy error at every output time, the largest unit-length defect, the work.
struct Run {
  std::vector<double> t, energy_error;
  double unit_length_max = 0.0;
  Work work;
};

class Cases {
 public:
  Cases(double perturbation, bool break_symplecticity)
      : perturbation_(perturbation), break_symplecticity_(break_symplecticity) {}

  const std::vector<Answer>& answers() const { return answers_; }

  /// The least-squares order of the global error at T over three halvings of h0 (four step
  /// sizes), fitted as the order tests fit it (fit_order). h0 is chosen so that the smallest
  /// error is above 1e-7, a million times the reference's error estimate: a change of 1e-11 in
  /// an error moves the order by less than 1e-4, a tenth of the gate's tolerance, so the 4th digit
  /// is the truncation error's. The reference is classical RK4 at h = T / 2^15, not CVODE as
  /// in the order tests: its error estimate (the difference from RK4 at twice the step, some
  /// 16 times its error, plus round-off) is below 1e-12, and, having no step or order decisions
  /// that a rounding change could flip, it moves with a kernel's rounding only by that rounding.
  /// A fit that would drop a point is refused.
  template <class Model, class Integrator>
  void order(const std::string& preset, double T, double h0) {
    const auto s = testing::make_setup<Model>(preset);
    typename Model::State y_ref = s.initial;
    perturb(y_ref, -1.0);
    const auto reference_at = [&](double h) {
      const FixedStep step{h};
      return testing::final_state<ExplicitRk<Rk4Method, Model>>(s.model, y_ref, step, T);
    };
    const double h_ref = T / 32768;
    const auto reference = reference_at(h_ref);
    const double reference_error = (reference - reference_at(2 * h_ref)).norm();
    typename Model::State y0 = s.initial;
    perturb(y0, 1.0);
    std::vector<std::pair<double, double>> points;
    for (double h : {h0, h0 / 2, h0 / 4, h0 / 8}) {
      const FixedStep step{h};
      points.emplace_back(h,
                          (testing::final_state<Integrator>(s.model, y0, step, T) - reference).norm());
    }
    const OrderFit fit = fit_order(points, reference_error);
    const std::string name = label<Model>(preset, Integrator::declaration.name) + "/T=" +
                             number(T) + "/h0=" + number(h0) + "/order";
    if (fit.used != fit.total) {
      std::string table;
      for (const auto& [h, e] : points) table += " h=" + number(h) + " err=" + number(e);
      throw std::runtime_error(name + ": the fit dropped points (" + fit.note +
                               "; reference error " + number(reference_error) + ";" + table +
                               "); choose a larger h0");
    }
    add(name, Kind::Float, fit.order);
  }

  /// The largest energy error of a run at step h to T, a float (bounded for a symplectic
  /// method, and truncation-dominated either way), and for a method that is not symplectic its
  /// batch-means energy-drift slope (studies/metrics.hpp), a float too. A symplectic method's
  /// drift is a case of its own, drift().
  template <class Model, class Integrator>
  void energy(const std::string& preset, double h, double T) {
    const Run r = run<Model, Integrator>(preset, h, T);
    const std::string name =
        label<Model>(preset, Integrator::declaration.name) + "/h=" + number(h) + "/T=" + number(T);
    if constexpr (!Integrator::declaration.symplectic)
      add(name + "/energy_drift", Kind::Float, batch_means_drift(r.t, r.energy_error).slope);
    add(name + "/energy_err_max", Kind::Float, band(r));
  }

  /// The drift rule of a symplectic method (at_most, limit kDriftOverBandLimit): the energy
  /// drift over the run relative to the run's own error band,
  ///   drift / band = |mean over orbits of s_m| T / (mean over orbits of max_t |E_m(t) - E_m(0)|),
  /// s_m the batch-means drift slope (studies/metrics.hpp) of orbit m, integrated at step h to
  /// T. A symplectic method's energy error stays in a band of width O(h^p) with no trend, so
  /// the fitted slope is what the band's oscillation leaves over T and the ratio shrinks as T
  /// grows; a method that drifts moves the energy by a fixed fraction of the band or more. On
  /// an integrable model (spherical pendulum) one orbit is enough: at T = 200 the VIs read
  /// 0.4 %, RK2 and RK4 75 %. On a chaotic one the error wanders as the orbit visits different
  /// regions, and one orbit is too noisy (LLM Example 1: the implicit VI reads 2 %, 7 % and 6 %
  /// over T = 10, 100 and 1000); its drift is the mean over `orbits` orbits, built as the
  /// ensemble of tests/support/energy_ensemble.hpp (initial_state): 24 orbits over
  /// T = 200 read 0.7-1.8 % for the implicit VI (16 perturbed ensembles), 36 % for RK2, 55 %
  /// for RK4. With --break-symplecticity the method is run Dissipative.
  template <class Model, class Integrator>
  void drift(const std::string& preset, double h, double T, int orbits = 1) {
    static_assert(Integrator::declaration.symplectic, "the drift rule is for symplectic methods");
    double mean_slope = 0.0, mean_band = 0.0;
    for (int m = 0; m < orbits; ++m) {
      const Run r = break_symplecticity_
                        ? run<Model, Dissipative<Integrator>>(preset, h, T, {m, orbits})
                        : run<Model, Integrator>(preset, h, T, {m, orbits});
      mean_slope += batch_means_drift(r.t, r.energy_error).slope / orbits;
      mean_band += band(r) / orbits;
    }
    const std::string name =
        label<Model>(preset, Integrator::declaration.name) + "/h=" + number(h) + "/T=" + number(T) +
        (orbits > 1 ? "/orbits=" + std::to_string(orbits) : "") + "/energy_drift_over_band";
    add(name, Kind::AtMost, std::abs(mean_slope) * T / mean_band, kDriftOverBandLimit);
  }

  /// The largest unit-length defect max |‖q_i‖ - 1| of a run (a ceiling for a method that stays
  /// on the sphere), and its work: steps for an adaptive method, nonlinear iterations for an
  /// implicit one.
  template <class Model, class Integrator>
  void manifold(const std::string& preset, double h, double T) {
    const Run r = run<Model, Integrator>(preset, h, T);
    const bool adaptive = Integrator::declaration.adaptive;
    const std::string name = label<Model>(preset, Integrator::declaration.name) +
                             (adaptive ? "/rtol=" + number(kRtol) : "/h=" + number(h)) +
                             "/T=" + number(T);
    add(name + "/unit_length_err_max",
        Integrator::declaration.stays_on_manifold ? Kind::Ceiling : Kind::Float, r.unit_length_max);
    if (adaptive) add(name + "/steps", Kind::Count, static_cast<double>(r.work.steps));
    if (r.work.nonlinear_iterations > 0)
      add(name + "/nonlinear_iterations", Kind::Count,
          static_cast<double>(r.work.nonlinear_iterations));
  }

  /// Generated from the registry and the catalogue (`every_exercise`): one of our own
  /// integrators on one model, from the model's Exercise (preset, h, T; adaptive methods at
  /// kRtol): the largest manifold defect the model declares (models/model_contract.hpp), held
  /// as a ceiling for a method that declares it stays on the manifold, and an adaptive
  /// method's step count. Unperturbed: a ceiling and a count already allow for rounding.
  /// The integrator is the model's compiled catalogue entry (catalogue/integrator_on_model.hpp).
  template <class Model>
  void exercise(const CompiledIntegrator<Model>& method) {
    const auto s = testing::make_setup<Model>(std::string(Model::kExercise.preset));
    const double T = Model::kExercise.T;
    const auto integrator = method.make(
        s.model, control_for(*method.entry, FixedStep{Model::kExercise.h}, Tolerances{kRtol, kAtol}), 0.0, T);
    typename Model::State y = s.initial;
    double defect = 0.0;
    integrator->integrate(
        y, 0.0, T,
        [&](double, const typename Model::State& x) {
          defect = std::max(defect, max_manifold_defect(s.model, x));
        },
        kNoStepCap);
    const std::string name =
        "exercise/" + label<Model>(std::string(Model::kExercise.preset), method.name());
    if (method.on_model->stays_on_manifold)
      add(name + "/manifold_defect_max", Kind::Ceiling, defect);
    if (method.on_model->adaptive)
      add(name + "/steps", Kind::Count, static_cast<double>(integrator->work().steps));
  }

 private:
  static constexpr double kRtol = 1e-6, kAtol = 1e-9;  // the adaptive runs' tolerances

  template <class Model>
  static std::string label(const std::string& preset, std::string_view integrator) {
    return std::string(Model::kName) + "/" + preset + "/" + std::string(integrator);
  }

  static std::string number(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
  }

  /// max_t |E(t) - E(0)| of a run.
  static double band(const Run& r) {
    double e_max = 0.0;
    for (double e : r.energy_error) e_max = std::max(e_max, std::abs(e));
    return e_max;
  }

  template <class Model, class Integrator>
  Run run(const std::string& preset, double h, double T, Orbit orbit = {}) const {
    const auto s = testing::make_setup<Model>(preset);
    typename Model::State y = initial_state(s, orbit);
    perturb(y, 1.0);
    Run r;
    const double e0 = s.model.energy(y);
    r.work = testing::integrate_either<Integrator>(
        s.model, y, T, FixedStep{h}, Tolerances{kRtol, kAtol}, [&](double t, const typename Model::State& x) {
          r.t.push_back(t);
          r.energy_error.push_back(s.model.energy(x) - e0);
          r.unit_length_max = std::max(r.unit_length_max, Model::unit_length_defect(x));
        });
    return r;
  }

  /// The preset's initial state (member 0), or member `orbit.member` of the ensemble of
  /// `orbit.of` orbits around it that tests/conservation/test_vi_conservation.cpp judges drift
  /// on (tests/support/energy_ensemble.hpp).
  template <class Model>
  static typename Model::State initial_state(const testing::Setup<Model>& s, Orbit orbit) {
    return testing::ensemble_member(s.model, s.initial, orbit.member, orbit.of);
  }

  /// Scales the angular velocities by 1 + sign * perturbation, which keeps the state on TS^2
  /// exactly. Runs take sign +1 and references -1, so that a reference moves apart from the
  /// runs measured against it, as it would under a change of a kernel's rounding.
  template <class State>
  void perturb(State& y, double sign) const {
    y.tail(y.size() / 2) *= 1.0 + sign * perturbation_;
  }

  void add(const std::string& name, Kind kind, double value, double limit = 0.0) {
    answers_.push_back({name, kind, value, limit});
  }

  double perturbation_;
  bool break_symplecticity_;
  std::vector<Answer> answers_;
};

/// The fixed set of cases. Orders on the double pendulum (LLM Example 1, chaotic, so at T = 1)
/// and on Celledoni's N = 5 chain; energy on the spherical pendulum (integrable: a rounding
/// change stays a rounding change over T = 200) and on the double pendulum over T = 10, each
/// symplectic energy run with its drift rule (on the double pendulum over an ensemble of 24
/// orbits to T = 200); manifold errors and work on the double pendulum over T = 10; and, generated
/// from the registry, the manifold defects and work of every integrator of our own on every
/// model at its Exercise.
std::vector<Answer> compute(double perturbation, bool break_symplecticity) {
  using Dsp = DoubleSphericalPendulum;
  using Chain = PendulumChain;
  using Sp = SphericalPendulum;
  constexpr double kAdaptive = std::numeric_limits<double>::quiet_NaN();  // no h: rtol decides
  Cases c(perturbation, break_symplecticity);
  c.order<Dsp, ExplicitRk<Rk2Method, Dsp>>("lee2009", 1.0, 0.04);
  c.order<Dsp, ExplicitRk<Rk4Method, Dsp>>("lee2009", 1.0, 0.16);
  c.order<Dsp, ImplicitVariational<Dsp>>("lee2009", 1.0, 0.04);
  c.order<Dsp, Composition<ImplicitVariational<Dsp>, ImplicitVariationalYoshida4>>("lee2009", 1.0,
                                                                                   0.08);
  c.order<Dsp, Rkmk4Method::Integrator<Dsp>>("lee2009", 1.0, 0.16);
  c.order<Dsp, Cf4Method::Integrator<Dsp>>("lee2009", 1.0, 0.16);
  c.order<Chain, ExplicitRk<Rk4Method, Chain>>("celledoni2021_N5", 0.5, 0.04);
  c.order<Chain, ImplicitVariational<Chain>>("celledoni2021_N5", 0.5, 0.02);
  c.order<Chain, Rkmk4Method::Integrator<Chain>>("celledoni2021_N5", 0.5, 0.04);
  c.order<Chain, Cf4Method::Integrator<Chain>>("celledoni2021_N5", 0.5, 0.04);
  c.order<Sp, ExplicitVariational<Sp>>("swing", 1.0, 0.04);

  c.energy<Sp, ExplicitRk<Rk2Method, Sp>>("swing", 0.01, 200.0);
  c.energy<Sp, ExplicitRk<Rk4Method, Sp>>("swing", 0.05, 200.0);
  c.energy<Sp, ExplicitVariational<Sp>>("swing", 0.01, 200.0);
  c.drift<Sp, ExplicitVariational<Sp>>("swing", 0.01, 200.0);
  c.energy<Sp, ImplicitVariational<Sp>>("swing", 0.01, 200.0);
  c.drift<Sp, ImplicitVariational<Sp>>("swing", 0.01, 200.0);
  c.energy<Dsp, ExplicitRk<Rk4Method, Dsp>>("lee2009", 0.01, 10.0);
  c.energy<Dsp, ImplicitVariational<Dsp>>("lee2009", 0.01, 10.0);
  c.drift<Dsp, ImplicitVariational<Dsp>>("lee2009", 0.01, 200.0, 24);

  c.manifold<Dsp, ExplicitRk<Rk4Method, Dsp>>("lee2009", 0.01, 10.0);
  c.manifold<Dsp, DormandPrince45<Dsp, false>>("lee2009", kAdaptive, 10.0);
  c.manifold<Dsp, ImplicitVariational<Dsp>>("lee2009", 0.01, 10.0);
  c.manifold<Dsp, Rkmk4Method::Integrator<Dsp>>("lee2009", 0.01, 10.0);
  c.manifold<Dsp, Cf4Method::Integrator<Dsp>>("lee2009", 0.01, 10.0);
  c.manifold<Dsp, Rkmk54Method::Integrator<Dsp>>("lee2009", kAdaptive, 10.0);
  c.manifold<Dsp, Cf43Method::Integrator<Dsp>>("lee2009", kAdaptive, 10.0);

  // Every integrator of our own on every model of the registry that offers its view.
  for_each_model_type([&]<class Model>() {
    for (const CompiledIntegrator<Model>& method : compiled_integrators<Model>())
      if (method.entry->family != Family::Reference && method.runs) c.exercise(method);
  });
  return c.answers();
}

void print(const std::vector<Answer>& answers) {
  std::printf("{\"cases\": [\n");
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const Answer& a = answers[i];
    std::printf("  {\"case\": \"%s\", \"kind\": \"%s\", \"value\": %.17g", a.name.c_str(),
                to_string(a.kind), a.value);
    if (a.kind == Kind::AtMost) std::printf(", \"limit\": %.17g", a.limit);
    std::printf("}%s\n", i + 1 < answers.size() ? "," : "");
  }
  std::printf("]}\n");
}

}  // namespace
}  // namespace geomint

int main(int argc, char** argv) {
  double perturbation = 0.0;
  bool break_symplecticity = false, usage = false;
  for (int i = 1; i < argc && !usage; ++i) {
    const std::string_view arg = argv[i];
    char* end = nullptr;
    if (arg == "--perturb" && i + 1 < argc) {
      perturbation = std::strtod(argv[++i], &end);
      usage = *end != '\0';
    } else if (arg == "--break-symplecticity") {
      break_symplecticity = true;
    } else {
      usage = true;
    }
  }
  if (usage) {
    std::fprintf(stderr, "usage: accuracy_cases [--perturb E] [--break-symplecticity]\n");
    return 2;
  }
  try {
    geomint::print(geomint::compute(perturbation, break_symplecticity));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "accuracy_cases: %s\n", e.what());
    return 1;
  }
  return 0;
}
