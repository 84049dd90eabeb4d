"""The matrix's verdict: each model x integrator cell of a `geomint matrix` result directory
judged on every finished case against what the integrator declares (PROMISES, which the
matrix page prints).

A cell keeps its promises when every one that applies is kept, breaks one (named), has a case
that failed (its failure kind named), or is n/a: the model lacks the view the integrator needs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from formatting import ORDER_TOLERANCE, TimingMark, fmt_float, fmt_order
from results import Row, Study, read_csv

MANIFOLD_TOLERANCE = 1e-12
MOMENTUM_TOLERANCE = 1e-10
ENERGY_BOUND = 1e-2
PROMISE_COLUMNS = ("symplectic", "stays_on_manifold", "momentum_rel_err_max",
                   "energy_rel_err_max", "manifold_defect_max")
PROMISES = (
    f"its order: |fitted − nominal| ≤ {ORDER_TOLERANCE:g} (fixed-step methods whose fit kept "
    "at least 3 points)",
    "staying on the manifold, if it declares so: every manifold defect the model declares "
    f"(|‖q_i‖ − 1|, |q_i · w_i|, ‖QᵀQ − I‖, …; manifold_defect_max) ≤ {MANIFOLD_TOLERANCE:g}",
    f"symplecticity, if it declares it: the momentum map kept to {MOMENTUM_TOLERANCE:g} "
    "relative (models with a symmetry) and a bounded energy error, max |E − E₀| / |E₀| ≤ "
    f"{ENERGY_BOUND:g}",
)


def is_matrix(study: Study) -> bool:
    return study.manifest.get("kind") == "matrix"


@dataclass(frozen=True)
class Cell:
    """One model (experiment) x integrator pair, judged."""

    experiment: dict[str, Any]  # the manifest's experiment: the row
    integrator: str
    cases: list[Row]
    order: Row | None  # orders.csv's fit, if any
    kind: str  # kept, broken, failed, na, unjudged (judge)
    notes: list[str]  # the promises broken, or the failure kinds

    @property
    def model(self) -> str:
        return str(self.experiment.get("model") or self.experiment["name"])


@dataclass(frozen=True)
class Grid:
    """Every cell of a matrix study, rows (experiments) and columns (integrators) in the
    order cases.csv first names them."""

    rows: list[dict[str, Any]]
    integrators: list[str]
    families: dict[str, str]  # integrator -> cases.csv's family
    cells: dict[tuple[str, str], Cell]  # (experiment name, integrator) -> cell

    def cell(self, experiment: dict[str, Any], integrator: str) -> Cell:
        return self.cells[(experiment["name"], integrator)]


def grid(study: Study) -> Grid:
    """The study's cells, each judged on its cases (with the promise columns of cases.csv)."""
    extra = {r["case_id"]: r for r in read_csv(study.path / "cases.csv", ("case_id",),
                                               PROMISE_COLUMNS)}
    cases = [{**c, **extra.get(c["case_id"], {})} for c in study.cases]
    families: dict[str, str] = {}
    by_pair: dict[tuple[str, str], list[Row]] = {}
    for case in cases:
        families.setdefault(case["integrator"], case["family"])
        by_pair.setdefault((case["experiment"], case["integrator"]), []).append(case)
    rows = study.experiments()
    cells = {}
    for experiment in rows:
        name = experiment["name"]
        orders = {o["integrator"]: o for o in study.orders_of(name)}
        for integrator in families:
            pair = by_pair.get((name, integrator), [])
            kind, notes = judge(pair, orders.get(integrator)) if pair else ("unjudged", [])
            cells[(name, integrator)] = Cell(experiment, integrator, pair,
                                             orders.get(integrator), kind, notes)
    return Grid(rows, list(families), families, cells)


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def _finest(cases: list[Row]) -> Row | None:
    """The ok case with the smallest step (fixed-step) or tolerance (adaptive)."""
    ok = [c for c in cases if c["status"] == "ok"]
    if not ok:
        return None
    return min(ok, key=lambda c: c["h"] if c["h"] is not None else (c["rtol"] or math.inf))


def judge(cases: list[Row], order: Row | None) -> tuple[str, list[str]]:
    """The cell's class (kept, broken, failed, na, unjudged) and the promises broken."""
    if all(c["status"] == "n/a" for c in cases):
        return "na", []
    failed = sorted({c["status"] for c in cases if c["status"] not in ("ok", "n/a")})
    ok = [c for c in cases if c["status"] == "ok"]
    broken: list[str] = []
    if order and _finite(order["fitted_order"]) and order["abscissa"] == "h" and \
            abs(order["fitted_order"] - order["nominal_order"]) > ORDER_TOLERANCE:
        broken.append("order")
    if any(c["stays_on_manifold"] for c in ok) and any(
            not (c["manifold_defect_max"] is None or c["manifold_defect_max"] <= MANIFOLD_TOLERANCE)
            for c in ok):
        broken.append("manifold")
    if any(c["symplectic"] for c in ok):
        if any(_finite(c["momentum_rel_err_max"]) and c["momentum_rel_err_max"] > MOMENTUM_TOLERANCE
               for c in ok):
            broken.append("momentum")
        if any(not _finite(c["energy_rel_err_max"]) or c["energy_rel_err_max"] > ENERGY_BOUND
               for c in ok):
            broken.append("bounded energy")
    if broken:
        return "broken", broken
    if failed:
        return "failed", failed
    return ("kept" if ok else "unjudged"), []


def cell_lines(cell: Cell, mark: TimingMark) -> list[str]:
    """What a cell shows, as plain text lines: the observed order (fixed-step methods), then
    at the finest setting the relative energy error, the drift, the manifold defect and the
    cost; the failures; the promises broken. An n/a cell: why."""
    if cell.kind == "na":
        return [next((c["status_detail"] for c in cell.cases if c["status_detail"]), "n/a")]
    lines: list[str] = []
    order = cell.order
    if order and order["abscissa"] == "h":
        lines.append(f"p = {fmt_order(order['fitted_order'])} "
                     f"({fmt_order(order['nominal_order'])})")
    finest = _finest(cell.cases)
    if finest:
        lines.append(f"|ΔE|/|E| {fmt_float(finest['energy_rel_err_max'])}")
        lines.append(f"drift {fmt_float(finest['energy_drift_per_time'])} /s")
        lines.append(f"defect {fmt_float(finest['manifold_defect_max'])}")
        lines.append(f"{fmt_float(finest['cpu_s'])} s{mark.of(finest['integrator'])}, "
                     f"{int(finest['f_evals'] or 0)} evals")
    failed = [c for c in cell.cases if c["status"] not in ("ok", "n/a")]
    if failed:
        lines.append(f"{len(failed)} failed: " + ", ".join(sorted({c['status'] for c in failed})))
    if cell.kind == "broken":
        lines.append("broke: " + ", ".join(cell.notes))
    return lines
