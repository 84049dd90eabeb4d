"""The matplotlib figures of one experiment: invariant errors over time, convergence and
work-precision; and a study's figures across experiments.

Each figure is written as PNG (shown on the page) and SVG (linked from it). A plot with nothing
to draw is not written; its reason goes into the figure's notes.

What a reader can rely on in every figure:
- an integrator has one colour and marker everywhere (integrator_style.py); in a figure of
  cases over time, its step size h or tolerance rtol is the shade: lighter, larger;
- curves that coincide (COINCIDENCE) are all drawn, the later ones dashed on top, and the
  legend says so;
- every axis has a label with its unit; figures use constrained layout, and the legend sits to
  the right of the figure, so titles, labels, legends and data never overlap;
- a convergence figure's slope labels are moved apart until none overlaps another or leaves
  the axes (place_slope_labels).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.cm import ScalarMappable  # noqa: E402
from matplotlib.colors import Normalize, to_rgba  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

import manifolds  # noqa: E402
import sphere_mesh  # noqa: E402
from formatting import (FAMILIES, UNOPTIMISED_MARK, TimingMark, case_label,  # noqa: E402
                        fmt_count, fmt_float, fmt_order, status_text, timing_mark)
from integrator_style import (USER_GROUP, Style, Styles, group_title,  # noqa: E402
                              setting_shades)
from results import Row, Series, Study, slug  # noqa: E402

# Round-off-level errors (1e-16) and exact zeros would stretch or break a log axis.
FLOOR = 1e-17
# Colours of what is not an integrator: a model's named curves, an evocation's bodies.
CURVE_COLORS = plt.get_cmap("tab10").colors
# Two curves closer than this at every point drawn (relative to the values on a log axis, to
# the panel's extent on a linear one) look like one: the legend says that they coincide.
COINCIDENCE = 1e-2
DASH = 4.0  # points: the dash of a curve drawn on top of one it coincides with
MARKER_SIZE = 6.0
MARKS_PER_LINE = 10  # markers on a line over time, to tell integrators of one hue apart
# A coincident point set is drawn smaller by this factor than the one under it, which so stays
# visible as a ring.
COINCIDENT_SHRINK = 0.6
# A CPU time is unreliable when the case's timed runs together lasted less than this.
RELIABLE_TIMING_S = 0.01
LEGEND_ROWS = 44  # a legend with more entries gets a second column (else too tall)
plt.rcParams["svg.hashsalt"] = "geomint"  # stable element ids, so reruns diff cleanly

MODEL_UNITS = ("[model units]: the units in which the model's parameters and state are given "
               "(its spec and preset).")
FLOOR_NOTE = (f"Values below {FLOOR:g}, including exact zeros, are drawn at {FLOOR:g}.")
SHADE_NOTE = ("Each integrator has its own colour and marker (the same in every figure); "
              "when a figure shows it at several step sizes or tolerances, the larger h or "
              "looser rtol is drawn lighter.")
COINCIDENCE_NOTE = (f"'coincides with': equal to the named curve within {COINCIDENCE:.0%} at "
                    "every point drawn; it is drawn dashed on top of it, so both show.")

# The global error is the model's state distance (docs/result-files.md): sqrt of the sum over
# state blocks of d^2, d the great-circle angle on S^2, the rotation angle on SO(3), Euclidean
# elsewhere. Its axis names the parts by the model's manifold (manifolds.py).
GLOBAL_ERROR_NOTE = ("Global error: the distance of y(T) from the reference's y_ref(T), "
                     "sqrt(sum over the state blocks of d^2), d the great-circle angle on S^2 "
                     "[rad], the rotation angle on SO(3) [rad], Euclidean elsewhere (\u2295 in "
                     "the axis label). " + MODEL_UNITS)


def global_error_label(model: str) -> str:
    """The global error's axis label: its distance on the model's manifold, with units."""
    return f"global error: {manifolds.error_distance(model)}"


@dataclass(frozen=True)
class SeriesPlot:
    """How one series/<case_id>.csv column is drawn against time."""

    column: str
    ylabel: str  # one line, with its unit
    title: str
    clip_to_floor: bool  # else non-positive values are left out


SERIES_PLOTS = {
    "energy": SeriesPlot("energy_err", r"$|E(t) - E(0)|$ [J]", "energy error", False),
    "unit_length": SeriesPlot("unit_length_err",
                              r"$\mathrm{max}_i\ |\,\|q_i\| - 1\,|$ [dimensionless]",
                              "unit-length error", True),
    "tangency": SeriesPlot("tangency_err", r"$\mathrm{max}_i\ |q_i \cdot \omega_i|$ [rad/s]",
                           "tangency error", True),
    "momentum": SeriesPlot("momentum_err", r"$\mathrm{max}_k\ |J_k(t) - J_k(0)|$ [model units]",
                           "momentum error", True),
    "steps": SeriesPlot("step", "step size h [s]", "step size", False),
    "casimir": SeriesPlot("casimir_err", r"$\mathrm{max}_k\ |C_k(t) - C_k(0)|$ [model units]",
                          "Casimir error", True),
    "manifold_defect": SeriesPlot("manifold_defect", r"$\mathrm{max}_k\ |D_k|$ [model units]",
                                  "largest manifold defect", True),
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
    styles = Styles(study.manifest, study.cases)
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
                                                 cases, study.orders_of(name), styles)
        elif plot in SERIES_PLOTS:
            fig, plot_notes = series_figure(SERIES_PLOTS[plot], title, cases, series, styles)
        elif plot == "kinetic_energy_map":
            fig, plot_notes = kinetic_energy_map_figure(title, cases, study)
        elif plot == "curves":
            fig, plot_notes = curves_figure(title, cases, study, styles)
        elif plot == "formation":
            fig, plot_notes = formation_figure(title, experiment, cases, study)
        elif plot in ("components", "paths"):
            # trajectory_figures builds on this module's pieces: imported here, not above.
            from trajectory_figures import components_figure, paths_figure
            fig, plot_notes = (components_figure(title, experiment, cases, study, styles)
                               if plot == "components"
                               else paths_figure(title, experiment, cases, study))
        elif plot == "outputs":
            fig, plot_notes = outputs_figure(title, cases, study, styles)
        elif plot == "work_precision":
            fig, plot_notes = work_precision_figure(title, cases, timing_mark(study.manifest),
                                                    styles)
        else:
            figures.append(Figure(plot, None, [f"Unknown plot kind '{plot}'."]))
            continue
        stem = None
        if fig is not None:
            stem = f"figures/{study.slug}/{slug(name)}-{slug(plot)}"
            save_figure(fig, out_dir / stem)
        figures.append(Figure(plot, stem, plot_notes))
    return ExperimentFigures(figures, notes)


# ---- Cases over time: one colour per integrator, one shade per h or rtol -------------------


@dataclass(frozen=True)
class CaseLook:
    """How one case is drawn in a figure of cases over time."""

    style: Style  # its integrator's
    color: str  # the style's colour in the shade of the case's h or rtol
    linestyle: Any  # solid, or dashes on top of a curve it coincides with
    label: str
    stagger: float  # in [0, 1): where in each step between markers its first one sits

    def plot(self, ax: Axes, *xyz: np.ndarray) -> None:
        """Its line, with MARKS_PER_LINE of its integrator's markers evenly spread over its
        points, staggered between cases so that they do not hide each other."""
        step = max(len(xyz[0]) // MARKS_PER_LINE, 1)
        start = int(self.stagger * step)
        ax.plot(*xyz, color=self.color, linestyle=self.linestyle, linewidth=1,
                marker=self.style.marker, markersize=4, markevery=(start, step))

    def handle(self) -> tuple[Style, Line2D]:
        """Its legend entry, with its integrator's style to group it by."""
        return self.style, Line2D([], [], color=self.color, linestyle=self.linestyle,
                                  linewidth=1, marker=self.style.marker, markersize=4,
                                  label=self.label)


def case_looks(cases: list[Row], traces: list[list[np.ndarray]], styles: Styles,
               scales: list[float | None]) -> list[CaseLook]:
    """The look of each case (in legend order, see in_legend_order) whose traces (one array
    per panel: its coordinates there) are drawn; scales as for coincidences."""
    shades = {}
    for integrator in dict.fromkeys(c["integrator"] for c in cases):
        shades[integrator] = setting_shades(styles.of(integrator).color,
                                            [_setting(c) for c in cases
                                             if c["integrator"] == integrator])
    labels = [case_label(c) + ("" if c["status"] == "ok" else f" ({c['status']})")
              for c in cases]
    first = coincidences(traces, scales)
    looks = []
    for index, (case, label) in enumerate(zip(cases, labels)):
        if first[index] is not None:
            label += f" (coincides with {labels[first[index]]})"
        looks.append(CaseLook(styles.of(case["integrator"]),
                              shades[case["integrator"]][_setting(case)],
                              coincident_linestyle(first, index), label,
                              index / len(cases)))
    return looks


def in_legend_order(cases: list[Row], styles: Styles) -> list[Row]:
    """Cases by their integrators' legend order (integrator_style.Style.rank), each
    integrator's largest h or rtol first: the order they are drawn and listed in."""
    return sorted(cases, key=lambda c: (styles.of(c["integrator"]).rank, -_setting(c)))


def _setting(case: Row) -> float:
    """What tells an integrator's cases apart: h, or rtol for an adaptive method."""
    value = case.get("h") if case.get("h") is not None else case.get("rtol")
    return value if value is not None else 0.0


def coincidences(traces: list[list[np.ndarray]], scales: list[float | None]) -> list[int | None]:
    """For each trace (one array per panel), the index of the first earlier trace it coincides
    with in every panel, or None. scales: per panel, None to compare values relative to their
    magnitude (a log axis), else the panel's extent (a linear one)."""
    first: list[int | None] = []
    for index, mine in enumerate(traces):
        first.append(next((other for other in range(index) if first[other] is None
                           and all(_coincide(a, b, scale)
                                   for a, b, scale in zip(mine, traces[other], scales))),
                          None))
    return first


def _coincide(a: np.ndarray, b: np.ndarray, scale: float | None) -> bool:
    """Same shape, nan at the same points and within COINCIDENCE everywhere else."""
    if a.shape != b.shape:
        return False
    missing = np.isnan(a)
    if (missing != np.isnan(b)).any() or missing.all():
        return False
    a, b = a[~missing], b[~missing]
    reach = np.maximum(np.abs(a), np.abs(b)) if scale is None else scale
    return bool((np.abs(a - b) <= COINCIDENCE * reach).all())


def coincident_linestyle(first: list[int | None], index: int) -> Any:
    """Solid for a curve no earlier one equals; the k-th (k >= 1) of n coincident curves is
    dashed, its dashes in the k-th of n slots of each period, so every one of them shows
    (the first, solid, in slot 0)."""
    leader = first[index] if first[index] is not None else index
    group = [i for i, f in enumerate(first) if i == leader or f == leader]
    k, n = group.index(index), len(group)
    return "-" if k == 0 else ((n - k) * DASH, (DASH, (n - 1) * DASH))


def series_figure(spec: SeriesPlot, title: str, cases: list[Row], series: dict[str, Series],
                  styles: Styles | None = None) -> tuple[MplFigure | None, list[str]]:
    """One line per case of |column| against t on a log axis."""
    styles = styles or Styles({}, cases)
    drawn, traces = [], []
    for case in in_legend_order(cases, styles):
        data = series.get(case["case_id"])
        if data is None:
            continue
        y = _array(data[spec.column])
        if spec.column == "energy_err":
            y = np.abs(y)  # the file keeps the sign so drift shows direction
        y[~np.isfinite(y)] = np.nan
        y = np.maximum(y, FLOOR) if spec.clip_to_floor else np.where(y > 0, y, np.nan)
        if np.isfinite(y).any():
            drawn.append(case)
            traces.append([np.vstack([_array(data["t"]), y])])
    if not drawn:
        return None, [f"Nothing to draw for {spec.title}: no finite positive values."]
    fig, ax = _new_axes()
    looks = case_looks(drawn, traces, styles, [None])
    for look, trace in zip(looks, traces):
        look.plot(ax, *trace[0])
    ax.set_yscale("log")
    ax.set_xlabel("time t [s]")
    ax.set_ylabel(spec.ylabel)
    ax.set_title(_title(f"{title}: {spec.title}", fig))
    _legend(fig, grouped_handles([look.handle() for look in looks]))
    notes = []
    if spec.clip_to_floor:
        notes.append(FLOOR_NOTE)
    elif spec.column == "energy_err":
        notes.append("Exact zeros of the energy error are left out (a log axis).")
    return fig, notes + _looks_notes(looks, "model units" in spec.ylabel)


def _looks_notes(looks: list[CaseLook], model_units: bool) -> list[str]:
    """The notes a figure of cases over time needs: what the shades mean, what "coincides
    with" means when a label says it, and what [model units] are when an axis has them."""
    notes = [SHADE_NOTE]
    if any("coincides with" in look.label for look in looks):
        notes.append(COINCIDENCE_NOTE)
    return notes + ([MODEL_UNITS] if model_units else [])


# ---- Convergence -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SlopeLabel:
    """A fitted slope's value, written left of the small-step end (x, y) of its line."""

    x: float
    y: float
    text: str
    color: str


@dataclass
class ConvergencePoints:
    """One integrator's cases in a convergence figure."""

    x: np.ndarray  # h, or the mean step of an adaptive case
    y: np.ndarray  # global_err
    valid: np.ndarray  # finite and positive
    hollow: np.ndarray  # valid, but below the reference's error: not fitted
    fit: Row | None  # its orders.csv row
    nominal: float | None
    adaptive: bool

    @property
    def used(self) -> np.ndarray:
        return self.valid & ~self.hollow

    def slope(self) -> float | None:
        """The slope to draw: the order fitted in the window for a fixed-step method; for an
        adaptive one its slope against the mean step (results from before orders.csv had
        slope_vs_mean_step gave it as fitted_order)."""
        if self.fit is None:
            return None
        slope = self.fit.get("slope_vs_mean_step") if self.adaptive else None
        slope = slope if slope is not None else self.fit["fitted_order"]
        return slope if slope is not None and math.isfinite(slope) else None

    def fitted_span(self) -> np.ndarray:
        """The points the slope was fitted to: the used ones inside orders.csv's window when it
        gives one."""
        low = self.fit.get("window_smallest") if self.fit else None
        high = self.fit.get("window_largest") if self.fit else None
        if low is None or high is None or self.adaptive:
            return self.used
        return self.used & (self.x >= low * (1 - 1e-9)) & (self.x <= high * (1 + 1e-9))


def convergence_figure(title: str, reference_err: Any, cases: list[Row], orders: list[Row],
                       styles: Styles | None = None) -> tuple[MplFigure | None, list[str]]:
    """global_err against h (or the mean step of an adaptive method) per integrator, with
    fitted and nominal slopes.

    The fitted line uses orders.csv's slope and only fits the intercept, so it shows how well
    that slope describes the points it was fitted to; a fixed-step method's is written at its
    small-step end (place_slope_labels). The nominal slope (dashed) starts at the largest
    step's point. An adaptive method's slope against its mean step is not an order: the legend
    gives it as such, and it has no nominal slope.
    """
    styles = styles or Styles({}, cases)
    notes = [f"Not plotted, {case_label(c)}: {status_text(c)}."
             for c in cases if c["status"] != "ok"]
    points = _convergence_points(cases, orders, styles, notes)
    if not points:
        return None, notes + ["Nothing to draw: no successful case with a global error."]
    fig, ax = _new_axes()
    first = coincidences([[np.where(p.valid, np.vstack([p.x, p.y]), np.nan)]
                          for p in points.values()], [None])
    names = list(points)
    handles, labels = [], []
    for index, (integrator, p) in enumerate(points.items()):
        label = _fit_label(integrator, p)
        if first[index] is not None:
            label += f"; coincides with {names[first[index]]}"
        size = MARKER_SIZE * COINCIDENT_SHRINK ** _depth(first, index)
        handle, slope_label = _draw_convergence(ax, p, styles.of(integrator), size, label)
        handles.append((styles.of(integrator), handle))
        labels += [slope_label] if slope_label else []
    any_hollow = any(p.hollow.any() for p in points.values())
    legend = grouped_handles(handles) + _convergence_keys(ax, reference_err, any_hollow)
    ax.set_xscale("log")
    ax.set_yscale("log")
    adaptive = [p.adaptive for p in points.values()]
    ax.set_xlabel("mean step T/steps [s]" if all(adaptive) else
                  "step size h [s]" if not any(adaptive) else
                  "step size h (fixed step) or mean step T/steps (adaptive) [s]")
    ax.set_ylabel(global_error_label(cases[0]["model"]))
    ax.set_title(_title(f"{title}: convergence", fig))
    _legend(fig, legend)
    dropped = place_slope_labels(ax, labels)
    if dropped:
        notes.append(f"{dropped} fitted slope(s) found no free place on the plot: their values "
                     "are in the legend.")
    if any(f is not None for f in first):
        notes.append(f"'coincides with': the same global errors within {COINCIDENCE:.0%}; the "
                     "later integrator's markers are drawn smaller, inside the other's.")
    return fig, notes + [GLOBAL_ERROR_NOTE]


def _convergence_points(cases: list[Row], orders: list[Row], styles: Styles,
                        notes: list[str]) -> dict[str, ConvergencePoints]:
    """The finished cases of each integrator but the reference solvers, in legend order; one
    with nothing to plot gets a note instead."""
    fits = {o["integrator"]: o for o in orders}
    groups: dict[str, list[Row]] = {}
    for case in in_legend_order(cases, styles):
        if case["status"] == "ok" and case["family"] != "reference":
            groups.setdefault(case["integrator"], []).append(case)
    points = {}
    for integrator, group in groups.items():
        x = _array([c["h"] if c["h"] is not None else c["mean_step"] for c in group])
        y = _array([c["global_err"] for c in group])
        valid = np.isfinite(x) & np.isfinite(y) & (x > 0) & (y > 0)
        if not valid.any():
            notes.append(f"{integrator}: no finite positive global error to plot.")
            continue
        fit = fits.get(integrator)
        points[integrator] = ConvergencePoints(
            x, y, valid, valid & (_array([c["below_reference"] for c in group]) == 1), fit,
            fit["nominal_order"] if fit else group[0]["nominal_order"],
            fit["abscissa"] == "mean_step" if fit else all(c["h"] is None for c in group))
    return points


def _draw_convergence(ax: Axes, p: ConvergencePoints, style: Style, size: float,
                      label: str) -> tuple[Line2D, SlopeLabel | None]:
    """One integrator's points, fitted line and nominal slope; its legend handle and, for a
    fixed-step method with a fitted order, the label of its slope."""
    used = p.used
    handle = ax.plot(p.x[used], p.y[used], style.marker, color=style.color, markersize=size,
                     label=label)[0]
    ax.plot(p.x[p.hollow], p.y[p.hollow], style.marker, color=style.color, markersize=size,
            markerfacecolor="none")
    slope, span = p.slope(), p.fitted_span()
    slope_label = None
    if slope is not None and span.any():
        ends = np.array([p.x[span].min(), p.x[span].max()])
        line = 10 ** fit_intercept(p.x[span], p.y[span], slope) * ends ** slope
        ax.plot(ends, line, style.line, color=style.color)
        if not p.adaptive:
            slope_label = SlopeLabel(ends[0], line[0], f"p={fmt_order(slope)}", style.color)
    if not p.adaptive and p.nominal is not None and math.isfinite(p.nominal):
        anchor = np.flatnonzero(p.valid)[np.argmax(p.x[p.valid])]
        ends = np.array([p.x[p.valid].min(), p.x[anchor]])
        ax.plot(ends, p.y[anchor] * (ends / p.x[anchor]) ** p.nominal, "--", color=style.color,
                alpha=0.6)
    return handle, slope_label


def _depth(first: list[int | None], index: int) -> int:
    """How many coincident point sets lie under this one."""
    leader = first[index]
    if leader is None:
        return 0
    return sum(1 for i in range(index) if i == leader or first[i] == leader)


def _convergence_keys(ax: Axes, reference_err: Any, any_hollow: bool) -> list[Any]:
    """The legend's entries for what is not an integrator: the lines and marks' meanings."""
    keys = [Line2D([], [], color="gray", linestyle="-",
                   label="fitted slope, p at its small-step end (peers: dash-dot)"),
            Line2D([], [], color="gray", linestyle="--", label="nominal slope (fixed step)")]
    if any_hollow:
        keys.append(Line2D([], [], color="gray", marker="o", markerfacecolor="none",
                           linestyle="none", label="below the reference error (no fit)"))
    if isinstance(reference_err, (int, float)) and reference_err > 0:
        keys.append(ax.axhline(reference_err, color="gray", linestyle=":",
                               label=f"reference error estimate ({fmt_float(reference_err)})"))
    return keys


def _fit_label(integrator: str, p: ConvergencePoints) -> str:
    """E.g. "rk4: fitted p=4.01 (nominal 4)"; for an adaptive method, whose slope against the
    mean step is not an order, "cf32a: slope vs mean step 3.13"."""
    slope = fmt_order(p.slope()) or "n/a"
    if p.adaptive:
        return f"{integrator}: slope vs mean step {slope}"
    nominal = "?" if p.nominal is None else f"{p.nominal:g}"
    return f"{integrator}: fitted p={slope} (nominal {nominal})"


LABEL_GAP = 4.0  # points between a slope label and the end of its line
LABEL_PAD = 2.0  # pixels kept free around a slope label


def place_slope_labels(ax: Axes, labels: list[SlopeLabel]) -> int:
    """Write each label left of its line's end, moved up or down just enough to overlap no
    label placed before it, inside the axes (so on no tick label nor the frame); the x axis is
    first widened to the left to make room. A thin leader joins a moved label to its line.
    Labels are placed from the top down. Returns how many found no place (and were left out)."""
    if not labels:
        return 0
    fig = ax.figure
    texts = [ax.annotate(label.text, (label.x, label.y), xytext=(-LABEL_GAP, 0),
                         textcoords="offset points", ha="right", va="center",
                         fontsize="x-small", color=label.color,
                         bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "alpha": 0.8,
                               "linewidth": 0},
                         arrowprops={"arrowstyle": "-", "color": label.color, "linewidth": 0.5,
                                     "shrinkA": 0, "shrinkB": 0})
             for label in labels]
    fig.canvas.draw()  # lays the figure out and sizes the texts
    renderer = fig.canvas.get_renderer()
    _widen_left(ax, [label.x for label in labels],
                [text_box(text, renderer).width for text in texts])
    fig.canvas.draw()
    frame = ax.get_window_extent(renderer)
    placed: list[Bbox] = []
    dropped = 0
    for text in sorted(texts, key=lambda t: -ax.transData.transform(t.xy)[1]):
        box = text_box(text, renderer)
        shift = _free_shift(box, placed, frame)
        if shift is None:
            text.remove()
            dropped += 1
            continue
        text.xyann = (-LABEL_GAP, shift * 72.0 / fig.dpi)
        placed.append(box.translated(0, shift))
    return dropped


def text_box(text: Text, renderer: Any) -> Bbox:
    """A text's own box in pixels (an annotation's get_window_extent adds its leader)."""
    return Text.get_window_extent(text, renderer)


def _widen_left(ax: Axes, xs: list[float], widths: list[float]) -> None:
    """Lower the (log) x axis's left limit until a label of each width (pixels) fits between
    the axes' left edge and its x: at axes fraction f of x, (log x - L) / (R - L) >= f holds
    for L <= (log x - f R) / (1 - f)."""
    left, right = np.log10(ax.get_xlim())
    span = ax.get_window_extent().width
    gap = LABEL_GAP * ax.figure.dpi / 72.0 + 2 * LABEL_PAD
    for x, width in zip(xs, widths):
        f = min((width + gap) / span, 0.9)
        left = min(left, (math.log10(x) - f * right) / (1.0 - f))
    ax.set_xlim(10 ** left, 10 ** right)


def _free_shift(box: Bbox, placed: list[Bbox], frame: Bbox) -> float | None:
    """The smallest vertical shift (pixels) that keeps box inside frame, clear of every placed
    box; None if there is none. The best shift is 0, a frame edge or one that puts the box just
    above or below a placed one, so only those are tried."""
    low = frame.y0 + LABEL_PAD - box.y0
    high = frame.y1 - LABEL_PAD - box.y1
    if box.x0 < frame.x0 + LABEL_PAD or low > high:
        return None
    tries = [0.0, low, high] + [other.y1 + LABEL_PAD + 0.01 - box.y0 for other in placed] + \
        [other.y0 - LABEL_PAD - 0.01 - box.y1 for other in placed]
    for shift in sorted(tries, key=abs):
        moved = box.translated(0, shift)
        if low <= shift <= high and all(_apart(moved, other) for other in placed):
            return shift
    return None


def _apart(a: Bbox, b: Bbox) -> bool:
    return (a.x1 + LABEL_PAD <= b.x0 or b.x1 + LABEL_PAD <= a.x0
            or a.y1 + LABEL_PAD <= b.y0 or b.y1 + LABEL_PAD <= a.y0)


def fit_intercept(x: np.ndarray, y: np.ndarray, slope: float) -> float:
    """Least-squares b of log10 y = slope * log10 x + b with the slope held fixed."""
    return float(np.mean(np.log10(y) - slope * np.log10(x)))


# ---- Curves, formations, outputs and kinetic-energy maps -----------------------------------

# LLM Fig. 3.7: the sphere in 20 * 4**4 = 5120 triangles, each coloured by the mean kinetic
# energy of the molecules in it or in a face sharing a vertex with it, blue-green-yellow-red
# ascending, one colour scale for all panels. Each time is drawn from two opposite sides:
# (elevation, azimuth) in degrees of the viewer, the first above the lee2009 vortices.
MAP_LEVEL = 4
MAP_VIEWS = ((55.0, -90.0, "seen from above (+z)"), (-55.0, 90.0, "seen from below (-z)"))
MAP_EMPTY = "0.85"  # faces with no molecule in their neighbourhood


def curves_figure(title: str, cases: list[Row], study: Study,
                  styles: Styles | None = None) -> tuple[MplFigure | None, list[str]]:
    """The model's named curves in R^3 (series/<case_id>-curves.csv), one panel per curve,
    every case of the experiment in its integrator's colour; the start is marked."""
    styles = styles or Styles({}, cases)
    notes = []
    drawn = []  # (case, curves)
    for case in in_legend_order(cases, styles):
        data = study.curves(case["case_id"])
        if data is None:
            notes.append(f"No curves file for {case_label(case)} ({case['case_id']}).")
        else:
            drawn.append((case, data[1]))
    if not drawn:
        return None, notes + ["Nothing to draw: no curves."]
    names = list(drawn[0][1])
    # Per case and panel its points (3 x n, nan where it has no such curve); extents per panel.
    traces = [[np.vstack([_array(v) for v in curves[name]]) if name in curves
               else np.full((3, 1), np.nan) for name in names] for _, curves in drawn]
    extents = [_extent([trace[p] for trace in traces]) for p in range(len(names))]
    looks = case_looks([case for case, _ in drawn], traces, styles, extents)
    fig = plt.figure(figsize=(4.6 * len(names), 4.8), layout="constrained")
    for index, name in enumerate(names):
        ax = fig.add_subplot(1, len(names), index + 1, projection="3d")
        for look, trace in zip(looks, traces):
            if np.isfinite(trace[index]).any():
                look.plot(ax, *trace[index])
                ax.scatter(*trace[index][:, :1], color=look.color, marker="o", s=12)
        _equal_scales(ax, [trace[index].T for trace in traces])
        ax.set_title(name, fontsize="small")
        _label_3d(ax)
    fig.suptitle(_title(f"{title}: curves", fig), fontsize="medium")
    _legend(fig, grouped_handles([look.handle() for look in looks]))
    notes.insert(0, "Each curve over the run (the first output point of each of at most 2000 "
                    "equal time bins), on equal scales; the dot marks t = 0.")
    return fig, notes + _looks_notes(looks, model_units=True)


def _extent(points: list[np.ndarray]) -> float:
    """The largest range of any coordinate over the finite points (3 x n arrays) of a panel."""
    every = np.hstack(points)
    every = every[:, np.isfinite(every).all(axis=0)]
    return float((every.max(axis=1) - every.min(axis=1)).max()) if every.size else 0.0


def _label_3d(ax: Axes) -> None:
    for set_label, axis in ((ax.set_xlabel, "x"), (ax.set_ylabel, "y"), (ax.set_zlabel, "z")):
        set_label(f"{axis} [model units]", fontsize="small")


def _equal_scales(ax: Axes, points: list[np.ndarray]) -> None:
    """One scale on the three axes, around every finite point (rows x, y, z): true shapes."""
    every = np.concatenate(points) if points else np.empty((0, 3))
    every = every[np.isfinite(every).all(axis=1)]
    if len(every):
        low, high = every.min(axis=0), every.max(axis=0)
        half = max(float((high - low).max()) / 2, 1e-300)
        for limits, middle in zip((ax.set_xlim, ax.set_ylim, ax.set_zlim), (low + high) / 2):
            limits(middle - half, middle + half)
        ax.set_box_aspect((1, 1, 1))


# A formation figure has one 3-D panel per case: more than this many would be unreadable.
FORMATION_CASES = 4


def formation_figure(title: str, experiment: dict[str, Any], cases: list[Row],
                     study: Study) -> tuple[MplFigure | None, list[str]]:
    """The model's formation (models/formation.hpp): per case (the first FORMATION_CASES), one
    3-D panel with every curve over the run as a thin line and, at each of the experiment's
    formation_times, the curves' points at the nearest recorded time as markers and the
    curve_links between them as thick segments, labelled with that time. The colours are the
    curves' (CURVE_COLORS), not the integrators'."""
    times = [float(t) for t in experiment.get("formation_times") or []]
    links = [tuple(link) for link in experiment.get("curve_links") or []]
    if not times:
        return None, ["Nothing to draw: the experiment records no formation_times."]
    notes = []
    drawn = []  # (case, times, curves)
    available = 0  # cases with a curves file
    for case in cases:
        data = study.curves(case["case_id"])
        if data is None:
            notes.append(f"No curves file for {case_label(case)} ({case['case_id']}).")
            continue
        available += 1
        if len(drawn) < FORMATION_CASES:
            drawn.append((case, _array(data[0]), data[1]))
    left_out = available - len(drawn)
    if left_out:
        notes.append(f"{left_out} more case(s) not drawn: a formation figure shows the first "
                     f"{FORMATION_CASES} cases of the experiment.")
    if not drawn:
        return None, notes + ["Nothing to draw: no curves."]
    names = list(drawn[0][2])
    bad = [link for link in links if max(link) >= len(names) or link[0] == link[1]]
    if bad:
        notes.append(f"Links {bad} name no pair of the {len(names)} curves; not drawn.")
    links = [link for link in links if link not in bad]
    fig = plt.figure(figsize=(5.2 * len(drawn), 5.4), layout="constrained")
    for index, (case, t, curves) in enumerate(drawn):
        ax = fig.add_subplot(1, len(drawn), index + 1, projection="3d")
        xyz = [np.column_stack([_array(v) for v in curves[name]]) for name in names]
        for k, (name, p) in enumerate(zip(names, xyz)):
            ax.plot(p[:, 0], p[:, 1], p[:, 2], linewidth=0.8,
                    color=CURVE_COLORS[k % len(CURVE_COLORS)], label=name)
        finite = np.flatnonzero(np.isfinite(t))
        for moment in times if len(finite) else []:
            row = finite[np.argmin(np.abs(t[finite] - moment))]
            for a, b in links:
                segment = np.vstack([xyz[a][row], xyz[b][row]])
                ax.plot(segment[:, 0], segment[:, 1], segment[:, 2], linewidth=2.5, color="0.2")
            for k, p in enumerate(xyz):
                ax.scatter(*p[row], color=CURVE_COLORS[k % len(CURVE_COLORS)], s=18,
                           depthshade=False)
            ax.text(*xyz[0][row], f"  t = {t[row]:.3g}", fontsize="x-small")
        _equal_scales(ax, xyz)
        failed = "" if case["status"] == "ok" else f" ({case['status']})"
        ax.set_title(case_label(case) + failed, fontsize="small")
        _label_3d(ax)
    handles = fig.axes[0].get_legend_handles_labels()[0]
    if links:
        handles.append(Line2D([], [], color="0.2", linewidth=2.5, label="links"))
    fig.suptitle(_title(f"{title}: formation", fig), fontsize="medium")
    _legend(fig, handles)
    joined = ", ".join(f"{names[a]} - {names[b]}" for a, b in links) or "none"
    notes.insert(0, "Each curve over the run (the first output point of each of at most 2000 "
                    "equal time bins), on equal scales; at each formation time ("
                    + ", ".join(f"{t:g}" for t in times) + ") the curves' points at the nearest "
                    f"recorded time, labelled with it, joined by the links ({joined}).")
    return fig, notes + [MODEL_UNITS]


def outputs_figure(title: str, cases: list[Row], study: Study,
                   styles: Styles | None = None) -> tuple[MplFigure | None, list[str]]:
    """The model's named outputs (series/<case_id>-outputs.csv), one panel per output, one
    line per case of |output| against t on a log axis."""
    styles = styles or Styles({}, cases)
    notes = []
    drawn = []  # (case, times, outputs)
    for case in in_legend_order(cases, styles):
        data = study.outputs(case["case_id"])
        if data is None:
            notes.append(f"No outputs file for {case_label(case)} ({case['case_id']}).")
        else:
            drawn.append((case, _array(data[0]), data[1]))
    names = list(dict.fromkeys(name for _, _, outputs in drawn for name in outputs))
    if not names:
        return None, notes + ["Nothing to draw: no outputs."]
    traces = [[np.vstack([t, _magnitude(outputs.get(name), len(t))]) for name in names]
              for _, t, outputs in drawn]
    looks = case_looks([case for case, _, _ in drawn], traces, styles, [None] * len(names))
    fig, axes = plt.subplots(len(names), 1, figsize=(7.5, 2.4 * len(names) + 0.6), sharex=True,
                             squeeze=False, layout="constrained")
    for index, (ax, name) in enumerate(zip(axes[:, 0], names)):
        for look, trace in zip(looks, traces):
            look.plot(ax, *trace[index])
        ax.set_yscale("log")
        ax.set_ylabel(f"|{name.replace('_', ' ')}| [model units]", fontsize="small")
        ax.grid(True, which="major", alpha=0.3)
    axes[-1, 0].set_xlabel("time t [s]")
    fig.suptitle(_title(f"{title}: outputs", fig), fontsize="medium")
    _legend(fig, grouped_handles([look.handle() for look in looks]))
    notes.insert(0, "|output| against t, at most 2000 rows: each of equal time bins keeps its "
                    "sample of largest magnitude.")
    return fig, notes + [FLOOR_NOTE] + _looks_notes(looks, model_units=True)


def _magnitude(values: list[float | None] | None, length: int) -> np.ndarray:
    """|values| clipped to FLOOR (nan where not finite); all nan when the case lacks them."""
    if values is None:
        return np.full(length, np.nan)
    y = np.abs(_array(values))
    y[~np.isfinite(y)] = np.nan
    return np.maximum(y, FLOOR)


def kinetic_energy_map_figure(title: str, cases: list[Row],
                              study: Study) -> tuple[MplFigure | None, list[str]]:
    """Per case with a snapshots file, one column per snapshot time and one row per view."""
    notes = []
    maps = []  # (case, [(t, face means)])
    vertices, faces = sphere_mesh.icosphere(MAP_LEVEL)
    for case in cases:
        data = study.snapshots(case["case_id"])
        if data is None:
            notes.append(f"No snapshots file for {case_label(case)} ({case['case_id']}).")
            continue
        t, q, energy = (_array(data["t"]), np.column_stack(
            [_array(data[c]) for c in ("q_x", "q_y", "q_z")]), _array(data["kinetic_energy"]))
        frames = []
        for moment in np.unique(t):
            rows = t == moment
            points = q[rows] / np.linalg.norm(q[rows], axis=1)[:, None]
            found = sphere_mesh.containing_faces(vertices, faces, points)
            means = sphere_mesh.neighbourhood_means(faces, len(vertices), found, energy[rows])
            frames.append((float(moment), means))
            if np.isnan(means).any():
                notes.append(f"{case_label(case)}, t = {moment:g}: {int(np.isnan(means).sum())} "
                             f"of {len(faces)} faces have no molecule around them (grey).")
        if frames:
            maps.append((case, frames))
    if not maps:
        return None, notes + ["Nothing to draw: no snapshots."]
    top = max((float(np.nanmax(m)) for _, frames in maps for _, m in frames
               if np.isfinite(m).any()), default=0.0)
    norm = Normalize(vmin=0.0, vmax=top if top > 0 else 1.0)
    cmap = plt.get_cmap("jet")
    columns = max(len(frames) for _, frames in maps)
    rows = len(maps) * len(MAP_VIEWS)
    fig = plt.figure(figsize=(2.6 * columns + 1.2, 2.7 * rows))
    triangles = vertices[faces]
    centres = triangles.mean(axis=1)
    for index, (case, frames) in enumerate(maps):
        for v, (elevation, azimuth, side) in enumerate(MAP_VIEWS):
            row = index * len(MAP_VIEWS) + v
            e, a = np.radians(elevation), np.radians(azimuth)
            eye = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
            front = centres @ eye > -0.05  # back faces are hidden: leave them out
            for column, (moment, means) in enumerate(frames):
                ax = fig.add_subplot(rows, columns, row * columns + column + 1, projection="3d")
                colours = np.array([to_rgba(MAP_EMPTY) if np.isnan(x)
                                    else cmap(norm(x)) for x in means[front]])
                mesh = Poly3DCollection(triangles[front], facecolors=colours,
                                        edgecolors=colours, linewidths=0.2)
                mesh.set_rasterized(True)  # 5120 polygons per panel would bloat the SVG
                ax.add_collection3d(mesh)
                ax.set_proj_type("ortho")
                ax.view_init(elev=elevation, azim=azimuth)
                for limits in (ax.set_xlim, ax.set_ylim, ax.set_zlim):
                    limits(-0.62, 0.62)  # the unit sphere fills the panel (nothing is clipped)
                ax.set_box_aspect((1, 1, 1))
                ax.set_axis_off()
                heading = f"t = {moment:g} s"
                if column == 0:
                    heading = f"{case_label(case)}, {side}\n{heading}"
                ax.set_title(heading, fontsize="small")
    fig.subplots_adjust(left=0.0, right=0.88, bottom=0.0, top=0.9, wspace=0.0, hspace=0.08)
    bar = fig.add_axes((0.9, 0.15, 0.015, 0.65))
    fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=bar,
                 label="mean kinetic energy per molecule [J]")
    fig.suptitle(f"{title}: kinetic energy map", fontsize="medium")
    notes.insert(0, f"The sphere in {len(faces)} triangles (an icosahedron subdivided "
                    f"{MAP_LEVEL} times); each face is coloured by the mean kinetic energy of "
                    "the molecules in it or in a face sharing a vertex with it (13 faces, 12 at "
                    "the icosahedron's vertices); one colour scale for all panels.")
    return fig, notes




# ---- Shared pieces: legends, titles, axes, saving ------------------------------------------

HEADERS = {group_title(group) for group in (*FAMILIES, USER_GROUP)}


def grouped_handles(items: list[tuple[Style, Any]]) -> list[Any]:
    """Legend handles in their integrators' order (Style.rank: family, then catalogue order),
    each family under its header (a handle with nothing to draw: _legend sets it in bold)."""
    grouped: list[Any] = []
    group = None
    for style, handle in sorted(items, key=lambda item: item[0].rank):
        if style.group != group:
            group = style.group
            grouped.append(Line2D([], [], linestyle="none", label=group_title(group)))
        grouped.append(handle)
    return grouped


def _legend(fig: MplFigure, handles: list[Any]) -> None:
    """The figure's legend, right of the figure: it never hides data, a title or a label
    (constrained layout leaves a figure legend alone; save_figure's tight box keeps it). Group
    headers in bold; a long legend gets two columns. Then _grow_to_fit."""
    legend = fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0),
                        ncol=1 if len(handles) <= LEGEND_ROWS else 2, fontsize="small",
                        frameon=False)
    for text in legend.get_texts():
        if text.get_text() in HEADERS:
            text.set_fontweight("bold")
    _grow_to_fit(fig, legend)


def _grow_to_fit(fig: MplFigure, legend: Any) -> None:
    """Make the figure as tall as its legend, and its panels at least as tall as their y
    labels: a label longer than its axes would reach into the title or the next panel. Each
    change of height moves the layout, so it is measured again (twice is enough)."""
    for _ in range(2):
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        need = legend.get_window_extent(renderer).height
        for ax in fig.axes:
            label = ax.yaxis.label
            if label.get_text() and not hasattr(ax, "zaxis"):
                excess = (label.get_window_extent(renderer).height
                          - ax.get_window_extent(renderer).height)
                # Panels stacked in a column all grow by the figure's growth.
                rows = ax.get_subplotspec().get_gridspec().nrows if ax.get_subplotspec() else 1
                need = max(need, fig.bbox.height + rows * (excess + LABEL_PAD * 4))
        if need <= fig.bbox.height:
            return
        fig.set_figheight(need / fig.dpi)


# Characters of a title per inch of figure width: a title is broken into lines of at most this
# many per inch, so it stays above its axes (and clear of the legend right of the figure).
TITLE_CHARS_PER_INCH = 9


def _title(text: str, fig: MplFigure) -> str:
    """A title broken into lines that fit fig's width, after a comma or colon where it can, else
    at a space; constrained layout makes room for every line."""
    width = int(TITLE_CHARS_PER_INCH * fig.get_figwidth())
    lines = [""]
    for phrase in re.split(r"(?<=[,:;]) ", text):
        for word in [phrase] if len(phrase) <= width else phrase.split(" "):
            if lines[-1] and len(lines[-1]) + 1 + len(word) > width:
                lines.append(word)
            else:
                lines[-1] = f"{lines[-1]} {word}" if lines[-1] else word
    return "\n".join(lines)


def _array(values: list[float | None]) -> np.ndarray:
    return np.array([math.nan if v is None else v for v in values], dtype=float)


def _new_axes() -> tuple[MplFigure, Axes]:
    fig, ax = plt.subplots(figsize=(7.5, 4.2), layout="constrained")
    ax.grid(True, which="major", alpha=0.3)
    return fig, ax


def save_figure(fig: MplFigure, stem: Path) -> None:
    stem.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(f"{stem}.png", dpi=110, bbox_inches="tight")
    fig.savefig(f"{stem}.svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)


# ---- Work-precision diagrams and study-level figures ---------------------------------------

WORK_AXES = (("cpu_s", "CPU time of the integration [s]"),
             ("f_evals", "vector-field evaluations [count]"))
WORK_ERRORS = ("global_err", "energy_err_max")
ENERGY_ERROR_LABEL = r"energy error $\mathrm{max}_t\ |E(t) - E(0)|$ [J]"
UNRELIABLE_NOTE = (f"Half-filled markers (CPU time panels): the CPU time is unreliable, the "
                   f"case's timed runs lasting less than {RELIABLE_TIMING_S * 1000:g} ms in all "
                   "(cpu_timed_s), or the results having no cpu_timed_s (written before the "
                   "timing was repeated).")


def timing_unreliable(case: Row) -> bool:
    """cpu_s is the fastest of timed runs that together last cpu_timed_s: too few milliseconds
    in all (or no record of them, in results from before it) and the clock's resolution and
    noise dominate it."""
    timed = case.get("cpu_timed_s")
    return timed is None or not timed >= RELIABLE_TIMING_S


def work_precision_figure(title: str, cases: list[Row], mark: TimingMark,
                          styles: Styles | None = None) -> tuple[MplFigure | None, list[str]]:
    """global_err (top) and energy_err_max (bottom) against cpu_s (left) and f_evals (right),
    one series per integrator, its points joined in order of cost; global errors below the
    reference's error are hollow, unreliable CPU times (timing_unreliable) half filled.
    Integrators whose CPU times mark flags get it after their legend label, and its footnote
    in the legend and the notes."""
    styles = styles or Styles({}, cases)
    notes = [f"Not plotted, {case_label(c)}: {status_text(c)}."
             for c in cases if c["status"] not in ("ok", "n/a")]
    groups: dict[str, list[Row]] = {}
    for case in in_legend_order(cases, styles):
        if case["status"] == "ok":
            groups.setdefault(case["integrator"], []).append(case)
    fig, grid = plt.subplots(len(WORK_ERRORS), len(WORK_AXES), figsize=(11.0, 8.0),
                             sharex="col", sharey="row", squeeze=False, layout="constrained")
    handles = []
    plotted = []
    marks = {"hollow": False, "half": False}
    for integrator, group in groups.items():
        style = styles.of(integrator)
        if _work_precision_lines(grid, group, style, marks):
            handles.append((style, Line2D([], [], color=style.color, marker=style.marker,
                                          linestyle=style.line,
                                          label=integrator + mark.of(integrator))))
            plotted.append(integrator)
        else:
            notes.append(f"{integrator}: no finite positive error and cost to plot.")
    if not handles:
        plt.close(fig)
        return None, notes + ["Nothing to draw: no successful case with an error."]
    legend = grouped_handles(handles) + _work_precision_keys(marks)
    footnotes = mark.footnotes(plotted)
    if footnotes:
        legend.append(Line2D([], [], linestyle="none",
                             label=f"{UNOPTIMISED_MARK} CPU time of an unoptimised SUNDIALS"))
        notes += footnotes
    for axes in grid:
        for ax in axes:
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.grid(True, which="major", alpha=0.3)
    grid[0][0].set_ylabel(global_error_label(cases[0]["model"]))
    grid[1][0].set_ylabel(ENERGY_ERROR_LABEL)
    for ax, (_, label) in zip(grid[-1], WORK_AXES):
        ax.set_xlabel(label)
    fig.suptitle(_title(f"{title}: work-precision", fig))
    _legend(fig, legend)
    if marks["half"]:
        notes.append(UNRELIABLE_NOTE)
    return fig, notes + [GLOBAL_ERROR_NOTE]


def _work_precision_lines(grid: Any, group: list[Row], style: Style,
                          marks: dict[str, bool]) -> bool:
    """One integrator's cases in every panel of grid; marks records whether any point was
    drawn hollow or half filled. False when no panel had a point to draw."""
    drawn = False
    for axes, metric in zip(grid, WORK_ERRORS):
        err = _array([c[metric] for c in group])
        below = np.array([metric == "global_err" and c["below_reference"] == 1 for c in group])
        for ax, (column, _) in zip(axes, WORK_AXES):
            cost = _array([c[column] for c in group])
            unsure = np.array([column == "cpu_s" and timing_unreliable(c) for c in group])
            valid = np.isfinite(cost) & np.isfinite(err) & (cost > 0) & (err > 0)
            order = np.flatnonzero(valid)[np.argsort(cost[valid])]
            if not len(order):
                continue
            ax.plot(cost[order], err[order], style.line, color=style.color, alpha=0.5,
                    linewidth=1)
            for point in order:
                fill = "none" if below[point] else "left" if unsure[point] else "full"
                ax.plot(cost[point], err[point], style.marker, color=style.color,
                        fillstyle=fill, markerfacecoloralt="white", linestyle="none")
            marks["hollow"] |= bool(below[order].any())
            marks["half"] |= bool((unsure[order] & ~below[order]).any())
            drawn = True
    return drawn


def _work_precision_keys(marks: dict[str, bool]) -> list[Any]:
    """Legend entries for the hollow and half-filled markers, when any is drawn."""
    keys = []
    if marks["hollow"]:
        keys.append(Line2D([], [], color="gray", marker="o", fillstyle="none", linestyle="none",
                           label="global error below the reference's"))
    if marks["half"]:
        keys.append(Line2D([], [], color="gray", marker="o", fillstyle="left",
                           markerfacecoloralt="white", linestyle="none",
                           label=f"CPU time unreliable (< {RELIABLE_TIMING_S * 1000:g} ms timed)"))
    return keys

@dataclass
class StudyFigure:
    """One study-level figure (manifest.json "figures"); stem as in Figure."""

    name: str
    title: str
    stem: str | None
    table: tuple[list[str], list[list[str]]] | None  # header, rows: the plotted numbers
    notes: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)  # explain marks in the table's labels


def study_figures(study: Study, out_dir: Path) -> list[StudyFigure]:
    """Draw every study-level figure into out_dir/figures/<study>/study-<name>."""
    drawn = []
    for spec in study.figures():
        title = str(spec.get("title") or spec["name"])
        if spec["kind"] != "metric_vs_parameter":
            drawn.append(StudyFigure(spec["name"], title, None, None,
                                     [f"Unknown figure kind '{spec['kind']}'."]))
            continue
        lines, notes, footnotes = metric_vs_parameter_lines(study, spec)
        fig = metric_vs_parameter_figure(title, spec, lines, Styles(study.manifest, study.cases))
        stem = None
        if fig is None:
            notes.append("Nothing to draw: no successful case with a finite value.")
        else:
            stem = f"figures/{study.slug}/study-{slug(spec['name'])}"
            save_figure(fig, out_dir / stem)
        drawn.append(StudyFigure(spec["name"], title, stem,
                                 metric_vs_parameter_table(spec, lines), notes, footnotes))
    return drawn


@dataclass
class Line:
    """One line of a study-level figure: an integrator at one setting (h or rtol; 0 for a
    fixed-step method with its own h in each experiment), its (parameter, metric) points."""

    integrator: str
    setting: float
    model: str
    points: list[tuple[float, float]] = field(default_factory=list)


Lines = dict[str, Line]  # by label
METRIC_LABELS = {"cpu_s": "CPU time [s]", "f_evals": "vector-field evaluations [count]",
                 "steps": "accepted steps [count]", "rejected": "rejected steps [count]"}


def metric_vs_parameter_lines(study: Study,
                              spec: dict[str, Any]) -> tuple[Lines, list[str], list[str]]:
    """(parameter value, metric) per line, sorted by the parameter, from the figure's
    experiments (all of them when it names none); notes on what was left out; footnotes for
    the marks in the labels (CPU times of an unoptimised SUNDIALS, see TimingMark).

    A line is an integrator and its setting: rtol and atol for an adaptive method, h for a
    fixed-step one. A fixed-step method with at most one case in each experiment (such as
    one whose h follows from an adaptive case's step count, `same_steps_as`) is one line
    across them, whatever its h.
    """
    parameter, metric = str(spec.get("parameter", "")), str(spec.get("metric", ""))
    known = {e["name"]: e for e in study.experiments()}
    names = list(spec.get("experiments") or known)
    notes = []
    cases: list[tuple[float, Row]] = []
    for name in names:
        experiment = known.get(name)
        value = (experiment or {}).get("parameters", {}).get(parameter)
        if experiment is None:
            notes.append(f"No experiment '{name}' in the results.")
        elif not isinstance(value, (int, float)):
            notes.append(f"Experiment {name} records no parameter '{parameter}'.")
        else:
            cases += [(float(value), case) for case in study.cases_of(name)]
    per_experiment: dict[str, dict[str, int]] = {}
    for _, case in cases:
        if case["h"] is not None:
            counts = per_experiment.setdefault(case["integrator"], {})
            counts[case["experiment"]] = counts.get(case["experiment"], 0) + 1
    mark = timing_mark(study.manifest) if metric == "cpu_s" else TimingMark(None)
    lines: Lines = {}
    plotted = []
    for x, case in cases:
        y = case.get(metric)
        if case["status"] != "ok" or not isinstance(y, float) or not math.isfinite(y):
            if case["status"] != "n/a":
                notes.append(f"Not plotted, {case['experiment']}, {case_label(case)}: "
                             f"{status_text(case) if case['status'] != 'ok' else 'no ' + metric}.")
            continue
        label, setting = case_label(case), _setting(case)
        if case["h"] is not None and max(per_experiment[case["integrator"]].values()) == 1:
            label, setting = f"{case['integrator']} (its own h for each {parameter})", 0.0
        line = lines.setdefault(label + mark.of(case["integrator"]),
                                Line(case["integrator"], setting, case["model"]))
        line.points.append((x, y))
        plotted.append(case["integrator"])
    for line in lines.values():
        line.points.sort()
    return lines, notes, mark.footnotes(plotted)


def metric_vs_parameter_figure(title: str, spec: dict[str, Any], lines: Lines,
                               styles: Styles) -> MplFigure | None:
    """One line per integrator and setting, in its integrator's style, lighter for a larger h
    or rtol; a line equal to an earlier one is dashed on top of it and says so."""
    if not lines:
        return None
    order = sorted(lines, key=lambda label: (styles.of(lines[label].integrator).rank,
                                             -lines[label].setting))
    traces = [[np.array(lines[label].points, dtype=float).T] for label in order]
    first = coincidences(traces, [None])
    fig, ax = _new_axes()
    handles = []
    for index, label in enumerate(order):
        line = lines[label]
        style = styles.of(line.integrator)
        color = setting_shades(style.color, [lines[other].setting for other in order
                                             if lines[other].integrator == line.integrator])
        if first[index] is not None:
            label += f" (coincides with {order[first[index]]})"
        handles.append((style, ax.plot(*traces[index][0], marker=style.marker,
                                       color=color[line.setting],
                                       linestyle=coincident_linestyle(first, index),
                                       label=label)[0]))
    values = [y for line in lines.values() for _, y in line.points]
    if all(v > 0 for v in values):
        ax.set_yscale("log")
    xs = sorted({x for line in lines.values() for x, _ in line.points})
    if all(x == int(x) for x in xs) and len(xs) <= 25:
        ax.set_xticks(xs)
    ax.set_xlabel(f"{spec.get('parameter', '')} (the experiments' model parameter) [model units]")
    metric = str(spec.get("metric", ""))
    ax.set_ylabel(global_error_label(lines[order[0]].model) if metric == "global_err"
                  else METRIC_LABELS.get(metric, f"{metric} [as in cases.csv]"))
    ax.set_title(_title(title, fig))
    _legend(fig, grouped_handles(handles))
    return fig


COUNT_METRICS = {"steps", "rejected", "f_evals"}  # whole numbers, printed as such


def metric_vs_parameter_table(spec: dict[str, Any],
                              lines: Lines) -> tuple[list[str], list[list[str]]] | None:
    """Header (the line, then one column per parameter value) and one row per line."""
    if not lines:
        return None
    xs = sorted({x for line in lines.values() for x, _ in line.points})
    header = [f"{spec.get('metric', '')} at {spec.get('parameter', '')} ="]
    header += [f"{x:g}" for x in xs]
    fmt = fmt_count if spec.get("metric") in COUNT_METRICS else fmt_float
    rows = []
    for label, line in lines.items():
        values = dict(line.points)
        rows.append([label] + [fmt(values[x]) if x in values else "" for x in xs])
    return header, rows
