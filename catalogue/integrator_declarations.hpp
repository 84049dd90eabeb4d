#pragma once
// The integrator catalogue's declarations, without its templates (for specs and listings).

#include <string_view>
#include <vector>

#include "integrators/declaration.hpp"

namespace geomint {

struct IntegratorInfo {
  Declaration declaration;
  std::string_view needs;  // the view a model must offer
};

const std::vector<IntegratorInfo>& integrator_infos();
std::vector<Declaration> integrator_declarations();
/// nullptr when no integrator has that name.
const Declaration* find_integrator_declaration(std::string_view name);

}  // namespace geomint
