// Label `longtime`: what each fixed-step integrator declares, kept over 10^5 steps on the cheap
// models of the three classes (the spherical pendulum on TS^2, the free rigid body on so(3)*,
// the heavy top on SO(3) x so(3)*), judged on the streamed long-time statistics with the bounds
// of the long-time verdicts (the promises, the bounds and the known deviations:
// tests/support/long_time_promises.hpp). Generated as LongTimePromises.<integrator>_on_<model> for
// every fixed-step integrator of the catalogue but the reference solvers (others' code), on each
// of those models it runs on. The controls, each check shown to fail on a method that does not
// make its promise: tests/conservation/test_long_time_runs.cpp.

#include <stdexcept>
#include <string>
#include <string_view>

#include "catalogue/integrator_declarations.hpp"
#include "studies/model_catalogue.hpp"
#include "support/catalogue_cases.hpp"
#include "support/catalogue_suites.hpp"
#include "support/long_time_promises.hpp"

namespace geomint {
namespace {

const IntegratorInfo& info_of(std::string_view name) {
  for (const IntegratorInfo& i : integrator_infos())
    if (i.declaration.name == name) return i;
  throw std::logic_error("no integrator '" + std::string(name) + "' in the catalogue");
}

bool in_registry(std::string_view model) {
  for (const ModelFace* m : model_catalogue())
    if (m->name() == model) return true;
  return false;
}

}  // namespace

void testing::register_long_time_promises_suite(Covered covered) {
  for (const LongTimeModel& m : kLongTimeModels) {
    if (!in_registry(m.model)) continue;  // a build of a few models (GEOMINT_MODELS)
    for (std::string_view name : find_model(m.model).integrators()) {
      const IntegratorInfo& info = info_of(name);
      const Declaration& d = info.declaration;
      if (d.adaptive || d.family == Family::Reference) continue;
      if (covered == Covered::Added && !info.added) continue;
      register_case("LongTimePromises", std::string(name) + "_on_" + m.model,
                    [m, integrator = std::string(name)] {
                      expect_long_time_promises(m.model, integrator, m.h, m.T);
                    });
    }
  }
}

}  // namespace geomint
