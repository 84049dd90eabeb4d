"""The cells of a `geomint matrix` result directory: each model (experiment) x integrator pair
with the rows verdicts.csv gives it. The verdicts are the C++ engine's (studies/verdicts.hpp,
docs/result-files.md); this file judges nothing, it only combines a cell's rows:

- broken when any of its promises is broken, else
- not checked when any could not be checked, else
- explained when any is a known deviation (the spec's known_deviations), else
- kept: every promise that applies was measured and held.

A cell whose every row is not checked because the model lacks the view the integrator needs
(why = n/a) is "na": not checked, but drawn apart. A pair with no verdict row is "no_promise"
when a case of it finished (a long run of a method that promises nothing there: its α and
drift are measured and shown, nothing is judged), else not checked.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from formatting import (STATES, TimingMark, fmt_bound, fmt_float, fmt_value, state_words,
                        verdict_state)
from results import Row, Study

CELL_STATES = tuple(STATES)  # kept, broken, not_checked, explained, na: the legend's order


def is_matrix(study: Study) -> bool:
    return study.manifest.get("kind") == "matrix"


def cell_state(verdicts: list[Row]) -> str:
    """The state of a cell with these verdict rows (see the module's comment)."""
    states = {row["state"] for row in verdicts}
    if not verdicts:
        return "not_checked"
    if all(verdict_state(row) == "na" for row in verdicts):
        return "na"
    for state in ("broken", "not_checked", "explained"):
        if state in states:
            return state
    return "kept"


@dataclass(frozen=True)
class Cell:
    """One model (experiment) x integrator pair and its verdict rows."""

    experiment: dict[str, Any]  # the manifest's experiment: the row
    integrator: str
    cases: list[Row]
    order: Row | None  # orders.csv's row, if any
    verdicts: list[Row]  # verdicts.csv's rows, one per promise

    @property
    def model(self) -> str:
        return str(self.experiment.get("model") or self.experiment["name"])

    @property
    def state(self) -> str:
        if not self.verdicts and any(case["status"] == "ok" for case in self.cases):
            return "no_promise"
        return cell_state(self.verdicts)

    def order_verdict(self) -> Row | None:
        return next((v for v in self.verdicts if v["promise"] == "order"), None)


@dataclass(frozen=True)
class Grid:
    """Every cell of a matrix study, rows (experiments) and columns (integrators) in the
    order cases.csv (then verdicts.csv) first names them."""

    rows: list[dict[str, Any]]
    integrators: list[str]
    families: dict[str, str]  # integrator -> its family
    cells: dict[tuple[str, str], Cell]  # (experiment name, integrator) -> cell
    verdicts: list[Row]  # every row of verdicts.csv: the legend counts them

    def cell(self, experiment: dict[str, Any], integrator: str) -> Cell:
        return self.cells[(experiment["name"], integrator)]


def grid(study: Study) -> Grid:
    families: dict[str, str] = {}
    cases: dict[tuple[str, str], list[Row]] = {}
    verdicts: dict[tuple[str, str], list[Row]] = {}
    for case in study.cases:
        families.setdefault(case["integrator"], case["family"])
        cases.setdefault((case["experiment"], case["integrator"]), []).append(case)
    for row in study.verdicts:
        families.setdefault(row["integrator"], row["family"])
        verdicts.setdefault((row["experiment"], row["integrator"]), []).append(row)
    rows = study.experiments()
    cells = {}
    for experiment in rows:
        name = experiment["name"]
        orders = {o["integrator"]: o for o in study.orders_of(name)}
        for integrator in families:
            cells[(name, integrator)] = Cell(experiment, integrator,
                                             cases.get((name, integrator), []),
                                             orders.get(integrator),
                                             verdicts.get((name, integrator), []))
    return Grid(rows, list(families), families, cells, study.verdicts)


def verdict_line(row: Row) -> str:
    """One promise of a cell, e.g. "order: ✓ kept — 4.02 (≥ 3.8): fitted 4.02 over ..."."""
    numbers = ", ".join(filter(None, (fmt_value(row), fmt_bound(row) and
                                      f"bound {fmt_bound(row)}")))
    return (f"{row['promise']}: {STATES[verdict_state(row)][0]} {state_words(row)}"
            + (f" — {numbers}" if numbers else "") + (f": {row['reason']}" if row["reason"]
                                                      else ""))


def finest(cases: list[Row]) -> Row | None:
    """The ok case with the smallest step (fixed-step) or tolerance (adaptive)."""
    ok = [c for c in cases if c["status"] == "ok"]
    return min(ok, key=setting) if ok else None


def setting(case: Row) -> float:
    """What makes a case finer: its step, or its tolerance for an adaptive method."""
    return case["h"] if case["h"] is not None else (case["rtol"] or math.inf)


def cell_lines(cell: Cell, mark: TimingMark) -> list[str]:
    """What a cell shows, as plain text lines: each promise's state, value, bound and reason;
    then the cost at the finest setting and the failures. An n/a cell: why, once."""
    if cell.state == "na":
        return [cell.verdicts[0]["reason"] or "n/a"]
    lines = [verdict_line(row) for row in cell.verdicts] or [
        "no verdict in verdicts.csv" + ("" if cell.cases else ": not run")]
    best = finest(cell.cases)
    if best:
        lines.append(f"finest setting: {fmt_float(best['cpu_s'])} s"
                     f"{mark.of(best['integrator'])}, {int(best['f_evals'] or 0)} evals")
    failed = [c for c in cell.cases if c["status"] not in ("ok", "n/a")]
    if failed:
        lines.append(f"{len(failed)} failed: " + ", ".join(sorted({c['status'] for c in failed})))
    return lines
