// Which registry model stands for its class in the catalogue suites
// (tests/support/catalogue_cases.hpp): the one unit of the catalogue program that includes every
// model (catalogue/model_types.hpp), where the suites' per-model units include only their own.

#include <stdexcept>
#include <string>
#include <string_view>

#include "catalogue/model_types.hpp"
#include "models/views.hpp"
#include "support/catalogue_cases.hpp"
#include "support/momentum_maps.hpp"

namespace geomint::testing {
namespace {

/// Whether an entry needing the view `needs` is seen by an integrator needing `reader`: the
/// ConstrainedLagrangian view is a second formulation of a model (positions in R^d and
/// holonomic constraints) that only the constrained integrators read, and offering it changes
/// no code path of the others; so for them its entries are left out, and a model that offers it
/// stays in the class of those that do not.
bool seen_by(std::string_view needs, std::string_view reader) {
  return needs != view::ConstrainedLagrangian::name || reader == view::ConstrainedLagrangian::name;
}

/// Which catalogue integrators run on Model, as an integrator needing the view `reader` sees
/// them: one character per entry in catalogue order ('1' runs, '0' not, '-' not seen).
template <class Model>
std::string runnable_signature(std::string_view reader) {
  std::string signature;
  for (const CompiledIntegrator<Model>& method : compiled_integrators<Model>())
    signature += !seen_by(method.needs, reader) ? '-' : method.runs ? '1' : '0';
  return signature;
}

/// Whether `pred<M>()` holds for some registry model M before the one named `model`.
template <class Pred>
bool some_model_before(std::string_view model, Pred&& pred) {
  bool found = false, reached = false;
  for_each_model_type([&]<class M>() {
    if (M::kName == model) reached = true;
    if (!reached && !found) found = pred.template operator()<M>();
  });
  return found;
}

/// f called with the registry model type named `model` as its template argument.
template <class F>
bool on_model_named(std::string_view model, F&& f) {
  bool result = false, known = false;
  for_each_model_type([&]<class M>() {
    if (M::kName == model) {
      known = true;
      result = f.template operator()<M>();
    }
  });
  if (!known) throw std::logic_error("no registry model '" + std::string(model) + "'");
  return result;
}

}  // namespace

bool first_of_its_class(std::string_view model, std::string_view reader) {
  // The ConstrainedLagrangian view is each model's own second formulation (its positions,
  // constraints and Hessian written for it alone), so for the constrained integrators every
  // model that offers it is a class of its own.
  if (reader == view::ConstrainedLagrangian::name) return true;
  return on_model_named(model, [&]<class Model>() {
    return !some_model_before(model, [&]<class M>() {
      return manifold_of<M>() == manifold_of<Model>() &&
             runnable_signature<M>(reader) == runnable_signature<Model>(reader);
    });
  });
}

bool first_with_momentum(std::string_view model, std::string_view integrator) {
  return !some_model_before(model, [&]<class M>() {
    return compiled_integrator<M>(integrator).runs &&
           !momentum_indices(exercise_setup<M>().model).empty();
  });
}

}  // namespace geomint::testing
