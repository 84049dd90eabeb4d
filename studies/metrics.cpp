#include "studies/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace geomint {

namespace {

/// max(a, |b|), NaN once either is NaN.
double worse(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? Metrics::kNaN : std::max(a, std::abs(b));
}
}  // namespace

MetricPlan make_metric_plan(const std::vector<Invariant>& declared, const StateLayout& layout) {
  MetricPlan plan;
  for (std::size_t i = 0; i < declared.size(); ++i) {
    const Invariant& inv = declared[i];
    if (inv.kind == InvariantKind::Energy && plan.energy < 0) plan.energy = static_cast<int>(i);
    if (inv.kind == InvariantKind::Momentum && inv.conserved) plan.momentum.push_back(i);
    if (inv.kind == InvariantKind::Casimir && inv.conserved) plan.casimir.push_back(i);
    if (inv.kind == InvariantKind::ManifoldDefect) plan.defects.push_back(i);
    if (inv.kind == InvariantKind::ConstraintResidual) plan.constraints.push_back(i);
  }
  // The blocks' defects follow the declared invariants, in block order (all_invariants).
  std::size_t k = declared.size();
  for (const auto& b : layout.blocks()) {
    if (b.manifold == Manifold::S2) {
      plan.unit.push_back(k);
      plan.sphere_offsets.push_back(b.offset);
    }
    if (b.manifold == Manifold::TangentS2) plan.tangency.push_back(k);
    const std::size_t count = b.manifold == Manifold::SO3 ? 2 : (b.manifold == Manifold::S2 || b.manifold == Manifold::TangentS2);
    for (std::size_t j = 0; j < count; ++j) plan.defects.push_back(k++);
  }
  return plan;
}

double MetricAccumulator::largest(const std::vector<double>& v, const std::vector<std::size_t>& indices) {
  double m = 0.0;
  for (std::size_t i : indices) m = worse(m, v[i]);
  return m;
}

double MetricAccumulator::largest_change(const std::vector<double>& v,
                                         const std::vector<std::size_t>& indices) const {
  double m = 0.0;
  for (std::size_t i : indices) m = worse(m, v[i] - initial_[i]);
  return m;
}

void MetricAccumulator::add(double t, const std::vector<double>& v,
                            const Eigen::Ref<const Eigen::VectorXd>& y) {
  if (n_ == 0) initial_ = v;
  ++n_;
  if (plan_.energy >= 0) {
    const double e = energy_error(v);
    e_max_ = worse(e_max_, e);
    e_sum_ += std::abs(e);
    e_rel_max_ = worse(e_rel_max_, energy_relative_error(v));
    const double n = static_cast<double>(n_);
    const double dt = t - mean_t_;
    mean_t_ += dt / n;
    mean_e_ += (e - mean_e_) / n;
    c_te_ += dt * (e - mean_e_);
    m2_t_ += dt * (t - mean_t_);
  }
  j_max_ = worse(j_max_, momentum_error(v));
  c_max_ = worse(c_max_, casimir_error(v));
  unit_max_ = worse(unit_max_, unit_length_defect(v));
  tangency_max_ = worse(tangency_max_, tangency_defect(v));
  defect_max_ = worse(defect_max_, manifold_defect(v));
  constraint_max_ = worse(constraint_max_, constraint_residual(v));
  if (plan_.has_sphere_blocks()) {
    double sum = 0.0;
    for (Eigen::Index offset : plan_.sphere_offsets)
      sum += std::abs(1.0 - y.segment<3>(offset).squaredNorm());
    unit_mean_sum_ += sum / static_cast<double>(plan_.sphere_offsets.size());
  }
}

double MetricAccumulator::energy_error(const std::vector<double>& v) const {
  if (plan_.energy < 0) return Metrics::kNaN;
  const auto i = static_cast<std::size_t>(plan_.energy);
  return v[i] - initial_[i];
}

double MetricAccumulator::energy_relative_error(const std::vector<double>& v) const {
  if (plan_.energy < 0) return Metrics::kNaN;
  const double e0 = initial_[static_cast<std::size_t>(plan_.energy)];
  return e0 != 0.0 ? std::abs(energy_error(v)) / std::abs(e0) : Metrics::kNaN;
}

double MetricAccumulator::momentum_error(const std::vector<double>& v) const {
  return largest_change(v, plan_.momentum);
}

double MetricAccumulator::casimir_error(const std::vector<double>& v) const {
  return largest_change(v, plan_.casimir);
}

Metrics MetricAccumulator::result() const {
  Metrics m;
  m.output_points = n_;
  if (n_ == 0) return m;
  const double n = static_cast<double>(n_);
  if (plan_.energy >= 0) {
    m.energy_err_max = e_max_;
    m.energy_err_mean = e_sum_ / n;
    m.energy_rel_err_max = e_rel_max_;
    m.energy_drift_per_time = m2_t_ > 0.0 ? c_te_ / m2_t_ : 0.0;
  }
  if (!plan_.momentum.empty()) {  // no symmetry, no map
    m.momentum_err_max = j_max_;
    double j0 = 0.0;
    for (std::size_t i : plan_.momentum) j0 += initial_[i] * initial_[i];
    m.momentum_rel_err_max = j0 > 0.0 ? j_max_ / std::sqrt(j0) : Metrics::kNaN;
  }
  if (!plan_.casimir.empty()) m.casimir_err_max = c_max_;
  if (!plan_.defects.empty()) m.manifold_defect_max = defect_max_;
  if (!plan_.constraints.empty()) m.constraint_err_max = constraint_max_;
  if (plan_.has_sphere_blocks()) {
    m.manifold_err_max = unit_max_;
    m.tangency_err_max = tangency_max_;
    m.unit_length_err_mean = unit_mean_sum_ / n;
  }
  return m;
}

double larger_magnitude(double a, double b) {
  return std::isnan(a) || std::isnan(b) ? Metrics::kNaN : std::abs(b) > std::abs(a) ? b : a;
}

SeriesDecimator::SeriesDecimator(double t0, double T, int bins)
    : t0_(t0), span_(T - t0), bins_(bins) {}

void SeriesDecimator::add(const Row& r) {
  const long bin = span_ > 0.0 ? std::clamp(static_cast<long>((r.t - t0_) / span_ * bins_), 0L,
                                            static_cast<long>(bins_ - 1))
                               : 0L;
  if (bin != current_) {
    if (current_ >= 0) done_.push_back(open_);
    current_ = bin;
    open_ = r;
    return;
  }
  open_.t = r.t;
  open_.energy_err = larger_magnitude(open_.energy_err, r.energy_err);
  open_.energy_rel_err = larger_magnitude(open_.energy_rel_err, r.energy_rel_err);
  open_.unit_length_err = larger_magnitude(open_.unit_length_err, r.unit_length_err);
  open_.tangency_err = larger_magnitude(open_.tangency_err, r.tangency_err);
  open_.momentum_err = larger_magnitude(open_.momentum_err, r.momentum_err);
  open_.casimir_err = larger_magnitude(open_.casimir_err, r.casimir_err);
  open_.manifold_defect = larger_magnitude(open_.manifold_defect, r.manifold_defect);
  open_.step = std::min(open_.step, r.step);
}

std::vector<SeriesDecimator::Row> SeriesDecimator::rows() const {
  std::vector<Row> all = done_;
  if (current_ >= 0) all.push_back(open_);
  return all;
}

OrderFit fit_order(std::vector<std::pair<double, double>> points, double floor) {
  OrderFit fit;
  fit.total = static_cast<int>(points.size());
  std::erase_if(points, [](const auto& p) {
    return !(p.first > 0.0) || !(p.second > 0.0) || !std::isfinite(p.first) ||
           !std::isfinite(p.second);
  });
  std::sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::pair<double, double>> kept;
  int dropped_floor = 0, dropped_flat = 0;
  for (const auto& p : points) {
    if (p.second <= floor) {
      ++dropped_floor;
      continue;
    }
    if (!kept.empty() && !(p.second < kept.back().second)) {
      dropped_flat = static_cast<int>(points.size()) - static_cast<int>(kept.size()) - dropped_floor;
      break;
    }
    kept.push_back(p);
  }
  fit.used = static_cast<int>(kept.size());
  if (dropped_floor > 0) fit.note += std::to_string(dropped_floor) + " at the error floor; ";
  if (dropped_flat > 0) fit.note += std::to_string(dropped_flat) + " no longer decreasing; ";
  if (fit.used < 3) {
    fit.note += "fewer than three points left";
    return fit;
  }
  double mx = 0.0, my = 0.0;
  for (const auto& [x, y] : kept) {
    mx += std::log10(x);
    my += std::log10(y);
  }
  mx /= fit.used;
  my /= fit.used;
  double sxy = 0.0, sxx = 0.0;
  for (const auto& [x, y] : kept) {
    sxy += (std::log10(x) - mx) * (std::log10(y) - my);
    sxx += (std::log10(x) - mx) * (std::log10(x) - mx);
  }
  fit.order = sxy / sxx;
  double ss = 0.0;
  for (const auto& [x, y] : kept) {
    const double r = std::log10(y) - (my + fit.order * (std::log10(x) - mx));
    ss += r * r;
  }
  fit.residual = std::sqrt(ss / fit.used);
  if (!fit.note.empty() && fit.note.ends_with("; ")) fit.note.resize(fit.note.size() - 2);
  return fit;
}

DriftEstimate batch_means_drift(const std::vector<double>& t, const std::vector<double>& e,
                                int batches) {
  const std::size_t n = t.size();
  const std::size_t per = n / static_cast<std::size_t>(batches);
  std::vector<double> bt, be;
  for (int b = 0; b < batches; ++b) {
    double st = 0.0, se = 0.0;
    for (std::size_t i = static_cast<std::size_t>(b) * per; i < static_cast<std::size_t>(b + 1) * per; ++i) {
      st += t[i];
      se += e[i];
    }
    bt.push_back(st / static_cast<double>(per));
    be.push_back(se / static_cast<double>(per));
  }
  return drift_of_batch_means(bt, be);
}

DriftEstimate drift_of_batch_means(const std::vector<double>& bt, const std::vector<double>& be) {
  const auto batches = static_cast<int>(bt.size());
  double mt = 0.0, me = 0.0;
  for (int b = 0; b < batches; ++b) {
    mt += bt[static_cast<std::size_t>(b)] / batches;
    me += be[static_cast<std::size_t>(b)] / batches;
  }
  double stt = 0.0, ste = 0.0;
  for (int b = 0; b < batches; ++b) {
    const auto i = static_cast<std::size_t>(b);
    stt += (bt[i] - mt) * (bt[i] - mt);
    ste += (bt[i] - mt) * (be[i] - me);
  }
  DriftEstimate d{};
  d.slope = ste / stt;
  double ss = 0.0;
  for (int b = 0; b < batches; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const double r = be[i] - (me + d.slope * (bt[i] - mt));
    ss += r * r;
  }
  double lag1 = 0.0;
  for (int b = 1; b < batches; ++b) {
    const auto i = static_cast<std::size_t>(b);
    lag1 += (be[i] - (me + d.slope * (bt[i] - mt))) * (be[i - 1] - (me + d.slope * (bt[i - 1] - mt)));
  }
  d.residual_correlation = ss > 0.0 ? lag1 / ss : 0.0;
  const double rho = std::clamp(d.residual_correlation, 0.0, 0.95);
  d.standard_error = std::sqrt(ss / (batches - 2) / stt * (1.0 + rho) / (1.0 - rho));
  d.t_statistic = d.standard_error > 0.0 ? d.slope / d.standard_error : 0.0;
  return d;
}

}  // namespace geomint
