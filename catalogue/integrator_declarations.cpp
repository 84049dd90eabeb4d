#include "catalogue/integrator_declarations.hpp"

#include "catalogue/integrator_catalogue.hpp"

namespace geomint {

AddedList<IntegratorInfo>& added_integrator_infos() {
  static AddedList<IntegratorInfo> list;
  return list;
}

const std::vector<IntegratorInfo>& integrator_infos() {
  static const std::vector<IntegratorInfo> list = [] {
    std::vector<IntegratorInfo> builtin;
    for_each_integrator(
        [&]<class Entry>() { builtin.push_back({Entry::declaration, Entry::View::name}); });
    return with_added<IntegratorInfo>(builtin, added_integrator_infos().read(),
                                      [](const IntegratorInfo& i) { return i.declaration.name; });
  }();
  return list;
}

std::vector<Declaration> integrator_declarations() {
  std::vector<Declaration> out;
  for (const auto& i : integrator_infos()) out.push_back(i.declaration);
  return out;
}

const Declaration* find_integrator_declaration(std::string_view name) {
  for (const auto& i : integrator_infos())
    if (i.declaration.name == name) return &i.declaration;
  return nullptr;
}

}  // namespace geomint
