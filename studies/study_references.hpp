#pragma once
// Each experiment's reference solution: computed once on rank 0 (cached by content hash in
// DIR/references/) and shared with the other ranks bit for bit; and the errors it can resolve.

#include <map>
#include <optional>
#include <string>

#include "studies/convergence.hpp"
#include "studies/engine.hpp"
#include "studies/result_folder.hpp"

namespace geomint {

struct ExperimentReference {
  std::optional<ReferenceSolution> solution;
  std::string description;  // solver and tolerances, or why there is none
};

/// Rank 0 computes the references (each cached as soon as it is computed, so that a kill loses
/// at most the one being computed) and sends them to the other ranks, or, if it fails before
/// the cases start, its exit status, with which every rank then ends.
std::map<std::string, ExperimentReference> shared_references(const StudySpec& spec, const StudyOptions& options,
                                                             const ResultFolder* folder);

/// The errors each experiment's reference can resolve (studies/convergence.hpp): the floor is
/// the reference's own error estimate (kReferenceMargin of it) or round-off in |y_ref(T)|,
/// whichever is larger; the ceiling a tenth of |y_ref(T)|.
std::map<std::string, ErrorScale> experiment_error_scales(const StudySpec& spec,
                                                          const std::map<std::string, ExperimentReference>& references);

}  // namespace geomint
