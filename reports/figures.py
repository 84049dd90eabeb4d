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
from matplotlib.cm import ScalarMappable  # noqa: E402
from matplotlib.colors import Normalize, to_rgba  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from mpl_toolkits.mplot3d.art3d import Poly3DCollection  # noqa: E402

import sphere_mesh  # noqa: E402

from formatting import (PEER_FAMILIES, UNOPTIMISED_MARK, TimingMark,  # noqa: E402
                        case_label, fmt_count, fmt_float, fmt_order, status_text, timing_mark)
from results import Row, Series, Study, slug  # noqa: E402

# Round-off-level errors (1e-16) and exact zeros would stretch or break a log axis.
FLOOR = 1e-17
COLORS = plt.get_cmap("tab10").colors
# Time-series figures can hold many cases: after ten colours, change the line style.
LINE_CYCLE = plt.cycler(linestyle=["-", "--", ":", "-."]) * plt.cycler(color=COLORS)
plt.rcParams["svg.hashsalt"] = "geomint"  # stable element ids, so reruns diff cleanly


@dataclass(frozen=True)
class Style:
    """How one integrator is drawn in the convergence and work-precision figures."""

    color: Any
    marker: str
    line: str  # its fitted slope (convergence) or the line joining its points (work-precision)
    peer: bool


# Geometric integrators in colours, solid lines; their peers (formatting.PEER_FAMILIES: the
# classical methods and the reference solvers) in greys, dash-dotted, with markers of their own:
# the two sets never share a marker, so they stay apart in print and without colour. Every
# marker is filled, so a point below the reference's error can be drawn hollow.
GEOMETRIC_COLORS = tuple(c for c in COLORS if len(set(c)) > 1)  # tab10 without its grey
GEOMETRIC_MARKERS = "oPX*d"
PEER_COLORS = ("0.0", "0.35", "0.6")
PEER_MARKERS = "sD^v<>ph"
GEOMETRIC_HEADER = "geometric integrators:"
PEER_HEADER = "peers (classical, reference solvers):"


def integrator_styles(cases: list[Row]) -> dict[str, Style]:
    """A style per integrator of the cases, in the order they first appear."""
    styles: dict[str, Style] = {}
    counts = {False: 0, True: 0}
    for case in cases:
        integrator = case["integrator"]
        if integrator in styles:
            continue
        peer = case["family"] in PEER_FAMILIES
        index = counts[peer]
        counts[peer] += 1
        colors, markers, line = ((PEER_COLORS, PEER_MARKERS, "-.") if peer else
                                 (GEOMETRIC_COLORS, GEOMETRIC_MARKERS, "-"))
        # Colours first; once they run out, the next marker of the set.
        styles[integrator] = Style(colors[index % len(colors)],
                                   markers[(index // len(colors)) % len(markers)], line, peer)
    return styles


def grouped_handles(handles: dict[str, Any], styles: dict[str, Style]) -> list[Any]:
    """The integrators' legend handles, geometric ones first, each set under its header (a
    handle with nothing to draw: _legend sets it in bold)."""
    grouped = []
    for peer, header in ((False, GEOMETRIC_HEADER), (True, PEER_HEADER)):
        members = [handle for integrator, handle in handles.items()
                   if styles[integrator].peer == peer]
        if members:
            grouped += [Line2D([], [], linestyle="none", label=header)] + members
    return grouped


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
    "casimir": SeriesPlot("casimir_err", r"$\mathrm{max}_k\ |C_k(t) - C_k(0)|$",
                          "Casimir error", True),
    "manifold_defect": SeriesPlot("manifold_defect", r"largest manifold defect $\mathrm{max}_k\ |D_k|$",
                                  "manifold defect", True),
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
        elif plot == "kinetic_energy_map":
            fig, plot_notes = kinetic_energy_map_figure(title, cases, study)
        elif plot == "curves":
            fig, plot_notes = curves_figure(title, cases, study)
        elif plot == "formation":
            fig, plot_notes = formation_figure(title, experiment, cases, study)
        elif plot == "outputs":
            fig, plot_notes = outputs_figure(title, cases, study)
        elif plot == "work_precision":
            fig, plot_notes = work_precision_figure(title, cases, timing_mark(study.manifest))
        else:
            figures.append(Figure(plot, None, [f"Unknown plot kind '{plot}'."]))
            continue
        stem = None
        if fig is not None:
            stem = f"figures/{study.slug}/{slug(name)}-{slug(plot)}"
            save_figure(fig, out_dir / stem)
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
    """global_err against h (or mean step) per integrator, with fitted and nominal slopes;
    the peers drawn apart from the geometric integrators (integrator_styles).

    The fitted line uses orders.csv's slope and only fits the intercept, so it shows
    how well that slope describes the points it was fitted to; its value is written at its
    end. The nominal slope (dashed) starts at the largest step's point.
    """
    notes = [f"Not plotted, {case_label(c)}: {status_text(c)}."
             for c in cases if c["status"] != "ok"]
    fits = {o["integrator"]: o for o in orders}
    groups: dict[str, list[Row]] = {}
    for case in cases:
        if case["status"] == "ok" and case["family"] != "reference":
            groups.setdefault(case["integrator"], []).append(case)
    fig, ax = _new_axes()
    styles = integrator_styles([c for group in groups.values() for c in group])
    legend: dict[str, Any] = {}
    any_hollow = False
    for integrator, group in groups.items():
        style = styles[integrator]
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
        legend[integrator] = ax.plot(x[used], y[used], style.marker, color=style.color,
                                     label=_fit_label(integrator, fitted, nominal))[0]
        ax.plot(x[hollow], y[hollow], style.marker, color=style.color, markerfacecolor="none")
        any_hollow |= bool(hollow.any())
        if fitted is not None and math.isfinite(fitted) and used.any():
            ends = np.array([x[used].min(), x[used].max()])
            line = 10 ** fit_intercept(x[used], y[used], fitted) * ends ** fitted
            ax.plot(ends, line, style.line, color=style.color)
            slope_label(ax, ends[0], line[0], fitted, style.color)
        if nominal is not None and math.isfinite(nominal):
            anchor = np.flatnonzero(valid)[np.argmax(x[valid])]
            ends = np.array([x[valid].min(), x[anchor]])
            ax.plot(ends, y[anchor] * (ends / x[anchor]) ** nominal, "--", color=style.color,
                    alpha=0.6)
    if not ax.lines:
        plt.close(fig)
        return None, notes + ["Nothing to draw: no successful case with a global error."]
    handles = grouped_handles(legend, styles)
    handles.append(Line2D([], [], color="gray", linestyle="-",
                          label="fitted slope (peers: dash-dot), p at its left end"))
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


# LLM Fig. 3.7: the sphere in 20 * 4**4 = 5120 triangles, each coloured by the mean kinetic
# energy of the molecules in it or in a face sharing a vertex with it, blue-green-yellow-red
# ascending, one colour scale for all panels. Each time is drawn from two opposite sides:
# (elevation, azimuth) in degrees of the viewer, the first above the lee2009 vortices.
MAP_LEVEL = 4
MAP_VIEWS = ((55.0, -90.0, "seen from above (+z)"), (-55.0, 90.0, "seen from below (-z)"))
MAP_EMPTY = "0.85"  # faces with no molecule in their neighbourhood


def curves_figure(title: str, cases: list[Row],
                  study: Study) -> tuple[MplFigure | None, list[str]]:
    """The model's named curves in R^3 (series/<case_id>-curves.csv), one panel per curve,
    every case of the experiment in its own colour; the start is marked."""
    notes = []
    drawn = []  # (case, curves)
    for case in cases:
        data = study.curves(case["case_id"])
        if data is None:
            notes.append(f"No curves file for {case_label(case)} ({case['case_id']}).")
        else:
            drawn.append((case, data[1]))
    if not drawn:
        return None, notes + ["Nothing to draw: no curves."]
    names = list(drawn[0][1])
    fig = plt.figure(figsize=(5.2 * len(names), 5.0))
    for index, name in enumerate(names):
        ax = fig.add_subplot(1, len(names), index + 1, projection="3d")
        points = []
        for case, data in drawn:
            if name not in data:
                continue
            x, y, z = (_array(v) for v in data[name])
            line = ax.plot(x, y, z, linewidth=0.8, label=case_label(case))[0]
            ax.scatter(x[:1], y[:1], z[:1], color=line.get_color(), marker="o", s=12)
            points.append(np.column_stack([x, y, z]))
        _equal_scales(ax, points)
        ax.set_title(name, fontsize="small")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_zlabel("z")
    handles, labels = fig.axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(3, len(labels)), fontsize="small")
    fig.suptitle(f"{title}: curves", fontsize="medium")
    notes.insert(0, "Each curve over the run (the first output point of each of at most 2000 "
                    "equal time bins), on equal scales; the dot marks t = 0.")
    return fig, notes


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
    curve_links between them as thick segments, labelled with that time."""
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
    fig = plt.figure(figsize=(5.6 * len(drawn), 5.6))
    for index, (case, t, curves) in enumerate(drawn):
        ax = fig.add_subplot(1, len(drawn), index + 1, projection="3d")
        xyz = [np.column_stack([_array(v) for v in curves[name]]) for name in names]
        for k, (name, p) in enumerate(zip(names, xyz)):
            ax.plot(p[:, 0], p[:, 1], p[:, 2], linewidth=0.8, color=COLORS[k % len(COLORS)],
                    label=name)
        finite = np.flatnonzero(np.isfinite(t))
        for moment in times if len(finite) else []:
            row = finite[np.argmin(np.abs(t[finite] - moment))]
            for a, b in links:
                segment = np.vstack([xyz[a][row], xyz[b][row]])
                ax.plot(segment[:, 0], segment[:, 1], segment[:, 2], linewidth=2.5, color="0.2")
            for k, p in enumerate(xyz):
                ax.scatter(*p[row], color=COLORS[k % len(COLORS)], s=18, depthshade=False)
            ax.text(*xyz[0][row], f"  t = {t[row]:.3g}", fontsize="x-small")
        _equal_scales(ax, xyz)
        failed = "" if case["status"] == "ok" else f" ({case['status']})"
        ax.set_title(case_label(case) + failed, fontsize="small")
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        ax.set_zlabel("z")
    handles = fig.axes[0].get_legend_handles_labels()[0]
    if links:
        handles.append(Line2D([], [], color="0.2", linewidth=2.5, label="links"))
    fig.legend(handles=handles, loc="lower center", ncol=min(5, len(handles)), fontsize="small")
    fig.suptitle(f"{title}: formation", fontsize="medium")
    joined = ", ".join(f"{names[a]} - {names[b]}" for a, b in links) or "none"
    notes.insert(0, "Each curve over the run (the first output point of each of at most 2000 "
                    "equal time bins), on equal scales; at each formation time ("
                    + ", ".join(f"{t:g}" for t in times) + ") the curves' points at the nearest "
                    f"recorded time, labelled with it, joined by the links ({joined}).")
    return fig, notes


def outputs_figure(title: str, cases: list[Row],
                   study: Study) -> tuple[MplFigure | None, list[str]]:
    """The model's named outputs (series/<case_id>-outputs.csv), one panel per output, one
    line per case of |output| against t on a log axis."""
    notes = []
    drawn = []  # (case, times, outputs)
    for case in cases:
        data = study.outputs(case["case_id"])
        if data is None:
            notes.append(f"No outputs file for {case_label(case)} ({case['case_id']}).")
        else:
            drawn.append((case, _array(data[0]), data[1]))
    names = list(dict.fromkeys(name for _, _, outputs in drawn for name in outputs))
    if not names:
        return None, notes + ["Nothing to draw: no outputs."]
    fig, axes = plt.subplots(len(names), 1, figsize=(7.5, 2.6 * len(names) + 0.6), sharex=True,
                             squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        ax.set_prop_cycle(LINE_CYCLE)
        for case, t, outputs in drawn:
            y = np.abs(_array(outputs.get(name, [])))
            y[~np.isfinite(y)] = np.nan
            if len(y) and np.isfinite(y).any():
                failed = "" if case["status"] == "ok" else f" ({case['status']})"
                ax.plot(t, np.maximum(y, FLOOR), linewidth=1, label=case_label(case) + failed)
            else:
                ax.plot([], [], linewidth=1, label=case_label(case))  # keeps the colours in step
        ax.set_yscale("log")
        ax.set_ylabel(name.replace("_", " "), fontsize="small")
        ax.grid(True, which="major", alpha=0.3)
    axes[-1, 0].set_xlabel("time t [s]")
    axes[0, 0].set_title(f"{title}: outputs")
    _legend(axes[0, 0], axes[0, 0].get_legend_handles_labels()[0])
    notes.insert(0, "|output| against t, at most 2000 rows: each of equal time bins keeps its "
                    f"sample of largest magnitude; values below {FLOOR:g}, incl. exact 0, "
                    f"drawn at {FLOOR:g}.")
    return fig, notes


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


def slope_label(ax: Axes, x: float, y: float, slope: float, color: Any) -> None:
    """The fitted slope's value written at (x, y), the small-step end of its line, to the left
    of it: lines of different slopes fan out there, so their labels overlap least."""
    ax.annotate(f"p={fmt_order(slope)}", (x, y), xytext=(-3, 0), textcoords="offset points",
                ha="right", va="center", fontsize="x-small", color=color,
                bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "alpha": 0.7,
                      "linewidth": 0})


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
    """Legend to the right of the axes, so it never hides data; the headers of
    grouped_handles in bold."""
    legend = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                       fontsize="small", frameon=False)
    for text in legend.get_texts():
        if text.get_text() in (GEOMETRIC_HEADER, PEER_HEADER):
            text.set_fontweight("bold")


def save_figure(fig: MplFigure, stem: Path) -> None:
    stem.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(f"{stem}.png", dpi=110, bbox_inches="tight")
    fig.savefig(f"{stem}.svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)


# ---- Work-precision diagrams and study-level figures ---------------------------------------

WORK_AXES = (("cpu_s", "CPU time of the integration [s]"),
             ("f_evals", "vector-field evaluations"))
WORK_ERRORS = (("global_err", r"global error $\|y(T) - y_{\mathrm{ref}}(T)\|_2$"),
               ("energy_err_max", r"energy error $\max_t |E(t) - E(0)|$"))


def work_precision_figure(title: str, cases: list[Row],
                          mark: TimingMark) -> tuple[MplFigure | None, list[str]]:
    """global_err (top) and energy_err_max (bottom) against cpu_s (left) and f_evals (right),
    one series per integrator, its points joined in order of cost, the peers apart from the
    geometric integrators (integrator_styles); global errors below the reference's error are
    hollow. Integrators whose CPU times mark flags get it after their legend label, and its
    footnote in the legend and the notes."""
    notes = [f"Not plotted, {case_label(c)}: {status_text(c)}."
             for c in cases if c["status"] not in ("ok", "n/a")]
    groups: dict[str, list[Row]] = {}
    for case in cases:
        if case["status"] == "ok":
            groups.setdefault(case["integrator"], []).append(case)
    fig, grid = plt.subplots(len(WORK_ERRORS), len(WORK_AXES), figsize=(12.5, 8.4),
                             sharex="col", sharey="row", squeeze=False)
    styles = integrator_styles([c for group in groups.values() for c in group])
    legend: dict[str, Any] = {}
    plotted = []
    any_hollow = False
    for integrator, group in groups.items():
        style = styles[integrator]
        drawn = False
        for axes, (metric, _) in zip(grid, WORK_ERRORS):
            err = _array([c[metric] for c in group])
            hollow_all = _array([c["below_reference"] if metric == "global_err" else 0
                                 for c in group]) == 1
            for ax, (column, _) in zip(axes, WORK_AXES):
                cost = _array([c[column] for c in group])
                valid = np.isfinite(cost) & np.isfinite(err) & (cost > 0) & (err > 0)
                order = np.argsort(cost[valid])
                x, y, hollow = cost[valid][order], err[valid][order], hollow_all[valid][order]
                if not len(x):
                    continue
                ax.plot(x, y, style.line, color=style.color, alpha=0.5, linewidth=1)
                ax.plot(x[~hollow], y[~hollow], style.marker, color=style.color, linestyle="none")
                ax.plot(x[hollow], y[hollow], style.marker, color=style.color,
                        markerfacecolor="none", linestyle="none")
                any_hollow |= bool(hollow.any())
                drawn = True
        if drawn:
            legend[integrator] = Line2D([], [], color=style.color, marker=style.marker,
                                        linestyle=style.line,
                                        label=integrator + mark.of(integrator))
            plotted.append(integrator)
        else:
            notes.append(f"{integrator}: no finite positive error and cost to plot.")
    if not legend:
        plt.close(fig)
        return None, notes + ["Nothing to draw: no successful case with an error."]
    handles = grouped_handles(legend, styles)
    if any_hollow:
        handles.append(Line2D([], [], color="gray", marker="o", markerfacecolor="none",
                              linestyle="none", label="below the reference error"))
    footnotes = mark.footnotes(plotted)
    if footnotes:
        handles.append(Line2D([], [], linestyle="none",
                              label=f"{UNOPTIMISED_MARK} CPU time of an unoptimised SUNDIALS"))
        notes += footnotes
    for axes, (_, ylabel) in zip(grid, WORK_ERRORS):
        for ax, (_, label) in zip(axes, WORK_AXES):
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.grid(True, which="major", alpha=0.3)
        axes[0].set_ylabel(ylabel)
    for ax, (_, label) in zip(grid[-1], WORK_AXES):
        ax.set_xlabel(label)
    fig.suptitle(f"{title}: work-precision")
    _legend(grid[0][-1], handles)
    return fig, notes


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
        fig = metric_vs_parameter_figure(title, spec, lines)
        stem = None
        if fig is None:
            notes.append("Nothing to draw: no successful case with a finite value.")
        else:
            stem = f"figures/{study.slug}/study-{slug(spec['name'])}"
            save_figure(fig, out_dir / stem)
        drawn.append(StudyFigure(spec["name"], title, stem,
                                 metric_vs_parameter_table(spec, lines), notes, footnotes))
    return drawn


Lines = dict[str, list[tuple[float, float]]]
METRIC_LABELS = {"global_err": r"global error $\|y(T) - y_{\mathrm{ref}}(T)\|_2$",
                 "cpu_s": "CPU time [s]", "f_evals": "vector-field evaluations",
                 "steps": "accepted steps"}


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
        label = case_label(case)
        if case["h"] is not None and max(per_experiment[case["integrator"]].values()) == 1:
            label = f"{case['integrator']} (its own h for each {parameter})"
        lines.setdefault(label + mark.of(case["integrator"]), []).append((x, y))
        plotted.append(case["integrator"])
    for points in lines.values():
        points.sort()
    return lines, notes, mark.footnotes(plotted)


def metric_vs_parameter_figure(title: str, spec: dict[str, Any],
                               lines: Lines) -> MplFigure | None:
    if not lines:
        return None
    fig, ax = _new_axes()
    for index, (label, points) in enumerate(lines.items()):
        x, y = _array([p[0] for p in points]), _array([p[1] for p in points])
        ax.plot(x, y, marker="o", color=COLORS[index % len(COLORS)],
                linestyle=("-", "--", ":", "-.")[(index // len(COLORS)) % 4], label=label)
    values = [y for points in lines.values() for _, y in points]
    if all(v > 0 for v in values):
        ax.set_yscale("log")
    xs = sorted({x for points in lines.values() for x, _ in points})
    if all(x == int(x) for x in xs) and len(xs) <= 25:
        ax.set_xticks(xs)
    ax.set_xlabel(str(spec.get("parameter", "")))
    metric = str(spec.get("metric", ""))
    ax.set_ylabel(METRIC_LABELS.get(metric, metric))
    ax.set_title(title)
    _legend(ax, ax.get_legend_handles_labels()[0])
    return fig


COUNT_METRICS = {"steps", "rejected", "f_evals"}  # whole numbers, printed as such


def metric_vs_parameter_table(spec: dict[str, Any],
                              lines: Lines) -> tuple[list[str], list[list[str]]] | None:
    """Header (the line, then one column per parameter value) and one row per line."""
    if not lines:
        return None
    xs = sorted({x for points in lines.values() for x, _ in points})
    header = [f"{spec.get('metric', '')} at {spec.get('parameter', '')} ="]
    header += [f"{x:g}" for x in xs]
    fmt = fmt_count if spec.get("metric") in COUNT_METRICS else fmt_float
    rows = []
    for label, points in lines.items():
        values = dict(points)
        rows.append([label] + [fmt(values[x]) if x in values else "" for x in xs])
    return header, rows
