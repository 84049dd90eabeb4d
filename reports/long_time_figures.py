"""Per model of a long-time matrix, one figure of its long run: the envelopes of its errors
against t on log-log axes, so that a reader sees how each error grows, not only the exponent α
the heat map gives.

Three rows, one per kind of error, and a column per integrator family that ran on the model
(formatting.FAMILIES' order, the peers last):
- the energy's change |E(t) - E(0)|, where the exact flow conserves an energy;
- the largest change of a conserved momentum map or Casimir;
- the largest manifold defect (or constraint residual).
Each case is one line, its envelope (long_time.envelope): per logarithmic time bin the largest
max(|min|, |max|) of the row's quantities, drawn at the bin's upper edge, so that a point never
stands before a time at which its error was reached. The rows share their y axis across the
families and every panel the time axis, so that panels compare at a glance. Dashed grey lines
t⁰, t^½ and t¹ (bounded, a random walk, a drift) start together at the median envelope at the
start of the panel's fit window (the earliest fit_from, 100 t1, t1 the first output time; the
first time drawn when no α was fitted), the point from which α is fitted; a curve parallel to
one grows with its exponent. A panel whose errors are all exactly 0 has no slopes; one with
nothing to draw says "none" and why. Every integrator has its style (integrator_style.py), and
each column its own legend below it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.axis import Axis  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402
from matplotlib.ticker import NullLocator  # noqa: E402

import long_time  # noqa: E402
from figures import (COINCIDENCE, FLOOR, FLOOR_NOTE, MODEL_UNITS, CaseLook,  # noqa: E402
                     Figure, case_looks, coincidences, in_legend_order, save_figure)
from formatting import FAMILIES, family_rank  # noqa: E402
from integrator_style import Styles  # noqa: E402
from results import LongTime, Row, Study, slug  # noqa: E402

PLOT = "long_time"  # the figure's name among an experiment's figures (and in its file name)


@dataclass(frozen=True)
class EnvelopeRow:
    """One row of the figure: the kinds of quantity whose largest error it draws."""

    kinds: tuple[str, ...]
    ylabel: str
    missing: str  # what a panel without any says the model lacks


ROWS = (
    EnvelopeRow(("energy",), "energy\n$|E(t) - E(0)|$ [model units]", "no conserved energy"),
    EnvelopeRow(("momentum", "casimir"),
                "momentum map, Casimir\n$\\mathrm{max}_k\\ |\\Delta J_k(t)|$ [model units]",
                "no conserved momentum map\nor Casimir"),
    EnvelopeRow(("manifold_defect", "constraint_residual"),
                "manifold defect\n$\\mathrm{max}_k\\ |D_k(t)|$ [model units]",
                "no manifold defect"),
)
SLOPES = ((0.0, "$t^0$"), (0.5, "$t^{1/2}$"), (1.0, "$t^1$"))
SLOPE_STYLE = {"color": "0.45", "linestyle": "--", "linewidth": 0.9}
PANEL = (2.35, 1.85)  # inches: the width of a column, the height of a row of panels
LEGEND_LINE = 0.15  # inches a legend entry takes
ENVELOPE_NOTE = ("Each line is one case's envelope: per logarithmic time bin (ten a decade) the "
                 "largest max(|min|, |max|) of the row's quantities over the bin, drawn at the "
                 "bin's upper edge. Dashed grey: t^0 (bounded), t^1/2 (a random walk) and t^1 (a "
                 "drift), through the median envelope where the growth exponent's fit starts "
                 "(100 t1, t1 the first output time).")
SAME_NOTE = (f"'(= X)': the same envelopes as X's within {COINCIDENCE:.0%} at every point drawn; "
             "drawn dashed on top of X's, so both show.")
FAILED_NOTE = "A case that failed is drawn up to its failure (its status in the legend)."


def draw_long_time_figures(study: Study, out_dir: Path) -> dict[str, Figure]:
    """Each experiment's (model's) figure into out_dir/figures/<study>/<experiment>-long_time,
    by experiment name; one with no long-time statistics gets a note instead."""
    styles = Styles(study.manifest, study.cases)
    drawn = {}
    for experiment in study.experiments():
        name = experiment["name"]
        runs = [(case, stats) for case in study.cases_of(name)
                if (stats := study.long_time(case["case_id"])) is not None]
        title = (f"{experiment.get('model') or name} ({experiment.get('preset') or 'default'}): "
                 "the long run's error envelopes")
        fig, notes = envelope_figure(title, runs, styles)
        stem = None
        if fig is not None:
            stem = f"figures/{study.slug}/{slug(name)}-{PLOT}"
            save_figure(fig, out_dir / stem)
        drawn[name] = Figure(PLOT, stem, notes)
    return drawn


@dataclass(frozen=True)
class Run:
    """One case of the figure: its row of cases.csv, its statistics and its envelope in each
    of ROWS (None where it has no quantity of the row's kinds)."""

    case: Row
    stats: LongTime
    curves: list[tuple[np.ndarray, np.ndarray] | None]


def envelope_figure(title: str, runs: list[tuple[Row, LongTime]],
                    styles: Styles) -> tuple[MplFigure | None, list[str]]:
    """The figure of one model's cases with their statistics (see the module's comment), and
    its notes; None when no case has statistics."""
    if not runs:
        return None, ["No case has long-time statistics."]
    stats = {case["case_id"]: found for case, found in runs}
    ordered = [Run(case, stats[case["case_id"]],
                   [long_time.envelope(stats[case["case_id"]], row.kinds) for row in ROWS])
               for case in in_legend_order([case for case, _ in runs], styles)]
    families = sorted(dict.fromkeys(run.case["family"] for run in ordered), key=family_rank)
    columns = [[run for run in ordered if run.case["family"] == family] for family in families]
    legend_height = LEGEND_LINE * max(map(len, columns)) + 0.2
    fig = plt.figure(figsize=(PANEL[0] * len(families) + 1.2,
                              PANEL[1] * len(ROWS) + legend_height + 0.5), layout="constrained")
    grid = fig.add_gridspec(len(ROWS) + 1, len(families),
                            height_ratios=[PANEL[1]] * len(ROWS) + [legend_height])
    panels: list[list[Axes]] = [[] for _ in ROWS]
    labels: list[str] = []
    for col, (family, column) in enumerate(zip(families, columns)):
        looks = _looks([run.case for run in column],
                       [[_trace(curve) for curve in run.curves] for run in column], styles)
        for r, row in enumerate(ROWS):
            ax = fig.add_subplot(grid[r, col], sharex=panels[0][0] if panels[0] else None,
                                 sharey=panels[r][0] if panels[r] else None)
            panels[r].append(ax)
            _panel(ax, r, [(look, run) for look, run in zip(looks, column)])
            _axes_labels(ax, r, col, row)
        panels[0][col].set_title(FAMILIES.get(family, family), fontsize="medium")
        legend_axes = fig.add_subplot(grid[len(ROWS), col])
        legend_axes.axis("off")
        legend_axes.legend(handles=[look.handle()[1] for look in looks], loc="upper center",
                           fontsize="x-small", frameon=False, borderaxespad=0.0)
        labels += [look.label for look in looks]
    _shared_scales(panels, ordered)
    fig.suptitle(title)
    clipped = any(curve is not None and (curve[1] < FLOOR).any()
                  for run in ordered for curve in run.curves)
    return fig, _notes(clipped, labels, [run.case for run in ordered])


def _panel(ax: Axes, r: int, column: list[tuple[CaseLook, Run]]) -> None:
    """Row r of one family's column: each case's envelope at or above the floor and the
    reference slopes, or "none" and why."""
    drawn = [(look, run) for look, run in column if _drawable(run.curves[r])]
    for look, run in drawn:
        t, y = run.curves[r]
        look.plot(ax, t, np.maximum(y, FLOOR))
    if drawn:
        _reference_slopes(ax, [run for _, run in drawn], r)
    elif all(run.curves[r] is None for _, run in column):
        _none(ax, ROWS[r].missing)
    else:
        _none(ax, "no finite value")


def _looks(cases: list[Row], traces: list[list[np.ndarray]], styles: Styles) -> list[CaseLook]:
    """figures.case_looks' looks (style, shade, dashes where curves coincide), labelled short
    enough for a legend under a column: the integrator and its h or rtol, its status when it
    failed, and the integrator it coincides with."""
    scales: list[float | None] = [None] * len(ROWS)
    first = coincidences(traces, scales)
    looks = []
    for case, look, same in zip(cases, case_looks(cases, traces, styles, scales), first):
        label = _short_label(case) + ("" if case["status"] == "ok" else f" ({case['status']})")
        if same is not None:
            other = cases[same]
            label += (f" (= {_short_label(other)})" if other["integrator"] == case["integrator"]
                      else f" (= {other['integrator']})")
        looks.append(replace(look, label=label))
    return looks


def _short_label(case: Row) -> str:
    """The integrator and its h or rtol (not atol: the hover of its heat map cell has it)."""
    if case["h"] is not None:
        return f"{case['integrator']} h={case['h']:.3g}"
    if case["rtol"] is not None:
        return f"{case['integrator']} rtol={case['rtol']:.3g}"
    return str(case["integrator"])


def _trace(curve: tuple[np.ndarray, np.ndarray] | None) -> np.ndarray:
    """A curve as case_looks compares it (t over y); a missing one never coincides."""
    return np.full((2, 1), math.nan) if curve is None else np.vstack(curve)


def _drawable(curve: tuple[np.ndarray, np.ndarray] | None) -> bool:
    return curve is not None and bool(np.isfinite(curve[1]).any())


def _reference_slopes(ax: Axes, drawn: list[Run], r: int) -> None:
    """t⁰, t^½ and t¹ from where the panel's earliest fit starts to its last time, through the
    median of the envelopes there above the floor (see the module's comment), each labelled at
    its end; they leave the axes' limits to the data."""
    curves = [run.curves[r] for run in drawn]
    starts = [q.fit_from for run in drawn for q in run.stats.quantities
              if q.kind in ROWS[r].kinds and math.isfinite(q.fit_from) and q.fit_from > 0]
    first = min(t[np.isfinite(y)].min() for t, y in curves)
    last = max(t[np.isfinite(y)].max() for t, y in curves)
    start = min(starts) if starts and min(starts) < last else first
    known = [y for y in (_at(t, y, start) for t, y in curves) if y > FLOOR]
    if not known or not last > start:
        return  # no error there but exact zeros: nothing grows, nothing to compare with
    anchor = 10 ** float(np.median(np.log10(known)))
    ends = np.array([start, last])
    for exponent, text in SLOPES:
        values = anchor * (ends / start) ** exponent
        ax.plot(ends, values, scalex=False, scaley=False, zorder=1, **SLOPE_STYLE)
        ax.annotate(text, (last, values[-1]), xytext=(2, 0), textcoords="offset points",
                    ha="left", va="center", fontsize="x-small", color=SLOPE_STYLE["color"],
                    annotation_clip=True)


def _shared_scales(panels: list[list[Axes]], runs: list[Run]) -> None:
    """The time axis all panels share, widened for the slopes' labels, and the y axis each row
    shares; a row with nothing drawn has no scale."""
    _room_for_slope_labels(panels[0][0], [c for run in runs for c in run.curves if c is not None])
    _no_minor_ticks_over_decades(panels[0][0].xaxis, panels[0][0].get_xlim())
    for r, row in enumerate(panels):
        if any(_drawable(run.curves[r]) for run in runs):
            _no_minor_ticks_over_decades(row[0].yaxis, row[0].get_ylim())
        else:
            row[0].yaxis.set_major_locator(NullLocator())
            row[0].yaxis.set_minor_locator(NullLocator())


def _room_for_slope_labels(ax: Axes, curves: list[tuple[np.ndarray, np.ndarray]]) -> None:
    """Widen the shared time axis to the right of the last time drawn, so that the slopes'
    labels there stay inside their panels."""
    times = np.concatenate([t[np.isfinite(y) & (t > 0)] for t, y in curves] or [np.empty(0)])
    if times.size:
        span = max(math.log10(times.max() / times.min()), 1.0)
        ax.set_xlim(times.min() / 10 ** (0.03 * span), times.max() * 10 ** (0.14 * span))


def _no_minor_ticks_over_decades(axis: Axis, limits: tuple[float, float]) -> None:
    """A log axis over two decades or more loses its minor ticks: clutter there (and most of
    the drawing time); a shorter one keeps them, with the labels they carry."""
    low, high = sorted(limits)
    if low > 0 and math.log10(high / low) >= 2:
        axis.set_minor_locator(NullLocator())


def _at(t: np.ndarray, y: np.ndarray, time: float) -> float:
    """The envelope at time, interpolated on log-log axes (at the floor where it is below it);
    NaN where the curve does not reach that time."""
    finite = np.isfinite(y)
    t, y = t[finite], np.maximum(y[finite], FLOOR)
    if not t.size or time < t[0] or time > t[-1]:
        return math.nan
    return float(10 ** np.interp(math.log10(time), np.log10(t), np.log10(y)))


def _none(ax: Axes, why: str) -> None:
    ax.text(0.5, 0.55, "none", transform=ax.transAxes, ha="center", va="center",
            fontsize="large", color="0.4")
    ax.text(0.5, 0.3, why, transform=ax.transAxes, ha="center", va="center",
            fontsize="x-small", color="0.4")


def _axes_labels(ax: Axes, r: int, col: int, row: EnvelopeRow) -> None:
    """Log-log axes; time labels on the bottom row, the quantity's on the first column."""
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.grid(True, which="major", alpha=0.3)
    ax.tick_params(which="both", labelbottom=r == len(ROWS) - 1, labelleft=col == 0,
                   labelsize="x-small")
    if r == len(ROWS) - 1:
        ax.set_xlabel("time t [s]", fontsize="small")
    if col == 0:
        ax.set_ylabel(row.ylabel, fontsize="small")


def _notes(clipped: bool, labels: list[str], cases: list[Row]) -> list[str]:
    notes = [ENVELOPE_NOTE]
    if clipped:
        notes.append(FLOOR_NOTE)
    if any("(= " in label for label in labels):
        notes.append(SAME_NOTE)
    if any(case["status"] != "ok" for case in cases):
        notes.append(FAILED_NOTE)
    return notes + [MODEL_UNITS]
