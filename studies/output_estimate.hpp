#pragma once
// The bytes a study's result files can take at most, checked against its max_output before
// any case runs (studies/run_limits.hpp).

#include "studies/spec.hpp"

namespace geomint {

/// Refuses a study whose result files would be larger than its max_output, before it starts.
void check_output_estimate(const StudySpec& spec);

}  // namespace geomint
