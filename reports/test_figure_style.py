"""Tests that the figures can be followed: one style per integrator everywhere, hues by family,
slope labels apart, titles and labels apart, units on every axis, coincident curves named,
unreliable CPU times marked.

Run from this directory: /usr/bin/python3 -B -m unittest -v test_figure_style
Geometry is measured on the drawn figures (fig.canvas.draw(), then each artist's box in
pixels), never written to disk.
"""
from __future__ import annotations

import colorsys
import csv
import itertools
import tempfile
import unittest
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import pyplot as plt
from matplotlib.colors import to_hex, to_rgb
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

import figures
import integrator_style
from formatting import TimingMark
from integrator_style import Styles
from results import CASE_NUMBERS, CASE_OPTIONAL_NUMBERS, CASE_TEXT, read_csv

# The catalogue as `geomint list integrators` prints it (name, family), in its order.
CATALOGUE = [
    *[(n, "classical") for n in ("rk2", "rk2_proj", "rk4", "rk4_proj", "dopri45",
                                 "dopri45_proj")],
    *[(n, "variational") for n in ("vi_explicit", "vi_implicit", "vi_explicit_y4",
                                   "vi_explicit_y6", "vi_implicit_y4", "vi_implicit_y6")],
    *[(n, "lie_group") for n in ("lie_euler", "lie_euler_heun", "rkmk2", "rkmk3", "rkmk4",
                                 "rkmk4_series", "rkmk4_2c", "rkmk5", "cf3", "cf4", "cg3",
                                 "rkmk54", "cf32a", "cf32b", "cf43")],
    *[(n, "symplectic_lie_group") for n in ("slgi_theta0", "slgi_theta_half", "slgi_theta1",
                                            "slgi_theta_half_y4", "slgi_theta_half_y6")],
    *[(n, "constrained_variational") for n in ("constrained_vi", "rattle")],
    *[(n, "reference") for n in ("cvode_bdf", "cvode_bdf_proj", "cvode_bdf_gmres",
                                 "cvode_adams", "cvode_adams_proj", "arkode_erk",
                                 "arkode_erk_proj", "odeint_dopri5", "odeint_dopri5_proj",
                                 "odeint_dopri5_dense", "odeint_dopri5_dense_proj",
                                 "odeint_rkf78", "odeint_rkf78_proj", "odeint_bulirsch_stoer",
                                 "odeint_bulirsch_stoer_proj")],
]
FAMILY = dict(CATALOGUE)
MANIFEST = {"catalogue": [{"name": n, "family": f, "order": 2, "adaptive": False}
                          for n, f in CATALOGUE]}
# Hue ranges in degrees (HLS hue) each family's colours must lie in: blues, greens and teals,
# purples, oranges and browns, reds (wrapping round 0).
HUE_RANGES = {"variational": (195, 235), "lie_group": (75, 185),
              "symplectic_lie_group": (255, 300), "constrained_variational": (15, 45),
              "classical": (345, 375)}
STEPS = (0.04, 0.02, 0.01, 0.005)
MODEL = "double_spherical_pendulum"


def case(integrator: str, h: float | None = None, rtol: float | None = None,
         **values: Any) -> dict[str, Any]:
    """A cases.csv row as results.py reads it (every column the figures use)."""
    row = {"study": "s", "model": MODEL, "integrator": integrator,
           "family": FAMILY.get(integrator, "lie_group"), "h": h, "rtol": rtol,
           "atol": None if rtol is None else rtol * 1e-3, "T": 1.0, "status": "ok",
           "steps": 100.0, "rejected": 0.0, "f_evals": 400.0, "cpu_s": 0.02,
           "cpu_repetitions": 1.0, "cpu_timed_s": 0.02, "global_err": 1e-6, "energy_err_max": 1e-7,
           "experiment": "e", "case_id": f"{integrator}-{h}-{rtol}", "nominal_order": 2.0,
           "mean_step": h if h is not None else 0.01, "below_reference": 0.0,
           "fail_time": None, "status_detail": ""}
    row.update(values)
    return row


def power_law(integrator: str, c: float, p: float) -> list[dict[str, Any]]:
    """Cases of a fixed-step method whose global error is c h^p exactly."""
    return [case(integrator, h=h, global_err=c * h ** p, nominal_order=p) for h in STEPS]


def fit(integrator: str, p: float) -> dict[str, Any]:
    return {"integrator": integrator, "nominal_order": p, "fitted_order": p, "abscissa": "h"}


def legend_entries(fig: Figure) -> dict[str, Any]:
    """The figure legend's handles by their labels."""
    legend = fig.legends[0]
    handles = getattr(legend, "legend_handles", None) or legend.legendHandles  # matplotlib < 3.7
    return {text.get_text(): handle for text, handle in zip(legend.get_texts(), handles)}


def boxes(fig: Figure, artists: list[Any]) -> list[Bbox]:
    """The pixel boxes of the visible artists with text (or, for a legend, anything)."""
    renderer = fig.canvas.get_renderer()
    return [artist.get_window_extent(renderer) for artist in artists
            if artist.get_visible() and (not hasattr(artist, "get_text") or artist.get_text())]


def overlap(a: Bbox, b: Bbox) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def series(values: np.ndarray) -> dict[str, list[float]]:
    """A series file's columns with `values` in every error column."""
    t = np.linspace(0.0, 10.0, len(values))
    return {"t": list(t), **{column: list(values) for column in
                             ("energy_err", "unit_length_err", "tangency_err", "momentum_err",
                              "step", "casimir_err", "manifold_defect")}}


class FakeStudy:
    """What the curves and outputs figures read of a study: each case's curves and outputs."""

    def __init__(self, cases: list[dict[str, Any]]) -> None:
        t = np.linspace(0.0, 1.0, 50)
        self.data = {c["case_id"]: (list(t), (k + 1) * t) for k, c in enumerate(cases)}

    def curves(self, case_id: str) -> Any:
        t, x = self.data[case_id]
        return t, {"load": [list(x), list(x ** 2), list(-x)], "quadrotor": [list(x)] * 3}

    def outputs(self, case_id: str) -> Any:
        t, x = self.data[case_id]
        return t, {"load_error": list(x), "link_error": list(x * 1e-3)}


def every_figure_kind() -> list[tuple[str, Figure]]:
    """One figure of each kind of the report that shows integrators, with long titles and a
    mix of families, fixed-step and adaptive cases."""
    long = "A long experiment title, " * 6 + "T = 10"
    fixed = [c for name, p in (("vi_explicit", 2), ("rkmk4", 4), ("rk4", 4))
             for c in power_law(name, 1.0, p)]
    adaptive = [case("cvode_bdf", rtol=r, global_err=r, cpu_s=r ** -0.1 * 1e-3, f_evals=1 / r)
                for r in (1e-4, 1e-6, 1e-8)]
    cases = fixed + adaptive
    drawn = {c["case_id"]: series(np.linspace(1e-8, 1e-6, 40) * (k + 1))
             for k, c in enumerate(cases)}
    study = FakeStudy(cases[:3])
    line = figures.Line("rkmk4", 0.01, MODEL, [(2.0, 1e-6), (5.0, 1e-5)])
    kinds = [
        ("series", figures.series_figure(figures.SERIES_PLOTS["energy"], long, cases, drawn)[0]),
        ("convergence", figures.convergence_figure(long, 1e-12, cases,
                                                   [fit("vi_explicit", 2), fit("rkmk4", 4),
                                                    fit("rk4", 4)])[0]),
        ("work_precision", figures.work_precision_figure(long, cases, TimingMark(None))[0]),
        ("outputs", figures.outputs_figure(long, cases[:3], study)[0]),
        ("curves", figures.curves_figure(long, cases[:3], study)[0]),
        ("study", figures.metric_vs_parameter_figure(long, {"parameter": "N",
                                                            "metric": "global_err"},
                                                     {"rkmk4 h=0.01": line},
                                                     Styles(MANIFEST, cases))),
    ]
    for _, fig in kinds:
        fig.canvas.draw()
    return kinds


class StyleTest(unittest.TestCase):
    """integrator_style: a style per integrator, fixed by the catalogue."""

    def test_the_same_integrator_looks_the_same_in_figures_of_different_integrators(self):
        # Listed in orders unlike the catalogue's: a style taken from the order of appearance,
        # or from the figure's own integrators, would differ between the two figures.
        few = power_law("cf43", 2.0, 4) + power_law("rkmk4", 1.0, 4)
        many = [c for name in ("cg3", "cf4", "rkmk3", "rk4", "rkmk4")
                for c in power_law(name, 1.0, 2)]
        one, _ = figures.convergence_figure("a", None, few, [], Styles(MANIFEST, few))
        two, _ = figures.work_precision_figure("b", many, TimingMark(None),
                                               Styles(MANIFEST, many))
        first = legend_entries(one)["rkmk4: fitted p=n/a (nominal 4)"]
        second = legend_entries(two)["rkmk4"]
        self.assertEqual(to_hex(first.get_color()), to_hex(second.get_color()))
        self.assertEqual(first.get_marker(), second.get_marker())
        plt.close(one)
        plt.close(two)

    def test_without_a_catalogue_styles_follow_first_appearance_in_the_study(self):
        cases = power_law("cf4", 1.0, 4) + power_law("rkmk4", 1.0, 4)
        styles = Styles({}, cases)
        # The study's first Lie group method takes the family's first shade and marker.
        self.assertEqual(styles.of("cf4").color, integrator_style.HUES["lie_group"][0])
        self.assertEqual(styles.of("cf4").marker, integrator_style.MARKERS[0])
        self.assertNotEqual(styles.of("rkmk4"), styles.of("cf4"))

    def test_hues_are_grouped_by_family_and_reference_solvers_are_grey(self):
        styles = Styles(MANIFEST, [])
        for name, family in CATALOGUE:
            red, green, blue = to_rgb(styles.of(name).color)
            if family == "reference":
                self.assertTrue(red == green == blue, f"{name} is not grey: {(red, green, blue)}")
                continue
            self.assertFalse(red == green == blue, f"{name} is grey")
            hue = colorsys.rgb_to_hls(red, green, blue)[0] * 360
            low, high = HUE_RANGES[family]
            self.assertTrue(low <= hue <= high or low <= hue + 360 <= high,
                            f"{name} ({family}): hue {hue:.0f} outside {low}..{high}")

    def test_no_two_integrators_look_alike(self):
        styles = Styles(MANIFEST, [])
        looks = [(styles.of(name).color, styles.of(name).marker) for name, _ in CATALOGUE]
        self.assertEqual(len(set(looks)), len(looks))

    def test_peers_join_their_points_dash_dotted(self):
        styles = Styles(MANIFEST, [])
        for name, family in CATALOGUE:
            self.assertEqual(styles.of(name).line,
                             "-." if family in ("classical", "reference") else "-", name)

    def test_a_user_method_has_a_style_of_its_own_fixed_by_its_name(self):
        alone = Styles(MANIFEST, [case("rk38_user")]).of("rk38_user")
        among = Styles(MANIFEST, [case("rkmk4_user"), case("rk38_user")]).of("rk38_user")
        self.assertEqual(alone, among)
        self.assertIn(alone.color, integrator_style.USER_HUES)
        family_colors = {c for shades in integrator_style.HUES.values() for c in shades}
        self.assertNotIn(alone.color, family_colors)
        self.assertEqual(alone.group, integrator_style.USER_GROUP)

    def test_a_smaller_step_is_a_darker_shade_of_the_same_colour(self):
        cases = [case("rkmk4", h=h, case_id=f"h{h}") for h in (0.01, 0.001)]
        drawn = {c["case_id"]: series(np.linspace(1e-8, 1e-6, 40) * (k + 1))
                 for k, c in enumerate(cases)}
        fig, _ = figures.series_figure(figures.SERIES_PLOTS["energy"], "t", cases, drawn,
                                       Styles(MANIFEST, cases))
        entries = legend_entries(fig)
        large, small = (to_rgb(entries[f"rkmk4 h={h:g}"].get_color()) for h in (0.01, 0.001))
        plt.close(fig)
        self.assertEqual(to_hex(small), Styles(MANIFEST, cases).of("rkmk4").color)
        self.assertGreater(sum(large), sum(small))  # lighter
        hue = [colorsys.rgb_to_hls(*rgb)[0] for rgb in (large, small)]
        self.assertAlmostEqual(hue[0], hue[1], delta=0.02)


class LayoutTest(unittest.TestCase):
    """Nothing in a figure is written over something else, and every axis says its unit."""

    def test_slope_labels_overlap_neither_each_other_nor_the_ticks(self):
        # Twelve lines ending at the same, smallest h with errors a factor 1.2 apart: their
        # labels all want one place, left of the leftmost points, where the y ticks are.
        cases, orders = [], []
        for k, name in enumerate(("lie_euler", "lie_euler_heun", "rkmk2", "rkmk3", "rkmk4",
                                  "rkmk4_series", "rkmk4_2c", "rkmk5", "cf3", "cf4", "cg3",
                                  "vi_explicit")):
            cases += power_law(name, 1.2 ** k, 2 + 0.01 * k)
            orders.append(fit(name, 2 + 0.01 * k))
        fig, notes = figures.convergence_figure("crowded", None, cases, orders)
        fig.canvas.draw()
        ax = fig.axes[0]
        renderer = fig.canvas.get_renderer()
        labels = [figures.text_box(text, renderer) for text in ax.texts]
        ticks = boxes(fig, ax.get_xticklabels() + ax.get_yticklabels())
        frame = ax.get_window_extent(renderer)
        plt.close(fig)
        self.assertEqual(len(labels), 12, notes)
        for a, b in itertools.combinations(labels, 2):
            self.assertFalse(overlap(a, b), f"slope labels overlap: {a} {b}")
        for label in labels:
            self.assertTrue(frame.x0 < label.x0 and label.x1 < frame.x1
                            and frame.y0 < label.y0 and label.y1 < frame.y1,
                            f"slope label {label} leaves the axes {frame}")
            for tick in ticks:
                self.assertFalse(overlap(label, tick), f"slope label {label} on tick {tick}")

    def test_axis_labels_fit_beside_their_axes(self):
        # A label longer than its axes (such as a y label with a note as its second line)
        # reaches over the axes' ends, into a title or the next panel.
        for kind, fig in every_figure_kind():
            renderer = fig.canvas.get_renderer()
            for index, ax in enumerate(fig.axes):
                if hasattr(ax, "zaxis"):
                    continue  # a 3-D panel's labels follow its projected axes
                frame = ax.get_window_extent(renderer)
                for axis, (low, high) in ((ax.xaxis, (0, 2)), (ax.yaxis, (1, 3))):
                    if not axis.label.get_text():
                        continue
                    box = axis.label.get_window_extent(renderer)
                    with self.subTest(kind=kind, panel=index, axis=axis.axis_name):
                        self.assertGreaterEqual(box.extents[low], frame.extents[low])
                        self.assertLessEqual(box.extents[high], frame.extents[high])
            plt.close(fig)

    def test_titles_labels_and_legends_never_overlap(self):
        for kind, fig in every_figure_kind():
            with self.subTest(kind=kind):
                titles = boxes(fig, [ax.title for ax in fig.axes] + list(fig.texts))  # suptitle
                labels = boxes(fig, [axis.label for ax in fig.axes
                                     for axis in (ax.xaxis, ax.yaxis)])
                legend = boxes(fig, fig.legends)
                frames = boxes(fig, fig.axes)
                self.assertTrue(titles and labels and legend)
                for a, b in itertools.product(titles, labels + legend + frames):
                    self.assertFalse(overlap(a, b), f"{kind}: a title at {a} meets {b}")
                for a, b in itertools.product(labels, legend):
                    self.assertFalse(overlap(a, b), f"{kind}: a label at {a} meets {b}")
            plt.close(fig)

    def test_every_axis_has_a_label_with_its_unit(self):
        for kind, fig in every_figure_kind():
            for index, ax in enumerate(fig.axes):
                axes = [ax.xaxis, ax.yaxis] + ([ax.zaxis] if hasattr(ax, "zaxis") else [])
                for axis in axes:
                    # An axis whose ticks another panel labels (shared) needs no label.
                    shown = any(t.get_visible() and t.get_text()
                                for t in axis.get_ticklabels())
                    label = axis.label.get_text()
                    with self.subTest(kind=kind, panel=index, axis=axis.axis_name):
                        if shown:
                            self.assertTrue(label, "no label")
                        if label:
                            self.assertRegex(label, r"\[[^\]]+\]", "no unit")
            plt.close(fig)


class CoincidenceTest(unittest.TestCase):
    """Curves equal within figures.COINCIDENCE are all drawn, and the legend says so."""

    def test_coincident_series_are_named_and_drawn_dashed_on_top(self):
        base = np.geomspace(1e-10, 1e-6, 60)
        cases = [case(name, h=0.01, case_id=name)
                 for name in ("vi_explicit", "vi_implicit", "rkmk4")]
        drawn = {"vi_explicit": series(base), "vi_implicit": series(base * (1 + 1e-4)),
                 "rkmk4": series(base * 1.05)}  # 5 %: visibly apart
        fig, notes = figures.series_figure(figures.SERIES_PLOTS["energy"], "t", cases, drawn,
                                           Styles(MANIFEST, cases))
        labels = list(legend_entries(fig))
        lines = fig.axes[0].lines
        plt.close(fig)
        self.assertIn("vi_implicit h=0.01 (coincides with vi_explicit h=0.01)", labels)
        self.assertIn("vi_explicit h=0.01", labels)
        self.assertIn("rkmk4 h=0.01", labels)
        self.assertEqual(len(lines), 3)  # every curve is drawn
        styles = [line.get_linestyle() for line in lines]
        self.assertEqual(styles.count("-"), 2)  # vi_explicit and rkmk4
        self.assertIn(figures.COINCIDENCE_NOTE, notes)

    def test_coincident_convergence_points_are_named_and_drawn_inside(self):
        cases = power_law("vi_explicit", 1.0, 2) + power_law("vi_implicit", 1.0, 2)
        fig, _ = figures.convergence_figure("c", None, cases,
                                            [fit("vi_explicit", 2), fit("vi_implicit", 2)])
        entries = legend_entries(fig)
        plt.close(fig)
        first = entries["vi_explicit: fitted p=2.00 (nominal 2)"]
        second = entries["vi_implicit: fitted p=2.00 (nominal 2); coincides with vi_explicit"]
        self.assertLess(second.get_markersize(), first.get_markersize())

    def test_exact_zeros_of_several_methods_coincide(self):
        # Tangency kept exactly: every value drawn at the floor.
        cases = [case(name, h=0.01, case_id=name) for name in ("rk4_proj", "rkmk4", "cf4")]
        drawn = {name: series(np.zeros(30)) for name in ("rk4_proj", "rkmk4", "cf4")}
        fig, _ = figures.series_figure(figures.SERIES_PLOTS["tangency"], "t", cases, drawn,
                                       Styles(MANIFEST, cases))
        labels = list(legend_entries(fig))
        dashes = [line.get_linestyle() for line in fig.axes[0].lines]
        plt.close(fig)
        self.assertIn("cf4 h=0.01 (coincides with rkmk4 h=0.01)", labels)
        self.assertIn("rk4_proj h=0.01 (coincides with rkmk4 h=0.01)", labels)
        self.assertEqual(dashes.count("-"), 1)


class TimingTest(unittest.TestCase):
    """Work-precision: a CPU time from too few milliseconds of timed runs is marked."""

    def test_unreliable_cpu_times_are_half_filled_in_the_cpu_panels_only(self):
        cases = [case("rkmk4", h=0.01, cpu_s=0.0020, cpu_repetitions=6.0, cpu_timed_s=0.0125,
                      case_id="a"),
                 case("rkmk4", h=0.005, cpu_s=0.0021, cpu_repetitions=2.0, cpu_timed_s=0.0043,
                      case_id="b"),
                 case("rkmk4", h=0.0025, cpu_s=0.0022, cpu_repetitions=None, cpu_timed_s=None,
                      case_id="c")]
        fig, notes = figures.work_precision_figure("w", cases, TimingMark(None),
                                                   Styles(MANIFEST, cases))
        cpu, evals = fig.axes[0], fig.axes[1]
        fills = {line.get_xdata()[0]: line.get_fillstyle() for line in cpu.lines
                 if len(line.get_xdata()) == 1}
        plt.close(fig)
        # 12.5 ms of timed runs: reliable; 4.3 ms, and no record: not.
        self.assertEqual(sorted(fills.values()), ["full", "left", "left"])
        self.assertTrue(all(line.get_fillstyle() == "full" for line in evals.lines))
        self.assertIn(figures.UNRELIABLE_NOTE, notes)

    def test_cpu_repetitions_is_optional_in_cases_csv(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "cases.csv"
            columns = list(CASE_TEXT + CASE_NUMBERS)
            for extra, expected in (([], None), (["cpu_repetitions", "cpu_timed_s"], 7.0)):
                with path.open("w", newline="", encoding="utf-8") as file:
                    writer = csv.writer(file)
                    writer.writerow(columns + extra)
                    writer.writerow(["x"] * len(CASE_TEXT) + ["1"] * len(CASE_NUMBERS)
                                    + ["7"] * len(extra))
                row = read_csv(path, CASE_TEXT, CASE_NUMBERS, CASE_OPTIONAL_NUMBERS)[0]
                self.assertEqual(row["cpu_repetitions"], expected)


if __name__ == "__main__":
    unittest.main()
