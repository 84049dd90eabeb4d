#pragma once
// geomint's own catalogue on a model as a list of run-time integrators
// (catalogue/integrator_on_model.hpp). Included only by the units that compile them:
// catalogue/integrators_on_model.cpp.in, one per registry model.

#include <vector>

#include "catalogue/compiled_entry.hpp"
#include "catalogue/integrator_catalogue.hpp"

namespace geomint {

template <Model M>
std::span<const CompiledIntegrator<M>> builtin_integrators() {
  static const std::vector<CompiledIntegrator<M>> list = [] {
    std::vector<CompiledIntegrator<M>> out;
    for_each_integrator([&]<class Entry>() { out.push_back(compiled_entry<Entry, M>()); });
    return out;
  }();
  return list;
}

}  // namespace geomint
