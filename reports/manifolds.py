"""The manifold each model's state lives on, by model name: the matrix page groups its rows by it
and the error axes name the parts of the state distance by it.

The study manifest records it per experiment (`state_space`, studies/study_manifest.cpp): the
signature of the model's state layout (models/manifold_signature.hpp, e.g. "(TS2)^n", "so3*",
"SO3 x R3") and the manifolds of its blocks. make_report.py notes each manifest it loads here, so
a new model needs nothing in this file; a model no manifest has described is an error rather than
a guess.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from results import ResultError

# How the report writes the factors of a signature (the manifolds of models/state_blocks.hpp).
_SYMBOLS = {"(TS2)^n": "(TS²)ⁿ", "TS2": "TS²", "T_qS2": "T_qS²", "S2": "S²", "SO3": "SO(3)",
            "so3*": "so(3)*", "se3*": "se(3)*", "R3": "ℝ³", "Rn": "ℝᵏ"}
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# The blocks whose distance is an angle (the rest are Euclidean), as the axis names them.
_ANGLES = {"S2": r"angles on $S^2$ [rad]", "SO3": "angle on SO(3) [rad]"}
_EUCLIDEAN = "Euclidean [model units]"


@dataclass(frozen=True)
class Manifold:
    label: str  # as the matrix page prints it
    block_manifolds: tuple[str, ...]  # the manifolds of the state's blocks, as the model declares

    @property
    def blocks(self) -> str:
        """What the label stands for, as the matrix page's tooltip says it."""
        return ("the state's blocks lie on " + ", ".join(self.block_manifolds)
                + " (models/state_blocks.hpp)")


_known: dict[str, Manifold] = {}


def _label(signature: str) -> str:
    """The signature as the page prints it, a run of one factor as its power: "R3 x R3" is
    "(ℝ³)²"."""
    parts = []
    for factor, run in itertools.groupby(signature.split(" x ")):
        symbol, count = _SYMBOLS.get(factor, factor), len(list(run))
        parts.append(symbol if count == 1 else f"({symbol}){str(count).translate(_SUPERSCRIPTS)}")
    return " × ".join(parts)


def note_manifest(path: Any, manifest: dict[str, Any]) -> None:
    """Notes the state space of every experiment's model; ResultError on a malformed one."""
    for experiment in manifest.get("experiments", []):
        space, model = experiment.get("state_space"), experiment.get("model")
        if space is None or not isinstance(model, str):
            continue
        blocks = space.get("block_manifolds") if isinstance(space, dict) else None
        if not (isinstance(space, dict) and isinstance(space.get("signature"), str)
                and isinstance(blocks, list) and all(isinstance(b, str) for b in blocks)):
            raise ResultError(f"{path}: experiment '{experiment.get('name')}': 'state_space' must "
                              "be an object with a string 'signature' and a list "
                              "'block_manifolds' of strings")
        _known[model] = Manifold(_label(space["signature"]), tuple(blocks))


def manifold_of(model: str) -> Manifold:
    """The model's manifold; ResultError naming the model when no manifest described it."""
    try:
        return _known[model]
    except KeyError:
        raise ResultError(f"model '{model}': no study manifest records its state space "
                          "('state_space'; rerun the study with this geomint)") from None


def error_distance(model: str) -> str:
    """The global error's distance on the model's manifold, by its parts: the angles of its S²
    and SO(3) blocks, the Euclidean norm of the rest."""
    manifold = _known.get(model)
    if manifold is None:
        return "the model's state distance [model units]"
    parts = [_ANGLES[m] for m in ("S2", "SO3") if m in manifold.block_manifolds]
    if any(m not in _ANGLES for m in manifold.block_manifolds):
        parts.append(_EUCLIDEAN)
    return r" $\oplus$ ".join(parts)
