#pragma once
// The study engine's options as geomint.study and geomint.verify take them (python/study.cpp).

#include <string>

#include "studies/engine.hpp"

namespace geomint::python {

/// Options for a run into `out` on `jobs` worker threads (0: one per hardware thread; the
/// engine refuses a number outside 0 to kMaxJobs), with the progress line or not.
StudyOptions study_options(std::string out, int jobs, bool progress);

}  // namespace geomint::python
