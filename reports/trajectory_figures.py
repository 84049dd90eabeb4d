"""The figures of a run's trajectory, for every model through the contract: the `components`
plot (chosen state components, their rates, invariants, outputs or curve coordinates against
t, every case in one panel per component, with an optional zoom window) and the `paths` plot
(the model's configuration as a chain of points, models/configuration.hpp, or else its S^2
blocks' paths on the unit sphere). studies/README.md says how a spec asks for them.
"""

from __future__ import annotations

import math
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)
import numpy as np  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from figures import (CURVE_COLORS, FORMATION_CASES, MODEL_UNITS, _array,  # noqa: E402
                     _equal_scales, _label_3d, _legend, _looks_notes, _setting, _title,
                     case_looks, grouped_handles, in_legend_order)
from formatting import case_label  # noqa: E402
from integrator_style import Styles  # noqa: E402
from results import Row, Study  # noqa: E402

PANEL_ROWS = 6  # a components figure puts at most this many panels in a column
ZOOM_SHADE = "0.9"  # the zoom window, shaded on the full-length panels
SPHERE_GREY = "0.8"
NAMED_POINTS = 12  # a paths figure names its points in the legend up to this many


# ---- Components against t ------------------------------------------------------------------


def components_figure(title: str, experiment: dict[str, Any], cases: list[Row], study: Study,
                      styles: Styles | None = None) -> tuple[MplFigure | None, list[str]]:
    """One panel per component (series/<case_id>-components.csv), one line per case against t
    on a linear axis; with the experiment's zoom window, each panel has the window beside it."""
    styles = styles or Styles({}, cases)
    names = [str(n) for n in experiment.get("components") or []]
    zoom = experiment.get("zoom")
    notes = []
    drawn = []  # (case, times, {name: values})
    for case in in_legend_order(cases, styles):
        data = study.components(case["case_id"])
        if data is None:
            notes.append(f"No components file for {case_label(case)} ({case['case_id']}).")
        else:
            drawn.append((case, _array(data[0]), data[1]))
    if not names or not drawn:
        return None, notes + ["Nothing to draw: no components."]
    traces = [[np.vstack([t, _values(columns.get(name), len(t))]) for name in names]
              for _, t, columns in drawn]
    scales = [_finite_extent([trace[p][1] for trace in traces]) for p in range(len(names))]
    looks = case_looks([case for case, _, _ in drawn], traces, styles, scales)
    columns = math.ceil(len(names) / PANEL_ROWS)
    rows = math.ceil(len(names) / columns)
    per_component = 2 if zoom else 1
    fig, axes = plt.subplots(rows, columns * per_component,
                             figsize=(5.2 * columns * per_component, 1.9 * rows + 0.9),
                             squeeze=False, layout="constrained")
    for index, name in enumerate(names):
        row, column = index % rows, index // rows
        ax = axes[row, column * per_component]
        for look, trace in zip(looks, traces):
            look.plot(ax, *trace[index])
        _component_axes(ax, name, row == rows - 1 or index == len(names) - 1)
        if zoom:
            ax.axvspan(zoom[0], zoom[1], color=ZOOM_SHADE, zorder=0)
            _zoomed(axes[row, column * per_component + 1], name, looks,
                    [trace[index] for trace in traces], zoom, row == rows - 1)
    for index in range(len(names), rows * columns):
        for k in range(per_component):
            axes[index % rows, (index // rows) * per_component + k].set_visible(False)
    fig.suptitle(_title(f"{title}: components", fig), fontsize="medium")
    _legend(fig, grouped_handles([look.handle() for look in looks]))
    sampling = ("Each component at the first output point of each of 2000 equal time bins of "
                "[0, T]")
    if zoom:
        sampling += (f" and of 2000 bins of the zoom window [{zoom[0]:g}, {zoom[1]:g}] s, "
                     "shaded on the left panels and drawn on the right ones")
    notes.insert(0, sampling + "; d<c>/dt is the model's vector field at the state, not a "
                 "difference quotient.")
    return fig, notes + _looks_notes(looks, model_units=True)


def _values(values: list[float | None] | None, length: int) -> np.ndarray:
    """The column as floats (nan where not finite); all nan when the case lacks it."""
    if values is None:
        return np.full(length, np.nan)
    y = _array(values)
    y[~np.isfinite(y)] = np.nan
    return y


def _finite_extent(values: list[np.ndarray]) -> float:
    every = np.concatenate(values) if values else np.empty(0)
    every = every[np.isfinite(every)]
    return float(every.max() - every.min()) if every.size else 0.0


def _component_axes(ax: Axes, name: str, bottom: bool) -> None:
    ax.set_ylabel(f"{name} [model units]", fontsize="small")
    ax.grid(True, which="major", alpha=0.3)
    ax.tick_params(labelsize="small")
    if bottom:
        ax.set_xlabel("time t [s]", fontsize="small")


def _zoomed(ax: Axes, name: str, looks: list[Any], traces: list[np.ndarray], zoom: list[float],
            bottom: bool) -> None:
    """The component within the zoom window, its y range that of the points inside it."""
    inside = []
    for look, trace in zip(looks, traces):
        kept = (trace[0] >= zoom[0]) & (trace[0] <= zoom[1])
        if kept.any():
            look.plot(ax, trace[0][kept], trace[1][kept])
            inside.append(trace[1][kept])
    ax.set_xlim(zoom[0], zoom[1])
    extent = _finite_extent(inside)
    if inside and extent > 0:
        low = min(float(np.nanmin(v)) for v in inside if np.isfinite(v).any())
        ax.set_ylim(low - 0.05 * extent, low + 1.05 * extent)
    _component_axes(ax, f"{name} (zoom)", bottom)


# ---- Paths on the sphere, or configurations -------------------------------------------------


def paths_figure(title: str, experiment: dict[str, Any], cases: list[Row],
                 study: Study) -> tuple[MplFigure | None, list[str]]:
    """Per integrator (its finest case; the first FORMATION_CASES integrators), one 3-D panel:
    each point's path over the run, on
    the unit sphere (drawn) for S^2 blocks; for a model's configuration also the chain of its
    points at each of the experiment's path_times, labelled with the time."""
    on_sphere = experiment.get("paths") != "configuration"
    times = [float(t) for t in experiment.get("path_times") or []]
    notes = []
    drawn = []  # (case, times, {name: [xs, ys, zs]})
    chosen: dict[str, Row] = {}  # per integrator, its case of smallest h or rtol with a file
    for case in cases:
        if study.paths(case["case_id"]) is None:
            notes.append(f"No paths file for {case_label(case)} ({case['case_id']}).")
            continue
        best = chosen.get(case["integrator"])
        if best is None or _setting(case) < _setting(best):
            chosen[case["integrator"]] = case
    for case in list(chosen.values())[:FORMATION_CASES]:
        data = study.paths(case["case_id"])
        drawn.append((case, _array(data[0]), data[1]))
    if len(chosen) > len(drawn):
        notes.append(f"{len(chosen) - len(drawn)} more integrator(s) not drawn: a paths figure "
                     f"shows the first {FORMATION_CASES} integrators of the experiment.")
    if not drawn:
        return None, notes + ["Nothing to draw: no paths."]
    fig = plt.figure(figsize=(5.2 * len(drawn), 5.4), layout="constrained")
    for index, (case, t, points) in enumerate(drawn):
        ax = fig.add_subplot(1, len(drawn), index + 1, projection="3d")
        xyz = [np.column_stack([_array(v) for v in points[name]]) for name in points]
        if on_sphere:
            _unit_sphere(ax)
        thin = len(xyz) > NAMED_POINTS
        for k, (name, p) in enumerate(zip(points, xyz)):
            color = CURVE_COLORS[k % len(CURVE_COLORS)]
            ax.plot(p[:, 0], p[:, 1], p[:, 2], linewidth=0.4 if thin else 0.9, color=color,
                    label=None if thin else name)
            ax.scatter(*p[0], color=color, s=6 if thin else 14, depthshade=False)
        if not on_sphere:
            _chains(ax, t, xyz, times)
        _equal_scales(ax, xyz + ([np.array([[-1, -1, -1], [1, 1, 1]])] if on_sphere else []))
        failed = "" if case["status"] == "ok" else f" ({case['status']})"
        ax.set_title(case_label(case) + failed, fontsize="small")
        _label_3d(ax)
    handles = fig.axes[0].get_legend_handles_labels()[0]
    if not on_sphere and times:
        handles.append(Line2D([], [], color="0.2", linewidth=2.5, marker="o", markersize=4,
                              label="configuration at a time"))
    fig.suptitle(_title(f"{title}: paths", fig), fontsize="medium")
    if handles:
        _legend(fig, handles)
    count = len(drawn[0][2])
    what = (f"the paths of the {count} S^2 blocks on the unit sphere (grey)" if on_sphere else
            f"the paths of the configuration's {count} points (the first the support)")
    if not on_sphere and times:
        what += (", and the configuration at each path time (" + ", ".join(f"{x:g}" for x in times)
                 + " s; the nearest recorded time, labelled) as a chain of thick segments")
    notes.insert(0, f"Per integrator, its case of smallest h or rtol: {what}; each path at the first output point of equal time bins "
                    "(2000, fewer for many points), on equal scales; the dot marks t = 0."
                 + ("" if count <= NAMED_POINTS else
                    f" The {count} points are not named: colours repeat."))
    return fig, notes + [MODEL_UNITS]


def _unit_sphere(ax: Axes) -> None:
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 25), np.linspace(0, np.pi, 13))
    ax.plot_wireframe(np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v),
                      color=SPHERE_GREY, linewidth=0.3)


def _chains(ax: Axes, t: np.ndarray, xyz: list[np.ndarray], times: list[float]) -> None:
    """The configuration at each time: its points joined in order, at the nearest recorded t."""
    finite = np.flatnonzero(np.isfinite(t))
    for moment in times if len(finite) else []:
        row = finite[np.argmin(np.abs(t[finite] - moment))]
        chain = np.vstack([p[row] for p in xyz])
        ax.plot(chain[:, 0], chain[:, 1], chain[:, 2], linewidth=2.5, color="0.2", marker="o",
                markersize=4)
        ax.text(*chain[-1], f"  t = {t[row]:.3g}", fontsize="x-small")
