#pragma once
// Every model type the bench knows. Adding a model: its files in models/, one entry here, and
// one in GEOMINT_MODELS (studies/CMakeLists.txt), which instantiates the case runner for it.

#include <tuple>

#include "models/double_spherical_pendulum.hpp"
#include "models/elastic_rod.hpp"
#include "models/magnetic_dipoles.hpp"
#include "models/pendulum_chain.hpp"
#include "models/sphere_lj.hpp"
#include "models/sphere_nbody.hpp"
#include "models/spherical_pendulum.hpp"
#include "models/spring_pendula.hpp"

namespace geomint {

using ModelTypes = std::tuple<SphericalPendulum, DoubleSphericalPendulum, PendulumChain,
                              SphereNBody, SpringPendula, ElasticRod, MagneticDipoles,
                              SphereLennardJones>;

/// Calls f.template operator()<Model>() for every model type, in catalogue order.
template <class F>
void for_each_model_type(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f.template operator()<std::tuple_element_t<I, ModelTypes>>(), ...);
  }(std::make_index_sequence<std::tuple_size_v<ModelTypes>>{});
}

}  // namespace geomint
