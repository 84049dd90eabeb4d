// The case runner instantiated for one model (one translation unit per model keeps the
// integrator x model instantiations compiling in parallel).
#include "models/spherical_pendulum.hpp"
#include "studies/case_runner.hpp"

namespace geomint {
template CaseResult run_case_for<SphericalPendulum>(const CaseSpec&, const CaseHooks&);
}
