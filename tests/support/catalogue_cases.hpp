#pragma once
// The cases of the suites that check what integrators declare (integrators/declaration.hpp),
// generated from the integrator catalogue (catalogue/integrator_catalogue.hpp) and the model
// registry (catalogue/model_registry.txt): every pair (integrator, model) that the catalogue says can run
// is a candidate, and a suite keeps those its rule selects, by the integrator's declaration and
// these properties of the model. Adding an integrator to the catalogue or a line to the registry
// adds its cases; no suite lists integrators or models by hand.
//
// Each case is a test of its own, registered at run time (register_case) as
// <Suite>.<integrator>_on_<model>, so that ctest runs, times and reports it alone. Each suite is
// a compiled source of its own in one program (tests/catalogue), whose registration function
// (tests/support/catalogue_suites.hpp) registers its cases on every registry model; the
// program's main() (tests/catalogue/catalogue_main.cpp) calls them all. No integrator is compiled
// here: a suite runs them through the model's compiled catalogue
// (catalogue/integrator_on_model.hpp), so its code is compiled once per model and not once per
// (integrator, model) pair, and it reads the integrator's declaration at run time.
//
// The manifold of a model is the signature of its state layout (manifold_signature,
// models/state_blocks.hpp): every model on (TS^2)^n shares one manifold whatever its n, and the
// free rigid body (one so3* block) is another.
//
// The class of a model, for one integrator: its manifold and the set of catalogue integrators
// that run on it as that integrator sees them (runnable_signature, in
// tests/catalogue/model_classes.cpp), i.e. the views it offers. The models of one class take the
// same code path through the integrator; models of one manifold can differ in it (a diagonal
// inertia admits the explicit VI, and the implicit VI then solves (3.16) body by body; a coupled
// one takes the coupled solve). The ConstrainedLagrangian view, read by the constrained
// integrators only, is left out of the others' signature (offering it changes none of their
// code paths); for the constrained integrators it is each model's own formulation (positions,
// constraints, Hessian written per model), so every model offering it is a class of its own.
// The suites whose checks are not about the model itself (order, symmetry, symplecticity,
// energy drift) run each integrator on the first registry model of every class it runs on
// (first_of_its_class); today, for the unconstrained integrators,
//   (TS2)^n, diagonal inertia   spherical_pendulum
//   (TS2)^n, coupled inertia    double_spherical_pendulum
//   so3*                        free_rigid_body
// The suites whose promise is about every state the integrator visits (the manifold, the
// momentum maps) run it on every model. A model's problem is its kExercise
// (models/exercise.hpp): preset, step h, horizon T.
//
// The suites are a library (geomint_promise_suites), installed with geomint, so that a project
// outside geomint that adds its integrators to the catalogue (catalogue/add_integrator.hpp) runs
// the same suites on them in its own ctest, covering only its own integrators (Covered::Added).

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalogue/integrator_on_model.hpp"
#include "models/model_contract.hpp"
#include "models/manifold_signature.hpp"
#include "models/state_blocks.hpp"
#include "support/model_setup.hpp"

namespace geomint::testing {

/// The model and initial state of its kExercise preset.
template <class Model>
Setup<Model> exercise_setup() {
  return make_setup<Model>(std::string(Model::kExercise.preset));
}

/// The manifold of a model type (made once, from its exercise preset's model).
template <class Model>
const std::string& manifold_of() {
  static const std::string signature =
      ::geomint::manifold_signature(exercise_setup<Model>().model.state_layout());
  return signature;
}

/// Which integrators of the catalogue a suite registers cases for: all of them (geomint's own
/// catalogue program, tests/catalogue), or only those a project outside geomint added (its
/// promise suites, which need not check geomint's own again).
enum class Covered { Catalogue, Added };

/// Calls f(method) for every covered catalogue integrator that runs on Model, in catalogue order.
template <class Model, class F>
void for_each_runnable(Covered covered, F&& f) {
  const auto methods = covered == Covered::Catalogue ? compiled_integrators<Model>()
                                                      : added_compiled_integrators<Model>();
  for (const CompiledIntegrator<Model>& method : methods)
    if (method.runs) f(method);
}

/// Whether the registry model named `model` is the first registry model of its class for an
/// integrator that needs the view `reader` (CompiledIntegrator::needs): the models on the same
/// manifold on which the same catalogue integrators run, as that integrator sees them. Computed in one unit that includes every model
/// (tests/catalogue/model_classes.cpp), so that a suite's unit includes only its own.
bool first_of_its_class(std::string_view model, std::string_view reader);

/// Whether the registry model named `model` is the first, among those the catalogue integrator
/// `integrator` runs on, that declares a momentum map (tests/catalogue/model_classes.cpp).
bool first_with_momentum(std::string_view model, std::string_view integrator);

/// A map on T*G of its own run on a model whose state is reduced: its structure is that of the
/// map on T*G, checked there (the reduced map could have more than the map it is reduced from).
template <CotangentLieGroup Model>
bool reduced_cotangent_pair(const CompiledIntegrator<Model>& method) {
  return method.has_cotangent_map && Model::kReducedCotangentState;
}

template <class Model>
std::string case_name(const CompiledIntegrator<Model>& method) {
  return std::string(method.name()) + "_on_" + std::string(Model::kName);
}

/// A test whose body is a function, for register_case.
class GeneratedCase : public ::testing::Test {
 public:
  explicit GeneratedCase(std::function<void()> body) : body_(std::move(body)) {}
  void TestBody() override { body_(); }

 private:
  std::function<void()> body_;
};

/// Registers the test <suite>.<name> running `body`.
inline void register_case(const char* suite, const std::string& name, std::function<void()> body,
                          const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  ::testing::RegisterTest(
      suite, name.c_str(), nullptr, nullptr, file, line,
      [body = std::move(body)]() -> GeneratedCase* { return new GeneratedCase(body); });
}

}  // namespace geomint::testing
