#pragma once
// A catalogue entry of a project outside geomint added to the catalogue of an installed geomint
// (docs/adding-an-integrator.md, "From your own CMake project"). geomint_add_integrator()
// (cmake/geomint_add_integrator.cmake) generates one unit per registry model from
// catalogue/added_on_model.cpp.in, each compiling the entry on its model alone and defining one
// AddedToCatalogue, whose constructor runs while the program starts: the libraries of geomint
// are compiled already, so the entry joins their catalogue at run time, where every harness
// finds it (catalogue/integrator_on_model.hpp, catalogue/integrator_declarations.hpp).

#include <string_view>

#include "catalogue/catalogue_entry.hpp"
#include "catalogue/compiled_entry.hpp"
#include "catalogue/integrator_declarations.hpp"

namespace geomint {

/// Adds Entry on M to the catalogue when constructed (as a namespace-scope object); the
/// declaration is listed once, whichever model's unit adds it first.
template <CatalogueEntry Entry, Model M>
struct AddedToCatalogue {
  AddedToCatalogue() {
    added_integrators_on<M>().add(compiled_entry<Entry, M>());
    AddedList<IntegratorInfo>& infos = added_integrator_infos();
    const std::string_view name = Entry::declaration.name;
    if (!infos.contains([&](const IntegratorInfo& i) { return i.declaration.name == name; }))
      infos.add({Entry::declaration, Entry::View::name, true});
  }
};

}  // namespace geomint
