// geomint list [models|integrators|studies]
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "catalogue/integrator_declarations.hpp"
#include "cli/commands.hpp"
#include "models/parameters.hpp"
#include "studies/build_info.hpp"
#include "studies/model_catalogue.hpp"
#include "studies/spec.hpp"
#include "studies/spec_text.hpp"

namespace geomint::cli {

namespace {

using spec_text::one_line;

void list_models() {
  for (const ModelFace* face : model_catalogue()) {
    const ModelFace& m = *face;
    std::printf("%s\n  %s\n  parameters:\n", std::string(m.name()).c_str(),
                std::string(m.description()).c_str());
    const ParameterSet parameters = m.default_parameters();
    for (const auto& p : parameters.list())
      std::printf("    %-6s = %-8g %-7s %-23s %s\n", p.name.c_str(), p.value, p.unit.c_str(),
                  p.domain.describe().c_str(), p.description.c_str());
    const auto [layout, invariants] = m.declarations();
    std::printf("  state:");
    for (const auto& b : layout.blocks())
      std::printf(" %s in %s", b.name.c_str(), std::string(to_string(b.manifold)).c_str());
    std::printf("\n  invariants:");
    for (const auto& inv : invariants)
      std::printf(" %s (%s%s)", inv.name.c_str(), std::string(to_string(inv.kind)).c_str(),
                  inv.conserved ? ", conserved" : "");
    std::printf("\n  integrators:");
    for (std::string_view name : m.integrators()) std::printf(" %s", std::string(name).c_str());
    std::printf("\n  presets:\n");
    for (const auto& [name, description] : m.presets())
      std::printf("    %s: %s\n", name.c_str(), description.c_str());
    std::printf("\n");
  }
}

void list_integrators() {
  std::printf("%-14s %-12s %-5s %-9s %-36s %s\n", "name", "family", "order", "steps", "needs",
              "description");
  for (const auto& i : integrator_infos()) {
    const auto& d = i.declaration;
    std::printf("%-14s %-12s %-5d %-9s %-36s %s\n", std::string(d.name).c_str(),
                std::string(to_string(d.family)).c_str(), d.order,
                d.adaptive ? "adaptive" : "fixed", std::string(i.needs).c_str(),
                std::string(d.description).c_str());
  }
}

void list_studies() {
  const std::filesystem::path dir = std::filesystem::path(build_info::kSourceDir) / "studies";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    // The spec reader's checks, so that a malformed spec is listed as such, never thrown.
    std::string title;
    try {
      title = one_line(load_study_spec(f.string()).title);
    } catch (const InputError&) {
      title = "(unreadable: `geomint study` on it says why)";
    }
    std::printf("%-40s %s\n", f.string().c_str(), title.c_str());
  }
}

}  // namespace

Subcommand add_list_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List the models (with parameters and presets), the "
                                         "integrators, or the study specs");
  auto what = std::make_shared<std::string>("all");
  cmd->add_option("what", *what, "models | integrators | studies (default: all three)")
      ->check(CLI::IsMember({"all", "models", "integrators", "studies"}));
  return {cmd, [what] {
            if (*what == "all" || *what == "models") list_models();
            if (*what == "all" || *what == "integrators") list_integrators();
            if (*what == "all") std::printf("\n");
            if (*what == "all" || *what == "studies") list_studies();
            return 0;
          }};
}

}  // namespace geomint::cli
