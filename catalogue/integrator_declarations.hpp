#pragma once
// The integrator catalogue's declarations, without its templates (for specs and listings).

#include <string_view>
#include <vector>

#include "catalogue/added_list.hpp"
#include "integrators/declaration.hpp"

namespace geomint {

struct IntegratorInfo {
  Declaration declaration;
  std::string_view needs;  // the view a model must offer
  bool added = false;      // by a project outside geomint (catalogue/add_integrator.hpp)
};

/// geomint's own integrators in catalogue order, then those projects outside geomint added, by
/// name.
const std::vector<IntegratorInfo>& integrator_infos();
std::vector<Declaration> integrator_declarations();
/// nullptr when no integrator has that name.
const Declaration* find_integrator_declaration(std::string_view name);

/// The integrators projects outside geomint add while their program starts, one each
/// (catalogue/add_integrator.hpp).
AddedList<IntegratorInfo>& added_integrator_infos();

}  // namespace geomint
