"""What the report takes from the long-time statistics of a matrix's cases (series/<case_id>-
long-time.json, docs/result-files.md): which matrix is a long-time one, the case a cell's long
run is read from, and of that run the energy's and the largest manifold defect's growth and the
envelopes of its errors.

A long-time matrix is recognised by its data, not by its spec: a matrix (manifest kind
"matrix") any of whose cases wrote long-time statistics. Both ways of asking for them, the
spec's `every_model: {long_time: true}` and `long_time: true` on an experiment, lead to these
files, and a matrix without any has nothing for the long-time parts of its page to show.
"""
from __future__ import annotations

import math

import numpy as np

import matrix_verdict
from matrix_verdict import Cell
from results import LongTime, LongTimeQuantity, Row, Study


def is_long_time(study: Study) -> bool:
    """A matrix any of whose cases has long-time statistics (see the module's comment)."""
    return matrix_verdict.is_matrix(study) and any(
        study.long_time(case["case_id"]) is not None for case in study.cases)


def cell_case(study: Study, cell: Cell) -> tuple[Row | None, LongTime | None]:
    """The case a cell's long run is read from and its statistics: the finished case at the
    finest setting (the one the long-time verdicts judge), else the failed one at the finest
    setting, whose statistics stop at the failure; (None, None) when no case of the cell ran."""
    ran = [c for c in cell.cases if c["status"] not in ("n/a", "skipped")]
    case = matrix_verdict.finest(ran) or min(ran, key=matrix_verdict.setting, default=None)
    return case, (study.long_time(case["case_id"]) if case else None)


def energy(stats: LongTime) -> LongTimeQuantity | None:
    """The energy's change, where the exact flow conserves an energy."""
    return next((q for q in stats.quantities if q.kind == "energy"), None)


def largest_defect(stats: LongTime) -> LongTimeQuantity | None:
    """The manifold defect of largest max |err|, chosen as cases.csv's defect_alpha chooses it
    (studies/case_job.cpp): each replaces the one so far unless its max |err| is at most that
    one's, so the first of equal ones stays, and a NaN on either side is replaced."""
    worst = None
    for q in stats.quantities:
        if q.kind == "manifold_defect" and (worst is None or not q.abs_max <= worst.abs_max):
            worst = q
    return worst


def envelope(stats: LongTime, kinds: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """The envelope of the largest error of the quantities of these kinds: per time bin, the
    largest max(|min|, |max|) over them (NaN where any is NaN), at the bin's upper edge t_hi;
    None when the case has no quantity of these kinds. The quantities of one case share their
    bins, but the envelope does not rely on it: it takes each bin where any quantity has it."""
    largest: dict[float, float] = {}
    found = [q for q in stats.quantities if q.kind in kinds]
    for q in found:
        errors = np.maximum(np.abs(q.bins["min"]), np.abs(q.bins["max"]))
        for t, error in zip(q.bins["t_hi"], errors):
            if math.isfinite(t):
                known = largest.get(t, -math.inf)
                largest[t] = math.nan if math.isnan(known) or math.isnan(error) \
                    else max(known, error)
    if not found:
        return None
    times = np.array(sorted(largest))
    return times, np.array([largest[t] for t in times])
