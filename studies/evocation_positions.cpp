#include "studies/evocation_positions.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "errors/exit_status_errors.hpp"

namespace geomint {

namespace {

/// i of a block named q<i> (i from 1, no leading zero), or 0.
long body_number(const std::string& name) {
  if (name.size() < 2 || name.size() > 7 || name[0] != 'q' || name[1] == '0') return 0;
  if (!std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; })) return 0;
  return std::stol(name.substr(1));
}

}  // namespace

std::vector<StateBlock> position_blocks(const StateLayout& layout) {
  std::vector<StateBlock> blocks;
  for (const auto& b : layout.blocks())
    if (body_number(b.name) > 0 && b.size == 3 && (b.manifold == Manifold::S2 || b.manifold == Manifold::R3))
      blocks.push_back(b);
  std::sort(blocks.begin(), blocks.end(),
            [](const StateBlock& a, const StateBlock& b) { return body_number(a.name) < body_number(b.name); });
  return blocks;
}

bool turns_about_e3(const std::vector<Invariant>& invariants) {
  return std::any_of(invariants.begin(), invariants.end(), [](const Invariant& i) {
    return i.kind == InvariantKind::Momentum && i.conserved && (i.name == "Lz" || i.name == "Jz");
  });
}

std::size_t evocation_stride(double steps, std::size_t bodies) {
  const std::size_t spacings = std::max<std::size_t>(2, kMaxEvocationPositions / std::max<std::size_t>(bodies, 1) - 1);
  return static_cast<std::size_t>(std::max(1.0, std::ceil(steps / static_cast<double>(spacings))));
}

std::size_t evocation_samples(double steps, std::size_t bodies) {
  return static_cast<std::size_t>(std::floor(steps / static_cast<double>(evocation_stride(steps, bodies)))) + 1;
}

void PositionRecorder::start(const StateLayout& layout) {
  blocks_ = position_blocks(layout);
  if (blocks_.empty()) throw InputError("the model has no position blocks q1, q2, ... to evoke patterns in");
  stride_ = evocation_stride(steps_, blocks_.size());
  const std::size_t samples = evocation_samples(steps_, blocks_.size());
  times_.reserve(samples);
  positions_.assign(blocks_.size(), {});
  for (auto& p : positions_) p.reserve(3 * samples);
}

void PositionRecorder::add(double t, const Eigen::Ref<const Eigen::VectorXd>& state) {
  if (seen_++ % stride_ != 0) return;
  times_.push_back(t);
  for (std::size_t i = 0; i < blocks_.size(); ++i)
    for (Eigen::Index a = 0; a < 3; ++a) positions_[i].push_back(state(blocks_[i].offset + a));
}

TrajectoryPositions PositionRecorder::trajectory() const {
  TrajectoryPositions out;
  out.times = times_;
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    out.bodies.push_back(blocks_[i].name);
    out.positions.push_back(Eigen::Map<const Eigen::Matrix3Xd>(positions_[i].data(), 3,
                                                               static_cast<Eigen::Index>(times_.size())));
  }
  return out;
}

}  // namespace geomint
