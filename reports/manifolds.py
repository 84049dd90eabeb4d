"""The manifold each model's state lives on, by model name: the matrix page groups its rows by it.

The result files do not record it. A model declares its state as blocks, each on a named
manifold (S2, T_qS2, SO3, R3, so3*, se3*, Rn: models/state_blocks.hpp), in its constructor:
models/sphere_model.hpp for the (S²)ⁿ models (a q_i on S2 and its w_i on T_qS2 per body),
layout_.add in models/<model>.cpp for the others; README.md's model table names the same spaces.
This table copies those declarations. A model it does not know is an error rather than a guess:
a new line in catalogue/model_registry.txt needs one here too (test_report checks the two agree).
"""
from __future__ import annotations

from dataclasses import dataclass

from results import ResultError


@dataclass(frozen=True)
class Manifold:
    label: str  # as the matrix page prints it
    blocks: str  # the state blocks behind it, as the models declare them


SPHERES = Manifold("(S²)ⁿ", "q_i on S2, w_i on T_qS2 (models/sphere_model.hpp)")
RIGID_BODY = Manifold("so(3)*", "Pi on so3* (models/free_rigid_body.cpp)")
TOP = Manifold("T*SO(3) ≅ SO(3) × ℝ³", "Q on SO3, pi on R3 (models/heavy_top.cpp)")
TOP_REDUCED = Manifold("se(3)*", "Pi on so3*, Gamma on R3 (models/heavy_top_lie_poisson.cpp)")
TOP_QUADRATIC = Manifold("T*(SO(3) × ℝ³) ≅ SO(3) × ℝ⁹",
                         "Q on SO3; pi, q, p on R3 (models/heavy_top_quadratic.cpp)")
QUADROTORS = Manifold("ℝ³ × SO(3)² × (S²)²", "y, v on R3; R_i on SO3, Omega_i on R3; "
                      "q_i on S2, w_i on T_qS2 (models/quadrotors_payload.cpp)")
ASTROJAX = Manifold("(ℝ³)² with constraints", "q1, q2, v1, v2 on R3 (models/astrojax.cpp)")
ASTROJAX_PLANAR = Manifold("ℝ³ (λ, θ₁, θ₂)", "the three and their rates on Rn "
                           "(models/astrojax_planar.cpp)")
# The order of the matrix page's groups: spheres, then Lie groups and their duals, then
# Euclidean spaces.
MANIFOLDS = (SPHERES, RIGID_BODY, TOP, TOP_REDUCED, TOP_QUADRATIC, QUADROTORS, ASTROJAX,
             ASTROJAX_PLANAR)

MODEL_MANIFOLDS = {
    "spherical_pendulum": SPHERES,
    "double_spherical_pendulum": SPHERES,
    "pendulum_chain": SPHERES,
    "sphere_nbody": SPHERES,
    "spring_pendula": SPHERES,
    "elastic_rod": SPHERES,
    "magnetic_dipoles": SPHERES,
    "sphere_lj": SPHERES,
    "sphere_charges": SPHERES,
    "free_rigid_body": RIGID_BODY,
    "heavy_top": TOP,
    "heavy_top_lie_poisson": TOP_REDUCED,
    "heavy_top_quadratic": TOP_QUADRATIC,
    "quadrotors_payload": QUADROTORS,
    "astrojax": ASTROJAX,
    "astrojax_planar": ASTROJAX_PLANAR,
}


def manifold_of(model: str) -> Manifold:
    """The model's manifold; ResultError naming the model when the table does not know it."""
    try:
        return MODEL_MANIFOLDS[model]
    except KeyError:
        raise ResultError(f"model '{model}' is not in reports/manifolds.py's table of manifolds "
                          "(add it there, from the state blocks its constructor declares)") \
            from None
