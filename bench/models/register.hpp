#pragma once
// The registration functions of bench_integrators, one per model and one translation unit each
// (bench/models/<model>.cpp), so that no translation unit instantiates the whole integrator
// catalogue on more than one model.

namespace geomint::bench {

void register_spherical_pendulum();
void register_double_spherical_pendulum();
void register_pendulum_chain();
void register_sphere_nbody();
void register_spring_pendula();
void register_elastic_rod();
void register_magnetic_dipoles();
void register_sphere_lj();
/// The equal-error pair dopri_vs_odeint/ (bench/dopri_vs_odeint.cpp).
void register_dopri_vs_odeint();

}  // namespace geomint::bench
