#pragma once
// What the pattern evocation of a study case (DuToit §4, §5.5; studies/pattern_evocation.hpp)
// needs of its model and its run: the bodies (the state's position blocks q1, q2, ...), an S^1
// symmetry about e3, and the bodies' positions recorded at evenly spaced output points of a
// fixed-step run, at most kMaxEvocationPositions of them (samples x bodies) so that memory and
// the frame files stay bounded whatever T / h.

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "models/invariant.hpp"
#include "models/state_blocks.hpp"
#include "studies/trajectory_csv.hpp"

namespace geomint {

/// The most positions (samples x bodies) a case keeps for its evocation.
inline constexpr std::size_t kMaxEvocationPositions = 100000;

/// The position blocks of a state: q<i> with 3 entries, on S^2 or in R^3, ordered by i.
std::vector<StateBlock> position_blocks(const StateLayout& layout);

/// Whether the model declares the angular momentum about e3 (Lz, or the Astrojax's Jz) as a
/// conserved momentum: its flow commutes with the rotations about e3 (Noether), which pattern
/// evocation needs.
bool turns_about_e3(const std::vector<Invariant>& invariants);

/// Every how many output points a run of `steps` fixed steps keeps the positions of `bodies`
/// bodies: 1, or the least stride that keeps at most kMaxEvocationPositions.
std::size_t evocation_stride(double steps, std::size_t bodies);
/// The samples that stride keeps (the initial point included).
std::size_t evocation_samples(double steps, std::size_t bodies);

/// The positions of a fixed-step run's bodies at every evocation_stride-th output point.
class PositionRecorder {
 public:
  /// For a run of `steps` fixed steps.
  explicit PositionRecorder(double steps) : steps_(steps) {}
  /// Before the run: the model's layout, whose position blocks are the bodies. InputError if
  /// it has none.
  void start(const StateLayout& layout);
  /// At every output point.
  void add(double t, const Eigen::Ref<const Eigen::VectorXd>& state);
  std::size_t stride() const { return stride_; }
  /// The positions kept, as `geomint evoke` reads them from a trajectory file.
  TrajectoryPositions trajectory() const;

 private:
  double steps_;
  std::vector<StateBlock> blocks_;
  std::size_t stride_ = 1, seen_ = 0;
  std::vector<double> times_;
  std::vector<std::vector<double>> positions_;  // per body, x y z per sample
};

}  // namespace geomint
