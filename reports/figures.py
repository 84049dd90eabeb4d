"""The matplotlib figures of one experiment: invariant errors over time and convergence.

Each figure is written as PNG (shown on the page) and SVG (linked from it). A plot
with nothing to draw is not written; its reason goes into the figure's notes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from formatting import case_label, fmt_float, fmt_order, status_text  # noqa: E402
from results import Row, Series, Study, slug  # noqa: E402

# Round-off-level errors (1e-16) and exact zeros would stretch or break a log axis.
FLOOR = 1e-17
COLORS = plt.get_cmap("tab10").colors
# Time-series figures can hold many cases: after ten colours, change the line style.
LINE_CYCLE = plt.cycler(linestyle=["-", "--", ":", "-."]) * plt.cycler(color=COLORS)
plt.rcParams["svg.hashsalt"] = "geomint"  # stable element ids, so reruns diff cleanly


@dataclass(frozen=True)
class SeriesPlot:
    """How one series/<case_id>.csv column is drawn against time."""

    column: str
    ylabel: str
    title: str
    clip_to_floor: bool  # else non-positive values are left out


SERIES_PLOTS = {
    "energy": SeriesPlot("energy_err", "$|E(t) - E(0)|$ [J]\n(exact zeros omitted)",
                         "energy error", False),
    "unit_length": SeriesPlot("unit_length_err", r"$\mathrm{max}_i\ |\ \|q_i\| - 1\ |$",
                              "unit-length error", True),
    "tangency": SeriesPlot("tangency_err", r"$\mathrm{max}_i\ |q_i \cdot \omega_i|$ [rad/s]",
                           "tangency error", True),
    "momentum": SeriesPlot("momentum_err", r"$\mathrm{max}_k\ |J_k(t) - J_k(0)|$",
                           "momentum error", True),
    "steps": SeriesPlot("step", "step size [s]", "step size", False),
}


@dataclass
class Figure:
    """One requested plot; stem is its path in the report without suffix, or None."""

    plot: str
    stem: str | None
    notes: list[str] = field(default_factory=list)


@dataclass
class ExperimentFigures:
    figures: list[Figure]
    notes: list[str]


def experiment_figures(study: Study, experiment: dict[str, Any],
                       out_dir: Path) -> ExperimentFigures:
    """Draw every plot the experiment asks for into out_dir/figures/<study>/."""
    name = experiment["name"]
    cases = study.cases_of(name)
    plots = list(experiment.get("plots") or [])
    notes: list[str] = []
    series: dict[str, Series] = {}
    if any(plot in SERIES_PLOTS for plot in plots):
        for case in cases:
            loaded = study.series(case["case_id"])
            if loaded is None:
                notes.append(f"No series file for {case_label(case)} ({case['case_id']}).")
            else:
                series[case["case_id"]] = loaded
    title = str(experiment.get("title") or name)
    figures = []
    for plot in plots:
        if plot == "convergence":
            fig, plot_notes = convergence_figure(title, experiment.get("reference_err"),
                                                 cases, study.orders_of(name))
        elif plot in SERIES_PLOTS:
            fig, plot_notes = series_figure(SERIES_PLOTS[plot], title, cases, series)
        else:
            figures.append(Figure(plot, None, [f"Unknown plot kind '{plot}'."]))
            continue
        stem = None
        if fig is not None:
            stem = f"figures/{study.slug}/{slug(name)}-{slug(plot)}"
            _save(fig, out_dir / stem)
        figures.append(Figure(plot, stem, plot_notes))
    return ExperimentFigures(figures, notes)


def series_figure(spec: SeriesPlot, title: str, cases: list[Row],
                  series: dict[str, Series]) -> tuple[MplFigure | None, list[str]]:
    """One line per case of |column| against t on a log axis."""
    fig, ax = _new_axes()
    ax.set_prop_cycle(LINE_CYCLE)
    for case in cases:
        data = series.get(case["case_id"])
        if data is None:
            continue
        y = _array(data[spec.column])
        if spec.column == "energy_err":
            y = np.abs(y)  # the file keeps the sign so drift shows direction
        y[~np.isfinite(y)] = np.nan
        y = np.maximum(y, FLOOR) if spec.clip_to_floor else np.where(y > 0, y, np.nan)
        if np.isfinite(y).any():
            failed = "" if case["status"] == "ok" else f" ({case['status']})"
            ax.plot(_array(data["t"]), y, linewidth=1, label=case_label(case) + failed)
    if not ax.lines:
        plt.close(fig)
        return None, [f"Nothing to draw for {spec.title}: no finite positive values."]
    ax.set_yscale("log")
    ax.set_xlabel("time t [s]")
    floor_note = f"\n(values below {FLOOR:g}, incl. exact 0, drawn at {FLOOR:g})"
    ax.set_ylabel(spec.ylabel + (floor_note if spec.clip_to_floor else ""))
    ax.set_title(f"{title}: {spec.title}")
    _legend(ax, ax.get_legend_handles_labels()[0])
    return fig, []


def convergence_figure(title: str, reference_err: Any, cases: list[Row],
                       orders: list[Row]) -> tuple[MplFigure | None, list[str]]:
    """global_err against h (or mean step) per integrator, with fitted and nominal slopes.

    The fitted line uses orders.csv's slope and only fits the intercept, so it shows
    how well that slope describes the points it was fitted to.
    """
    notes = [f"Not plotted, {case_label(c)}: {status_text(c)}."
             for c in cases if c["status"] != "ok"]
    fits = {o["integrator"]: o for o in orders}
    groups: dict[str, list[Row]] = {}
    for case in cases:
        if case["status"] == "ok" and case["family"] != "reference":
            groups.setdefault(case["integrator"], []).append(case)
    fig, ax = _new_axes()
    any_hollow = False
    for index, (integrator, group) in enumerate(groups.items()):
        color = COLORS[index % len(COLORS)]
        x = _array([c["h"] if c["h"] is not None else c["mean_step"] for c in group])
        y = _array([c["global_err"] for c in group])
        valid = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
        hollow = valid & (_array([c["below_reference"] for c in group]) == 1)
        used = valid & ~hollow
        if not valid.any():
            notes.append(f"{integrator}: no finite positive global error to plot.")
            continue
        fit = fits.get(integrator)
        nominal = fit["nominal_order"] if fit else group[0]["nominal_order"]
        fitted = fit["fitted_order"] if fit else None
        ax.plot(x[used], y[used], "o", color=color, label=_fit_label(integrator, fitted, nominal))
        ax.plot(x[hollow], y[hollow], "o", color=color, markerfacecolor="none")
        any_hollow |= bool(hollow.any())
        if fitted is not None and math.isfinite(fitted) and used.any():
            ends = np.array([x[used].min(), x[used].max()])
            ax.plot(ends, 10 ** fit_intercept(x[used], y[used], fitted) * ends ** fitted,
                    "-", color=color)
        if nominal is not None and math.isfinite(nominal):
            anchor = np.flatnonzero(valid)[np.argmax(x[valid])]
            ends = np.array([x[valid].min(), x[anchor]])
            ax.plot(ends, y[anchor] * (ends / x[anchor]) ** nominal, "--", color=color,
                    alpha=0.6)
    if not ax.lines:
        plt.close(fig)
        return None, notes + ["Nothing to draw: no successful case with a global error."]
    handles = ax.get_legend_handles_labels()[0]
    handles.append(Line2D([], [], color="gray", linestyle="--", label="nominal slope"))
    if any_hollow:
        handles.append(Line2D([], [], color="gray", marker="o", markerfacecolor="none",
                              linestyle="none", label="below the reference error (no fit)"))
    if isinstance(reference_err, (int, float)) and reference_err > 0:
        handles.append(ax.axhline(reference_err, color="gray", linestyle=":",
                                  label=f"reference error estimate ({fmt_float(reference_err)})"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    adaptive = [c["h"] is None for group in groups.values() for c in group]
    ax.set_xlabel("mean step T/steps [s]" if all(adaptive) else
                  "step size h [s]" if not any(adaptive) else
                  "h (fixed step) or mean step T/steps (adaptive) [s]")
    ax.set_ylabel(r"global error $\|y(T) - y_{\mathrm{ref}}(T)\|_2$")
    ax.set_title(f"{title}: convergence")
    _legend(ax, handles)
    return fig, notes


def fit_intercept(x: np.ndarray, y: np.ndarray, slope: float) -> float:
    """Least-squares b of log10 y = slope * log10 x + b with the slope held fixed."""
    return float(np.mean(np.log10(y) - slope * np.log10(x)))


def _fit_label(integrator: str, fitted: float | None, nominal: float | None) -> str:
    """E.g. "rk4: fitted p=4.01 (nominal 4)"."""
    nominal_text = "?" if nominal is None else f"{nominal:g}"
    return f"{integrator}: fitted p={fmt_order(fitted) or 'n/a'} (nominal {nominal_text})"


def _array(values: list[float | None]) -> np.ndarray:
    return np.array([math.nan if v is None else v for v in values], dtype=float)


def _new_axes() -> tuple[MplFigure, Axes]:
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    ax.grid(True, which="major", alpha=0.3)
    return fig, ax


def _legend(ax: Axes, handles: list[Any]) -> None:
    """Legend to the right of the axes, so it never hides data."""
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
              fontsize="small", frameon=False)


def _save(fig: MplFigure, stem: Path) -> None:
    stem.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(f"{stem}.png", dpi=110, bbox_inches="tight")
    fig.savefig(f"{stem}.svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
