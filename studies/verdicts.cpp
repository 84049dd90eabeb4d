#include "studies/verdicts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <string_view>

#include "errors/exit_status_errors.hpp"
#include "studies/result_files.hpp"

namespace geomint {

std::string_view to_string(VerdictState s) {
  switch (s) {
    case VerdictState::Kept: return "kept";
    case VerdictState::Broken: return "broken";
    case VerdictState::NotChecked: return "not_checked";
    case VerdictState::Explained: return "explained";
  }
  return "unknown";
}

namespace {

/// The finished cases of one integrator in one experiment, and what it declares.
struct Pair {
  const ExperimentSpec* experiment;
  std::string integrator, family;
  bool adaptive = false, symplectic = false, stays_on_manifold = false, symmetric = false;
  bool momentum = false;  // declares that it conserves the momentum maps (a symplectic method does)
  std::vector<const nlohmann::json*> cases;

  std::vector<const nlohmann::json*> ok() const {
    std::vector<const nlohmann::json*> out;
    for (const auto* c : cases)
      if ((*c)["status"] == "ok") out.push_back(c);
    return out;
  }
  bool not_applicable() const {
    return std::all_of(cases.begin(), cases.end(), [](const auto* c) { return (*c)["status"] == "n/a"; });
  }
  /// Whether the model declares the metric (a record lists the columns it leaves empty).
  bool has_metric(const std::string& column) const {
    const nlohmann::json& r = *cases.front();
    if (!r.contains("absent")) return true;
    const auto& absent = r["absent"];
    return std::find(absent.begin(), absent.end(), column) == absent.end();
  }
  /// max over the finished cases of a column, NaN once any is NaN.
  double largest(const std::string& column) const {
    double m = 0.0;
    for (const auto* c : ok()) {
      const double v = number_from_json((*c)[column]);
      if (std::isnan(v)) return Verdict::kNaN;
      m = std::max(m, v);
    }
    return m;
  }
  /// " over the N finished cases", for a reason.
  std::string over_finished() const {
    const std::size_t n = ok().size();
    return " over the " + std::to_string(n) + " finished case" + (n == 1 ? "" : "s");
  }
  /// The finished case at the smallest step (fixed-step) or tolerance (adaptive), if any.
  const nlohmann::json* finest() const {
    const nlohmann::json* best = nullptr;
    const auto setting = [](const nlohmann::json& c) {
      const double h = number_from_json(c["h"]);
      return std::isnan(h) ? number_from_json(c["rtol"]) : h;
    };
    for (const auto* c : ok())
      if (!best || setting(*c) < setting(*best)) best = c;
    return best;
  }
  /// The failed cases, e.g. "2 of 4 cases failed (LeftManifold at h = 0.0004, 0.0002)".
  std::string failures() const {
    std::string kinds;
    int failed = 0;
    for (const auto* c : cases) {
      const std::string status = (*c)["status"].get<std::string>();
      if (status == "ok" || status == "n/a") continue;
      ++failed;
      const double h = number_from_json((*c)["h"]);
      kinds += (kinds.empty() ? "" : ", ") + status + (std::isnan(h) ? "" : " at h = " + short_number(h));
    }
    if (!failed) return "";
    return std::to_string(failed) + " of " + std::to_string(cases.size()) + " cases failed (" + kinds + ")";
  }
};

std::vector<Pair> pairs_of(const StudySpec& spec, const std::vector<nlohmann::json>& records) {
  std::vector<Pair> pairs;
  for (const auto& ex : spec.experiments) {
    const std::size_t first = pairs.size();
    for (const auto& r : records) {
      if (r["experiment"] != ex.name) continue;
      const std::string integrator = r["integrator"].get<std::string>();
      auto it = std::find_if(pairs.begin() + static_cast<std::ptrdiff_t>(first), pairs.end(),
                             [&](const Pair& p) { return p.integrator == integrator; });
      if (it == pairs.end()) {
        pairs.push_back({&ex, integrator, r["family"].get<std::string>(), r["adaptive"].get<bool>(),
                         r["symplectic"].get<bool>(), r["stays_on_manifold"].get<bool>(),
                         r.value("symmetric", false), r.value("momentum", r["symplectic"].get<bool>()), {}});
        it = pairs.end() - 1;
      }
      it->cases.push_back(&r);
    }
  }
  return pairs;
}

Verdict verdict_of(const Pair& p, const std::string& promise) {
  Verdict v;
  v.experiment = p.experiment->name;
  v.model = p.experiment->model;
  v.integrator = p.integrator;
  v.family = p.family;
  v.promise = promise;
  return v;
}

void not_checked(Verdict& v, const std::string& why, const std::string& reason) {
  v.state = VerdictState::NotChecked;
  v.why = why;
  v.reason = reason;
}

/// A measured maximum against its bound: kept when value <= bound (NaN never is).
void judge_at_most(Verdict& v, double value, double bound, const std::string& what) {
  v.value = value;
  v.bound = bound;
  v.relation = "<=";
  const bool kept = value <= bound;
  v.state = kept ? VerdictState::Kept : VerdictState::Broken;
  if (std::isnan(value)) v.why = "non_finite";
  v.reason = what + " " + (std::isnan(value) ? "is not finite" : short_number(value) + (kept ? " <= " : " > ") + short_number(bound));
}

std::string with_failures(const std::string& reason, const Pair& p) {
  const std::string f = p.failures();
  return f.empty() ? reason : reason + "; " + f;
}

/// Whether no case of the pair finished; then the verdict is not checked, and says why.
bool none_finished(const Pair& p, Verdict& v) {
  if (!p.ok().empty()) return false;
  not_checked(v, "failed", with_failures("no case finished", p));
  return true;
}

std::string steps_text(double a, double b) { return "h = " + short_number(a) + " .. " + short_number(b); }

std::string setting_of(const nlohmann::json& c) {
  const double h = number_from_json(c["h"]);
  return std::isnan(h) ? "rtol = " + short_number(number_from_json(c["rtol"])) : "h = " + short_number(h);
}

Verdict order_verdict(const Pair& p, const std::vector<PairConvergence>& convergence, int window_search) {
  Verdict v = verdict_of(p, "order");
  const auto c = std::find_if(convergence.begin(), convergence.end(), [&](const PairConvergence& x) {
    return x.experiment == p.experiment && x.integrator == p.integrator;
  });
  if (p.adaptive) {
    std::string reason = "adaptive: step control ties the error to the tolerance, not to a step";
    if (c != convergence.end() && !std::isnan(c->mean_step_slope))
      reason += "; the slope of the error against the mean step is " + short_number(c->mean_step_slope) + ", not an order";
    not_checked(v, "adaptive", reason);
    return v;
  }
  if (c == convergence.end()) {
    not_checked(v, "no_reference", "the experiment has no reference to measure the global error against");
    return v;
  }
  v.bound = c->nominal - kOrderTolerance;
  v.relation = ">=";
  if (!c->measures_order()) {
    not_checked(v, "too_few_steps", "the experiment lists " + std::to_string(c->listed.size()) +
                                        " step size" + (c->listed.size() == 1 ? "" : "s") + ": an order needs three");
    return v;
  }
  if (none_finished(p, v)) return v;
  const OrderWindow& w = c->window;
  if (!w.found()) {
    std::string reason = "no asymptotic window: " + w.why_none();
    reason += "; " + std::to_string(c->added) + " step size" + (c->added == 1 ? "" : "s") + " added (at most " +
              std::to_string(window_search) + ")";
    not_checked(v, "no_window", with_failures(reason, p));
    return v;
  }
  v.value = w.order;
  std::string slopes;
  for (int i = w.first; i < w.last; ++i) slopes += (slopes.empty() ? "" : ", ") + short_number(w.local_slopes[static_cast<std::size_t>(i)]);
  char fit[200];
  std::snprintf(fit, sizeof fit, "fitted %.2f over %s (%d points; local slopes %s; |p/%d - 1| = %.2g, correlation %.6f)",
                w.order, steps_text(w.points[static_cast<std::size_t>(w.first)].first, w.points[static_cast<std::size_t>(w.last)].first).c_str(),
                w.size(), slopes.c_str(), c->nominal, w.relative_deviation(), w.correlation);
  if (w.below_nominal()) {
    v.state = VerdictState::Broken;
    v.why = "below_nominal";
    v.reason = std::string(fit) + ": more than " + short_number(kOrderTolerance) + " below " + std::to_string(c->nominal);
  } else {
    v.state = VerdictState::Kept;
    v.why = w.above_nominal() ? "from_above" : "nominal";
    v.reason = std::string(fit) + (w.above_nominal() ? ": converging from above" : "");
  }
  v.reason = with_failures(v.reason, p);
  return v;
}

Verdict manifold_verdict(const Pair& p) {
  Verdict v = verdict_of(p, "manifold");
  if (none_finished(p, v)) return v;
  judge_at_most(v, p.largest("manifold_defect_max"), kManifoldBound, "the largest manifold defect" + p.over_finished());
  v.reason = with_failures(v.reason, p);
  return v;
}

/// The momentum maps kept at every step size: their largest relative change over the finished
/// cases, or where they start at 0 (the relative change is NaN, the absolute one finite), the
/// absolute change against the same bound (the models' momenta are of order one: unit spheres,
/// masses and lengths of order one).
Verdict momentum_verdict(const Pair& p) {
  Verdict v = verdict_of(p, "momentum");
  if (none_finished(p, v)) return v;
  const double rel = p.largest("momentum_rel_err_max"), abs = p.largest("momentum_err_max");
  if (std::isnan(rel) && std::isfinite(abs))
    judge_at_most(v, abs, kMomentumBound, "the momentum maps start at 0: their largest absolute change" + p.over_finished());
  else
    judge_at_most(v, rel, kMomentumBound, "the largest relative change of the conserved momentum maps" + p.over_finished());
  v.reason = with_failures(v.reason, p);
  return v;
}

/// The energy at the finest setting the pair ran (the smallest h, or tolerance): a first-order
/// method's bounded energy error is still O(h) at its largest steps. A bound on the error over
/// this run, not a test for drift over long times.
Verdict energy_verdict(const Pair& p) {
  Verdict v = verdict_of(p, "energy");
  const nlohmann::json* finest = p.finest();
  if (!finest) {
    not_checked(v, "failed", with_failures("no case finished", p));
    return v;
  }
  const double rel = number_from_json((*finest)["energy_rel_err_max"]);
  const double abs = number_from_json((*finest)["energy_err_max"]);
  if (std::isnan(rel) && std::isfinite(abs)) {
    not_checked(v, "no_scale", "the energy starts at 0: no scale for a relative error (the largest absolute change is " + short_number(abs) + ")");
    return v;
  }
  judge_at_most(v, rel, kEnergyBound, "at the finest setting (" + setting_of(*finest) + ", T = " +
                                          short_number((*finest)["T"].get<double>()) + "), the largest relative change of the energy");
  v.reason = with_failures(v.reason, p);
  return v;
}

/// The long-time summaries (studies/long_time_record.hpp) of the finest finished case of these kinds.
std::vector<const nlohmann::json*> long_time_of(const nlohmann::json& c, std::initializer_list<std::string_view> kinds) {
  std::vector<const nlohmann::json*> out;
  if (!c.contains("long_time")) return out;
  for (const auto& q : c["long_time"])
    for (std::string_view k : kinds)
      if (q["kind"].get<std::string>() == k) out.push_back(&q);
  return out;
}

std::string alpha_text(const nlohmann::json& q) {
  const double a = number_from_json(q["alpha"]);
  if (std::isnan(a)) return "alpha not measured (" + q["alpha_note"].get<std::string>() + ")";
  return "alpha " + short_number(a) + " +- " + short_number(number_from_json(q["alpha_se"])) + " over t in [" +
         short_number(number_from_json(q["fit_from"])) + ", " + short_number(number_from_json(q["fit_to"])) + "]";
}

/// The finest finished case of a long-time pair, or a not-checked verdict saying why there is none.
const nlohmann::json* long_case(const Pair& p, Verdict& v) {
  const nlohmann::json* c = p.finest();
  if (!c) not_checked(v, "failed", with_failures("no case finished", p));
  return c;
}

Verdict long_energy_verdict(const Pair& p) {
  Verdict v = verdict_of(p, "long_energy");
  const nlohmann::json* c = long_case(p, v);
  if (!c) return v;
  const auto energy = long_time_of(*c, {"energy"});
  if (energy.empty()) {
    not_checked(v, "no_statistics", "the case has no long-time statistics of the energy");
    return v;
  }
  const nlohmann::json& q = *energy.front();
  const double alpha = number_from_json(q["alpha"]), abs_max = number_from_json(q["abs_max"]);
  const double drift = number_from_json(q["drift"]), se = number_from_json(q["drift_se"]);
  const double T = number_from_json((*c)["T"]);
  const std::string over = " (" + setting_of(*c) + ", T = " + short_number(T) + ", max |E - E0| " + short_number(abs_max) +
                           ", drift " + short_number(drift) + " +- " + short_number(se) + " per unit time)";
  v.bound = kLongAlphaBound;
  v.relation = "<=";
  if (std::isnan(alpha) && abs_max == 0.0) {
    v.value = 0.0;
    v.state = VerdictState::Kept;
    v.reason = "the energy error is exactly 0 after the first 100 steps" + over;
    return v;
  }
  if (std::isnan(alpha) && std::isfinite(abs_max)) {
    not_checked(v, "too_short", alpha_text(q) + over);
    return v;
  }
  v.value = alpha;
  const double initial = number_from_json(q["initial"]), steps = number_from_json((*c)["output_points"]);
  const double round_off = round_off_bound(initial, steps);
  const bool bounded = energy_bounded(alpha, abs_max, initial, steps);
  const bool drifting = drifts(drift, se, T, abs_max);
  v.state = bounded && !drifting ? VerdictState::Kept : VerdictState::Broken;
  if (std::isnan(alpha)) v.why = "non_finite";
  else if (drifting) v.why = "drift";
  v.reason = "the energy error's envelope: " + alpha_text(q) + (alpha <= kLongAlphaBound ? " <= " : " > ") +
             short_number(kLongAlphaBound) + (alpha > kLongAlphaBound && bounded ? ", within round-off's " + short_number(round_off) : "") +
             (drifting ? "; a significant drift" : "") + over;
  return v;
}

/// Round-off level over N steps, growing no faster than sqrt(t): each quantity's largest error
/// in ULPs of its scale per sqrt(N); the largest of them is the value.
Verdict long_round_off_verdict(const Pair& p, const std::string& promise, std::initializer_list<std::string_view> kinds,
                               bool relative) {
  Verdict v = verdict_of(p, promise);
  const nlohmann::json* c = long_case(p, v);
  if (!c) return v;
  const auto quantities = long_time_of(*c, kinds);
  if (quantities.empty()) {
    not_checked(v, "no_statistics", "the case has no long-time statistics of these quantities");
    return v;
  }
  const double steps = number_from_json((*c)["output_points"]);
  double worst = -1.0;  // then NaN once any is
  std::string worst_text;
  for (const nlohmann::json* q : quantities) {
    const double scale = relative ? number_from_json((*q)["initial"]) : 1.0;
    const double abs_max = number_from_json((*q)["abs_max"]);
    const double ulps = ulps_per_root_step(abs_max, scale, steps);
    if (std::isnan(ulps) || (!std::isnan(worst) && ulps > worst)) {
      worst = ulps;
      worst_text = (*q)["name"].get<std::string>() + ": max |err| " + short_number(abs_max) + ", " + alpha_text(*q);
    }
  }
  judge_at_most(v, worst, kRoundOffUlps, "the largest error in ULPs per sqrt(steps) (" + worst_text + ", " + setting_of(*c) + ")");
  return v;
}

Verdict reversibility_verdict(const Pair& p) {
  Verdict v = verdict_of(p, "reversibility");
  const nlohmann::json* c = long_case(p, v);
  if (!c) return v;
  const double steps = number_from_json((*c)["reversibility_steps"]);
  if (!(steps > 0)) {
    not_checked(v, "not_run", "no run forward and back (a case of a long_time experiment runs one)");
    return v;
  }
  const double miss = number_from_json((*c)["reversibility_miss"]);
  const double scale = number_from_json((*c)["reversibility_scale"]);
  judge_at_most(v, ulps_per_root_step(miss, scale, steps), kReversibilityUlps,
                "forward " + short_number(steps) + " steps of " + setting_of(*c) + " and back: missed y(0) by " +
                    short_number(miss) + ", in ULPs of max(1, |y(0)|) per sqrt(steps)");
  return v;
}

/// The promises a pair of a long_time experiment is judged on over the long run.
void add_long_time_verdicts(const Pair& p, const nlohmann::json& first, std::vector<Verdict>& promises) {
  if (p.symplectic && p.has_metric("energy_rel_err_max") && first.value("energy_conserved", false))
    promises.push_back(long_energy_verdict(p));
  if (p.momentum && p.has_metric("momentum_err_max"))
    promises.push_back(long_round_off_verdict(p, "long_momentum", {"momentum"}, true));
  if (p.stays_on_manifold && p.has_metric("manifold_defect_max"))
    promises.push_back(long_round_off_verdict(p, "long_manifold", {"manifold_defect"}, false));
  if (p.symmetric && !p.adaptive) promises.push_back(reversibility_verdict(p));
}

/// The spec's known deviation for this verdict, if any.
const KnownDeviation* known_deviation(const StudySpec& spec, const Verdict& v, const ExperimentSpec& ex) {
  for (const auto& k : spec.known_deviations) {
    if (k.promise != v.promise) continue;
    if (!k.experiment.empty() && k.experiment != ex.name && k.experiment != ex.base_name) continue;
    if (!k.model.empty() && k.model != ex.model) continue;
    if (std::find(k.integrators.begin(), k.integrators.end(), v.integrator) == k.integrators.end()) continue;
    return &k;
  }
  return nullptr;
}

/// A verdict the spec marks as a known deviation is explained when it is not kept (and could
/// have been measured: an n/a pair, an adaptive method or a missing reference are not deviations).
void apply_known_deviation(Verdict& v, const KnownDeviation* k) {
  if (!k) return;
  if (v.state == VerdictState::Kept) {
    v.reason += " (the spec marks a known deviation here, which did not occur)";
    return;
  }
  for (const char* unmeasured : {"n/a", "adaptive", "no_reference", "too_few_steps", "too_short", "no_statistics", "not_run"})
    if (v.why == unmeasured) return;
  v.state = VerdictState::Explained;
  v.reason = k->reason + " [measured: " + v.reason + "]";
}

}  // namespace

std::vector<Verdict> judge_study(const StudySpec& spec, const std::vector<nlohmann::json>& records,
                                 const std::vector<PairConvergence>& convergence) {
  std::vector<Verdict> verdicts;
  for (const Pair& p : pairs_of(spec, records)) {
    std::vector<Verdict> promises;
    const bool na = p.not_applicable();
    const nlohmann::json& first = *p.cases.front();
    if (na) {
      // Every promise it declares, none measurable.
      std::vector<std::string> declared;
      if (!(p.experiment->long_time && !p.experiment->reference)) declared.push_back("order");
      if (p.stays_on_manifold) declared.push_back("manifold");
      if (p.momentum) declared.push_back("momentum");
      if (p.symplectic) declared.push_back("energy");
      if (p.experiment->long_time) {
        if (p.symplectic) declared.push_back("long_energy");
        if (p.momentum) declared.push_back("long_momentum");
        if (p.stays_on_manifold) declared.push_back("long_manifold");
        if (p.symmetric && !p.adaptive) declared.push_back("reversibility");
      }
      for (const auto& promise : declared) {
        Verdict v = verdict_of(p, promise);
        not_checked(v, "n/a", first["status_detail"].get<std::string>());
        promises.push_back(v);
      }
    } else {
      // A long-time experiment without a reference measures no order (the matrix does).
      if (!(p.experiment->long_time && !p.experiment->reference))
        promises.push_back(order_verdict(p, convergence, spec.window_search));
      if (p.stays_on_manifold && p.has_metric("manifold_defect_max")) promises.push_back(manifold_verdict(p));
      if (p.momentum && p.has_metric("momentum_rel_err_max")) promises.push_back(momentum_verdict(p));
      if (p.symplectic && p.has_metric("energy_rel_err_max") && first.value("energy_conserved", false))
        promises.push_back(energy_verdict(p));
      if (p.experiment->long_time) add_long_time_verdicts(p, first, promises);
    }
    for (Verdict& v : promises) {
      apply_known_deviation(v, known_deviation(spec, v, *p.experiment));
      verdicts.push_back(std::move(v));
    }
  }
  return verdicts;
}

std::string verdicts_csv(const std::string& study, const std::vector<Verdict>& verdicts) {
  std::string s = "study,experiment,model,integrator,family,promise,state,why,value,bound,relation,reason\n";
  for (const auto& v : verdicts)
    s += csv_text(study) + "," + csv_text(v.experiment) + "," + csv_text(v.model) + "," + csv_text(v.integrator) + "," +
         csv_text(v.family) + "," + v.promise + "," + std::string(to_string(v.state)) + "," + v.why + "," +
         csv_number(v.value, std::isnan(v.value)) + "," + csv_number(v.bound, std::isnan(v.bound)) + "," +
         v.relation + "," + csv_text(v.reason) + "\n";
  return s;
}

namespace {

/// The fields of one CSV record (RFC 4180: quoted fields may hold commas, doubled quotes and
/// newlines); reads one record from `in`.
bool read_csv_record(std::istream& in, std::vector<std::string>& fields) {
  fields.clear();
  std::string field;
  bool quoted = false, any = false;
  for (char ch; in.get(ch);) {
    any = true;
    if (quoted) {
      if (ch != '"') field += ch;
      else if (in.peek() == '"') field += static_cast<char>(in.get());
      else quoted = false;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (ch == '\n') {
      break;
    } else {
      field += ch;
    }
  }
  if (any) fields.push_back(std::move(field));
  return any;
}

}  // namespace

std::vector<Verdict> read_verdicts(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / "verdicts.csv";
  std::ifstream in(file);
  if (!in) throw IoError("cannot read " + file.string());
  std::vector<std::string> header, fields;
  read_csv_record(in, header);
  const auto column = [&](const char* name) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw IoError(file.string() + ": no '" + name + "' column");
    return static_cast<std::size_t>(it - header.begin());
  };
  const std::size_t experiment = column("experiment"), model = column("model"), integrator = column("integrator"),
                    family = column("family"), promise = column("promise"), state = column("state"),
                    why = column("why"), value = column("value"), bound = column("bound"),
                    relation = column("relation"), reason = column("reason");
  std::vector<Verdict> verdicts;
  while (read_csv_record(in, fields)) {
    if (fields.size() != header.size())
      throw IoError(file.string() + ": a record has " + std::to_string(fields.size()) + " fields, the header " +
                    std::to_string(header.size()));
    Verdict v{.experiment = fields[experiment], .model = fields[model], .integrator = fields[integrator],
              .family = fields[family], .promise = fields[promise], .why = fields[why],
              .relation = fields[relation], .reason = fields[reason]};
    const std::string& s = fields[state];
    if (s == "kept") v.state = VerdictState::Kept;
    else if (s == "broken") v.state = VerdictState::Broken;
    else if (s == "not_checked") v.state = VerdictState::NotChecked;
    else if (s == "explained") v.state = VerdictState::Explained;
    else throw IoError(file.string() + ": unknown state '" + s + "'");
    const auto number = [](const std::string& text) {
      return text.empty() ? Verdict::kNaN : std::strtod(text.c_str(), nullptr);
    };
    v.value = number(fields[value]);
    v.bound = number(fields[bound]);
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

VerdictCounts read_verdict_counts(const std::filesystem::path& dir) {
  VerdictCounts counts;
  for (const Verdict& v : read_verdicts(dir)) {
    if (v.state == VerdictState::Kept) ++counts.kept;
    else if (v.state == VerdictState::Broken) ++counts.broken;
    else if (v.state == VerdictState::NotChecked) ++counts.not_checked;
    else ++counts.explained;
  }
  return counts;
}

std::string verdict_summary(const VerdictCounts& c, const std::filesystem::path& dir) {
  return "verdicts: " + std::to_string(c.kept) + " kept, " + std::to_string(c.broken) + " broken, " +
         std::to_string(c.not_checked) + " not checked, " + std::to_string(c.explained) + " explained (" +
         (dir / "verdicts.csv").string() + ")";
}

}  // namespace geomint
