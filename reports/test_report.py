"""Tests of the report generator on a small synthetic result directory.

Run from this directory: /usr/bin/python3 -B -m unittest -v test_report
Everything is written into temporary directories, never into the source tree.
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import tempfile
import unittest
from unittest import mock
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib import pyplot as plt
from matplotlib.colors import to_hex

import evoke_figures
import make_report
import manifolds
import matrix_verdict
import sphere_mesh
from figures import (FLOOR, convergence_figure, fit_intercept, formation_figure,
                     metric_vs_parameter_lines, outputs_figure, work_precision_figure)
from formatting import TimingMark, fmt_count, fmt_float, fmt_order, timing_mark
from results import load_study

CASE_COLUMNS = [
    "study", "model", "integrator", "h", "rtol", "atol", "T", "status", "steps", "rejected",
    "f_evals", "cpu_s", "global_err", "energy_err_max", "energy_err_mean",
    "energy_drift_per_time", "momentum_err_max", "manifold_err_max", "tangency_err_max",
    "experiment", "case_id", "preset", "family", "nominal_order", "mean_step",
    "unit_length_err_mean", "energy_rel_err_max", "nonlinear_iterations", "exponentials",
    "output_points", "fail_time", "status_detail", "reference_err", "below_reference"]
ORDER_COLUMNS = ["study", "experiment", "model", "integrator", "nominal_order", "fitted_order",
                 "residual", "points_used", "points_total", "abscissa", "note"]
REPRODUCTION_COLUMNS = ["study", "experiment", "example", "method", "setting", "role",
                        "metric", "published", "ours", "ratio", "case_id", "note"]
SERIES_COLUMNS = ["t", "energy_err", "energy_rel_err", "unit_length_err", "tangency_err",
                  "momentum_err", "step", "casimir_err", "manifold_defect"]

CONVERGENCE_TITLE = "Convergence & order"
LONG_TITLE = "Long-time invariants"
# integrator -> (C, p): global_err = C * h**p exactly.
CONVERGENCE = {"rk4": (2.0, 4), "rkmk2": (0.5, 2)}
STEPS = (0.1, 0.05, 0.025, 0.0125)
PLOTS = {"conv": ["convergence", "energy"],
         "long": ["energy", "unit_length", "tangency", "momentum", "steps"]}


def _write_csv(path: Path, columns: list[str], rows: list[dict[str, object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, columns, restval="")
        writer.writeheader()
        writer.writerows(rows)


def _case(experiment: str, integrator: str, case_id: str, **values: object) -> dict:
    case = {"study": "synthetic", "model": "spherical_pendulum", "integrator": integrator,
            "T": 10.0, "status": "ok", "steps": 100, "rejected": 0, "f_evals": 400,
            "cpu_s": 0.0123, "global_err": 1e-6, "energy_err_max": 1e-6,
            "energy_err_mean": 5e-7, "energy_drift_per_time": 1e-9, "momentum_err_max": 1e-12,
            "manifold_err_max": 1e-15, "tangency_err_max": 1e-14, "experiment": experiment,
            "case_id": case_id, "preset": "tilted", "family": "lie_group",
            "nominal_order": 2, "mean_step": 0.1, "unit_length_err_mean": 1e-16,
            "below_reference": 0}
    case.update(values)
    return case


def _series(path: Path, step: float | None, scale: float) -> None:
    """A series with exact zeros (t = 0), negative energy errors and a nan."""
    t = np.linspace(0.0, 10.0, 60)
    rows = [{"t": ti, "energy_err": scale * math.sin(ti), "energy_rel_err": scale * math.sin(ti),
             "unit_length_err": 0.0 if i < 30 else 2e-16, "tangency_err": 1e-8 * scale * ti,
             "momentum_err": "nan" if i == 5 else 1e-6 * scale * ti,
             "step": step if step is not None else 0.01 * (1 + 0.5 * math.sin(ti)),
             "casimir_err": 1e-9 * scale * ti, "manifold_defect": 1e-8 * scale * ti}
            for i, ti in enumerate(t)]
    _write_csv(path, SERIES_COLUMNS, rows)


def write_synthetic_results(path: Path) -> None:
    """A result directory with a convergence and a long-time experiment."""
    (path / "series").mkdir(parents=True)
    manifest = {
        "study": "synthetic", "title": "Synthetic study", "description": "Made up for tests.",
        "spec_file": "studies/synthetic.yaml", "spec": {}, "git_revision": "0123456789ab",
        "compiler": "GNU 12.2.0", "build_type": "Release", "flags": "-O3 -DNDEBUG",
        "sundials": {"version": "6.4.1", "build": "debian"},
        "machine": {"hostname": "bench", "cpu": "Example CPU", "cores": 2},
        "started": "2026-11-21T19:40:00Z", "finished": "2026-11-21T19:40:12Z", "wall_s": 12.3,
        "cases": 11, "failed": 1,
        "experiments": [
            {"name": "conv", "title": CONVERGENCE_TITLE, "description": "Order check.",
             "model": "spherical_pendulum", "preset": "tilted", "T": 10.0,
             "reference": "cvode_bdf rtol=1e-12 atol=1e-14", "reference_err": 1e-13,
             "plots": PLOTS["conv"]},
            {"name": "long", "title": LONG_TITLE, "description": "Invariants over time.",
             "model": "spherical_pendulum", "preset": "tilted", "T": 10.0,
             "reference": "none", "plots": PLOTS["long"]}]}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    cases = []
    for integrator, (c, p) in CONVERGENCE.items():
        for h in STEPS:
            case_id = f"{integrator}-{h}"
            cases.append(_case("conv", integrator, case_id, h=h, global_err=c * h ** p,
                               nominal_order=p, mean_step=h))
            _series(path / "series" / f"{case_id}.csv", h, c * h ** p)
    cases.append(_case("conv", "rk4", "rk4-fail", h=0.2, status="NonConvergence",
                       global_err="nan", fail_time=3.5, nominal_order=4,
                       status_detail="Newton did not converge"))
    cases.append(_case("long", "rattle", "rattle-long", h=0.01))
    _series(path / "series" / "rattle-long.csv", 0.01, 1e-6)
    cases.append(_case("long", "cvode_bdf", "bdf-long", rtol=1e-8, atol=1e-10,
                       family="classical", nominal_order=5, mean_step=0.01))
    _series(path / "series" / "bdf-long.csv", None, 1e-8)
    _write_csv(path / "cases.csv", CASE_COLUMNS, cases)
    _write_csv(path / "orders.csv", ORDER_COLUMNS, [
        {"study": "synthetic", "experiment": "conv", "model": "spherical_pendulum",
         "integrator": integrator, "nominal_order": p, "fitted_order": p, "residual": 1e-15,
         "points_used": 4, "points_total": 5 if integrator == "rk4" else 4, "abscissa": "h"}
        for integrator, (_, p) in CONVERGENCE.items()])
    _write_csv(path / "reproduction.csv", REPRODUCTION_COLUMNS, [
        {"study": "synthetic", "experiment": "long", "example": "Ex. 1", "method": "rattle",
         "setting": "h=0.01", "role": "printed", "metric": "energy_err_mean",
         "published": 5e-7, "ours": 5.1e-7, "ratio": 1.02, "case_id": "rattle-long"},
        {"study": "synthetic", "experiment": "long", "example": "Ex. 2", "method": "rattle",
         "setting": "h=0.02", "role": "printed", "metric": "unit_length_err_mean",
         "published": 1e-16, "ours": 1.6e-16, "ratio": 1.6, "case_id": "rattle-long"},
        {"study": "synthetic", "experiment": "long", "example": "Ex. 2", "method": "rattle",
         "setting": "h=0.005", "role": "reproducing", "metric": "unit_length_err_mean",
         "published": 1e-16, "ours": 0.98e-16, "ratio": 0.98, "case_id": "rattle-long",
         "note": "the printed h does not reproduce Fig. 3"}])


def read_manifest(results: Path) -> dict[str, Any]:
    """The manifest of a result directory, for a test to change."""
    return json.loads((results / "manifest.json").read_text(encoding="utf-8"))


def write_manifest(results: Path, manifest: dict[str, Any]) -> None:
    """Writes a manifest a test has changed back into its result directory."""
    (results / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def _run_capturing(*argv: str) -> tuple[int, str, str]:
    """make_report.main's exit status and what it wrote to stdout and stderr."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = make_report.main(list(argv))
    return status, stdout.getvalue(), stderr.getvalue()


def _run(*argv: str) -> tuple[int, str]:
    """make_report.main's exit status and what it wrote to stderr."""
    status, _, stderr = _run_capturing(*argv)
    return status, stderr


class ReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.results = root / "results"
        write_synthetic_results(cls.results)
        cls.report = root / "report"
        cls.status, cls.stderr = _run(str(cls.results), "--out", str(cls.report))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_succeeds(self) -> None:
        self.assertEqual(self.status, 0, self.stderr)

    def test_page_mentions_every_experiment(self) -> None:
        page = (self.report / "synthetic.html").read_text(encoding="utf-8")
        self.assertIn("Convergence &amp; order", page)
        self.assertIn(LONG_TITLE, page)

    def test_every_figure_exists(self) -> None:
        for experiment, plots in PLOTS.items():
            for plot in plots:
                for suffix in ("png", "svg"):
                    path = self.report / "figures" / "synthetic" / f"{experiment}-{plot}.{suffix}"
                    self.assertTrue(path.is_file(), path)

    def test_failed_case_shown(self) -> None:
        page = (self.report / "synthetic.html").read_text(encoding="utf-8")
        self.assertIn("NonConvergence", page)
        self.assertIn("Newton did not converge", page)
        self.assertIn('class="failed"', page)

    def test_summary_has_reproduction_and_orders(self) -> None:
        summary = (self.report / "summary.md").read_text(encoding="utf-8")
        self.assertIn("| example | method | setting | role | metric | published | ours | "
                      "ratio | note |", summary)
        self.assertIn("**1.600e+00** (out of band)", summary)
        self.assertIn("reproducing (reproducing setting)", summary)
        self.assertNotIn("1.020e+00** (out of band)", summary)
        self.assertIn("| conv | rk4 | 4 | 4.00 |", summary)

    def test_loader_tells_empty_from_nan(self) -> None:
        cases = {c["case_id"]: c for c in load_study(self.results).cases}
        self.assertIsNone(cases["rk4-0.1"]["rtol"])
        self.assertTrue(math.isnan(cases["rk4-fail"]["global_err"]))

    def test_directory_of_result_directories(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for name in ("a", "b"):
                write_synthetic_results(root / "runs" / name)
            (root / "runs" / "not-a-result").mkdir()
            status, stderr = _run(str(root / "runs"), "--out", str(root / "report"))
            self.assertEqual(status, 0, stderr)
            # Both studies are named "synthetic": the second one's figures must not clash.
            for study in ("synthetic", "synthetic-2"):
                self.assertTrue((root / "report" / "figures" / study / "conv-convergence.png")
                                .is_file())

    def test_degraded_input_still_reports(self) -> None:
        """No reproduction rows or orders, a missing series, an experiment with no cases."""
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            write_synthetic_results(results)
            (results / "reproduction.csv").unlink()
            _write_csv(results / "orders.csv", ORDER_COLUMNS, [])
            (results / "series" / "rattle-long.csv").unlink()
            manifest = read_manifest(results)
            manifest["experiments"].append({"name": "empty", "title": "Nothing ran",
                                            "plots": ["energy", "convergence", "bogus"]})
            write_manifest(results, manifest)
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
            self.assertEqual(status, 0, stderr)
            page = (Path(tmp) / "report" / "synthetic.html").read_text(encoding="utf-8")
            summary = (Path(tmp) / "report" / "summary.md").read_text(encoding="utf-8")
        self.assertIn("No series file for rattle h=0.01", page)
        self.assertIn("Unknown plot kind", page)
        self.assertIn("No cases in this experiment.", page)
        self.assertIn("No reproduction rows.", summary)
        self.assertIn("No fitted orders.", summary)

    def test_missing_column_is_reported(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            write_synthetic_results(results)
            cases = results / "cases.csv"
            with cases.open(newline="", encoding="utf-8") as file:
                rows = list(csv.DictReader(file))
            _write_csv(cases, [c for c in CASE_COLUMNS if c != "global_err"],
                       [{k: v for k, v in row.items() if k != "global_err"} for row in rows])
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
        self.assertNotEqual(status, 0)
        self.assertEqual(stderr, f"report: {cases}: missing column 'global_err'\n")

    def test_not_a_result_directory(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            status, stderr = _run(tmp, "--out", str(Path(tmp) / "report"))
        self.assertNotEqual(status, 0)
        self.assertIn("is not a result directory (no manifest.json)", stderr)


SNAPSHOT_COLUMNS = ["t", "body", "q_x", "q_y", "q_z", "kinetic_energy"]


def write_snapshot_results(path: Path) -> None:
    """A result directory with one molecular-dynamics experiment asking for the kinetic energy
    map: one case with a snapshots file (42 molecules at the vertices of a once-subdivided
    icosahedron, at t = 0 and t = 1, hot near +z), one without."""
    (path / "series").mkdir(parents=True)
    manifest = {"study": "md", "title": "Molecules", "experiments": [
        {"name": "md", "title": "Molecules on a sphere", "model": "sphere_lj",
         "preset": "lee2009", "T": 1.0, "plots": ["kinetic_energy_map"]}]}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    _write_csv(path / "cases.csv", CASE_COLUMNS, [
        _case("md", "vi_explicit", "vi-md", h=0.01, model="sphere_lj", family="variational"),
        _case("md", "rk4", "rk4-md", h=0.01, model="sphere_lj", family="classical")])
    _write_csv(path / "orders.csv", ORDER_COLUMNS, [])
    vertices, _ = sphere_mesh.icosphere(1)
    rows = [{"t": t, "body": i + 1, "q_x": q[0], "q_y": q[1], "q_z": q[2],
             "kinetic_energy": (1 + t) * max(q[2], 0.0)}
            for t in (0.0, 1.0) for i, q in enumerate(vertices)]
    _write_csv(path / "series" / "vi-md-snapshots.csv", SNAPSHOT_COLUMNS, rows)


class KineticEnergyMapTest(unittest.TestCase):
    """The kinetic_energy_map plot (LLM Fig. 3.7) and the sphere mesh behind it."""

    def test_icosphere(self) -> None:
        for level, count in ((0, 12), (3, 642), (4, 2562)):
            vertices, faces = sphere_mesh.icosphere(level)
            self.assertEqual(len(vertices), count)
            self.assertEqual(len(faces), 20 * 4 ** level)
            np.testing.assert_allclose(np.linalg.norm(vertices, axis=1), 1.0, atol=1e-15)
            a, b, c = (vertices[faces[:, k]] for k in range(3))
            self.assertTrue((np.einsum("ij,ij->i", np.cross(a, b), c) > 0).all(), "outward")
        sizes = [len(n) for n in sphere_mesh.vertex_neighbourhoods(faces, len(vertices))]
        self.assertEqual((sizes.count(13), sizes.count(12)), (5120 - 60, 60))

    def test_containing_faces(self) -> None:
        vertices, faces = sphere_mesh.icosphere(2)
        centres = vertices[faces].mean(axis=1)
        centres /= np.linalg.norm(centres, axis=1)[:, None]
        found = sphere_mesh.containing_faces(vertices, faces, centres)
        self.assertEqual([list(f) for f in found], [[i] for i in range(len(faces))])
        # A point on a vertex lies in every face around it: 5 at the icosahedron's, else 6.
        around = sphere_mesh.containing_faces(vertices, faces, vertices[[0, 12]])
        self.assertEqual([len(f) for f in around], [5, 6])

    def test_neighbourhood_means(self) -> None:
        vertices, faces = sphere_mesh.icosphere(2)
        centres = vertices[faces].mean(axis=1)
        centres /= np.linalg.norm(centres, axis=1)[:, None]
        near = sphere_mesh.vertex_neighbourhoods(faces, len(vertices))
        first, other = 0, int(near[0][-1])  # a face sharing a vertex with face 0
        found = sphere_mesh.containing_faces(vertices, faces, centres[[first, other]])
        means = sphere_mesh.neighbourhood_means(faces, len(vertices), found, np.array([1.0, 3.0]))
        self.assertEqual(means[first], 2.0)  # both molecules lie in face 0's neighbourhood
        only_first = [f for f in range(len(faces)) if first in near[f] and other not in near[f]]
        self.assertTrue(only_first)
        np.testing.assert_array_equal(means[only_first], 1.0)
        reached = set(np.concatenate([near[first], near[other]]))
        unreached = [f for f in range(len(faces)) if not set(near[f]) & {first, other}]
        self.assertTrue(np.isnan(means[unreached]).all())
        self.assertTrue(np.isfinite(means[sorted(reached)]).all())

    def test_map_is_drawn(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            write_snapshot_results(results)
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
            self.assertEqual(status, 0, stderr)
            for suffix in ("png", "svg"):
                path = Path(tmp) / "report" / "figures" / "md" / f"md-kinetic_energy_map.{suffix}"
                self.assertTrue(path.is_file(), path)
            page = (Path(tmp) / "report" / "md.html").read_text(encoding="utf-8")
        self.assertIn("The sphere in 5120 triangles", page)
        self.assertIn("No snapshots file for rk4 h=0.01", page)
        self.assertIn("have no molecule around them", page)  # 42 molecules leave faces empty


class CurvesTest(unittest.TestCase):
    """The curves plot (Celledoni Fig. 2): a model's named curves in R^3 from
    series/<case_id>-curves.csv."""

    def _results(self, path: Path, header: list[str]) -> None:
        (path / "series").mkdir(parents=True)
        manifest = {"study": "top", "title": "Top", "experiments": [
            {"name": "fig2", "title": "Fig. 2", "model": "heavy_top", "preset": "celledoni2021",
             "T": 1.0, "plots": ["curves"]}]}
        (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        _write_csv(path / "cases.csv", CASE_COLUMNS, [
            _case("fig2", "slgi_theta_half", "half", h=0.01, model="heavy_top",
                  family="symplectic_lie_group"),
            _case("fig2", "slgi_theta0", "zero", h=0.01, model="heavy_top",
                  family="symplectic_lie_group")])
        _write_csv(path / "orders.csv", ORDER_COLUMNS, [])
        t = np.linspace(0.0, 1.0, 50)
        rows = [dict(zip(header, (x, np.cos(x), np.sin(x), 0.0, 0.0, np.cos(3 * x), np.sin(3 * x))))
                for x in t]
        _write_csv(path / "series" / "half-curves.csv", header, rows)

    def test_curves_are_drawn_and_a_missing_file_is_named(self) -> None:
        header = ["t", "Q X_x", "Q X_y", "Q X_z", "G_x", "G_y", "G_z"]
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results, header)
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
            self.assertEqual(status, 0, stderr)
            for suffix in ("png", "svg"):
                path = Path(tmp) / "report" / "figures" / "top" / f"fig2-curves.{suffix}"
                self.assertTrue(path.is_file(), path)
            page = (Path(tmp) / "report" / "top.html").read_text(encoding="utf-8")
            t, curves = load_study(results).curves("half")
        self.assertIn("No curves file for slgi_theta0 h=0.01", page)
        self.assertEqual(list(curves), ["Q X", "G"])
        self.assertAlmostEqual(curves["G"][2][10], math.sin(3 * t[10]))

    def test_a_header_that_is_not_curves_is_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results, ["t", "Q X_x", "Q X_y", "Q X_z", "G_x", "G_y", "G_w"])
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
        self.assertNotEqual(status, 0)
        self.assertIn("half-curves.csv: the header is not t, then <name>_x, _y, _z per curve",
                      stderr)


class FormationOutputsTest(unittest.TestCase):
    """The formation plot (a model's curves with their links at the formation times) and the
    outputs plot (its named outputs against t) of five cases, only the first with outputs."""

    TIMES = [0.0, 0.5, 1.0]

    def _results(self, path: Path, outputs_header: list[str] | None = None,
                 formation_times: list[float] | None = None) -> None:
        (path / "series").mkdir(parents=True)
        experiment = {"name": "track", "title": "Tracking", "model": "quadrotors_payload",
                      "preset": "celledoni2021", "T": 1.0, "plots": ["outputs", "formation"],
                      "formation_times": self.TIMES if formation_times is None else formation_times,
                      "curve_links": [[0, 1], [0, 2]]}
        (path / "manifest.json").write_text(json.dumps({"study": "quad", "title": "Quad",
                                                        "experiments": [experiment]}),
                                            encoding="utf-8")
        _write_csv(path / "cases.csv", CASE_COLUMNS, [
            _case("track", "rk4", f"c{i}", h=0.01 * (i + 1), model="quadrotors_payload")
            for i in range(5)])
        _write_csv(path / "orders.csv", ORDER_COLUMNS, [])
        t = np.linspace(0.0, 1.0, 41)  # 0.5 is row 20
        header = ["t"] + [f"{n}_{a}" for n in ("load", "quadrotor 1", "quadrotor 2") for a in "xyz"]
        # The load at (t, 0, 0), quadrotor 1 a unit above it, quadrotor 2 a unit beside it.
        rows = [dict(zip(header, (x, x, 0, 0, x, 0, 1, x, 1, 0))) for x in t]
        for i in range(5):
            _write_csv(path / "series" / f"c{i}-curves.csv", header, rows)
        columns = outputs_header or ["t", "load error", "link error"]
        _write_csv(path / "series" / "c0-outputs.csv", columns, [
            dict(zip(columns, (x, math.exp(-x), "nan" if k == 3 else 0.0 if k == 5 else -x)))
            for k, x in enumerate(t)])

    def test_both_figures_are_drawn_and_what_is_left_out_is_named(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results)
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
            self.assertEqual(status, 0, stderr)
            for plot in ("outputs", "formation"):
                for suffix in ("png", "svg"):
                    path = Path(tmp) / "report" / "figures" / "quad" / f"track-{plot}.{suffix}"
                    self.assertTrue(path.is_file(), path)
            page = (Path(tmp) / "report" / "quad.html").read_text(encoding="utf-8")
        self.assertIn("No outputs file for rk4 h=0.02", page)
        self.assertIn("1 more case(s) not drawn", page)
        self.assertIn("joined by the links (load - quadrotor 1, load - quadrotor 2)", page)

    def test_the_links_join_the_curves_points_at_each_formation_time(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results)
            study = load_study(results)
            experiment = study.experiments()[0]
            fig, _ = formation_figure("Tracking", experiment, study.cases_of("track"), study)
        self.assertIsNotNone(fig)
        self.assertEqual(len(fig.axes), 4)  # the first four cases
        links = [line for line in fig.axes[0].lines if line.get_linewidth() == 2.5]
        ends = sorted(tuple(map(tuple, np.round(np.array(line.get_data_3d()).T, 12)))
                      for line in links)
        expected = sorted(((x, 0.0, 0.0), other) for x in self.TIMES
                          for other in ((x, 0.0, 1.0), (x, 1.0, 0.0)))
        self.assertEqual(ends, expected)
        plt.close(fig)

    def test_outputs_are_drawn_by_magnitude_and_clipped_at_the_floor(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results)
            study = load_study(results)
            fig, notes = outputs_figure("Tracking", study.cases_of("track"), study)
        self.assertEqual([ax.get_ylabel() for ax in fig.axes], ["load error", "link error"])
        y = fig.axes[1].lines[0].get_ydata()
        self.assertTrue(math.isnan(y[3]))
        self.assertEqual(y[5], FLOOR)  # an exact 0
        self.assertAlmostEqual(y[10], 0.25)  # |-t|
        self.assertEqual(len(notes), 5)  # what is drawn, and four cases without a file
        plt.close(fig)

    def test_nothing_to_draw_is_a_note(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results, formation_times=[])
            study = load_study(results)
            fig, notes = formation_figure("Tracking", study.experiments()[0], [], study)
            self.assertIsNone(fig)
            self.assertIn("Nothing to draw: the experiment records no formation_times.", notes)
            fig, notes = outputs_figure("Tracking", study.cases_of("track")[1:], study)
        self.assertIsNone(fig)
        self.assertIn("Nothing to draw: no outputs.", notes)

    def test_an_outputs_header_with_a_column_twice_is_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results, outputs_header=["t", "err", "err"])
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
        self.assertNotEqual(status, 0)
        self.assertIn("c0-outputs.csv: the header is not t, then one named column per output",
                      stderr)


def write_evocation_results(path: Path) -> None:
    """A result directory with an experiment with `evoke`: one case evoked (the conical
    pendulum's rate W = 4.42945 closing every lag), one whose evocation failed, one adaptive."""
    W = 4.42945
    manifest = {"study": "evo", "title": "Evocation", "experiments": [
        {"name": "cone", "title": "Cone", "model": "spherical_pendulum", "preset": "conical",
         "T": 10.0, "plots": [],
         "evoke": {"xi_min": 2.0, "xi_max": 7.0, "count": 51, "best": 3, "lag_min": 0.5,
                   "lag_max": 1.0},
         "evocations": [
             {"case_id": "vi", "integrator": "vi_explicit", "h": 0.01, "status": "ok",
              "detail": "", "dir": "evocation/vi"},
             {"case_id": "rk4", "integrator": "rk4", "h": 0.01, "status": "failed",
              "detail": "the bodies never leave the e3 axis", "dir": "evocation/rk4"}]}]}
    path.mkdir(parents=True)
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    _write_csv(path / "cases.csv", CASE_COLUMNS, [
        _case("cone", "vi_explicit", "vi", h=0.01), _case("cone", "rk4", "rk4", h=0.01),
        _case("cone", "dopri45", "dopri", rtol=1e-6, atol=1e-9)])
    _write_csv(path / "orders.csv", ORDER_COLUMNS, [])
    folder = path / "evocation" / "vi"
    (folder / "frames").mkdir(parents=True)
    xi = np.linspace(2.0, 7.0, 51)
    _write_csv(folder / "scores.csv", ["xi", "score", "lag"],
               [{"xi": x, "score": min(1.0, abs(x - W) / 2 + 1.1e-3), "lag": 0.5} for x in xi])
    best = {"rank": 1, "xi": 4.42937, "score": 1.1e-3, "lag": 0.5,
            "frame": "frames/1-xi4.42937.csv"}
    summary = {"trajectory": "case vi (the positions at every step)", "bodies": ["q1"],
               "samples": 1001, "scan": {"xi_min": 2.0, "xi_max": 7.0, "count": 51},
               "lag_min": 0.5, "lag_max": 1.0, "critical_frequency": 4.42951,
               "azimuth_rates": {"q1": 4.42951}, "best": [best]}
    (folder / "evocation.json").write_text(json.dumps(summary), encoding="utf-8")
    t = np.linspace(0.0, 10.0, 1001)
    _write_csv(folder / best["frame"], ["t", "q1_x", "q1_y", "q1_z"],
               [{"t": ti, "q1_x": 0.866, "q1_y": 1e-4 * ti, "q1_z": 0.5} for ti in t])


class EvocationTest(unittest.TestCase):
    """An experiment with `evoke`: its critical frequency, best frames (xi, score, lag) and the
    figures of evoke_figures.py."""

    def test_the_evocation_is_shown_with_its_numbers_and_figures(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_evocation_results(results)
            with mock.patch.object(evoke_figures, "scores_figure",
                                   wraps=evoke_figures.scores_figure) as scores, \
                    mock.patch.object(evoke_figures, "frame_figure",
                                      wraps=evoke_figures.frame_figure) as frames:
                status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            self.assertEqual((scores.call_count, frames.call_count), (1, 1))
            page = (report / "evo.html").read_text(encoding="utf-8")
            for stem in ("cone-evoke-vi-scores", "cone-evoke-vi-frame1"):
                for suffix in ("png", "svg"):
                    path = report / "figures" / "evo" / f"{stem}.{suffix}"
                    self.assertTrue(path.is_file(), path)
        self.assertIn("Pattern evocation", page)
        self.assertIn("51 frames turning about e3 at xi = 2 to 7 rad/s, lags 0.5 to 1 s", page)
        self.assertIn("<strong>4.42951</strong> rad/s", page)
        self.assertIn('<td class="num">4.42937</td><td class="num">1.100e-03</td>'
                      '<td class="num">0.5</td>', page)
        self.assertIn("No evocation (failed): the bodies never leave the e3 axis", page)
        self.assertEqual(page.count("<h4>"), 2)  # the adaptive case is not evoked

    def test_a_missing_frame_file_is_named(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            write_evocation_results(results)
            frame = results / "evocation" / "vi" / "frames" / "1-xi4.42937.csv"
            frame.unlink()
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
        self.assertEqual(status, 2)
        self.assertIn(f"report: {frame}:", stderr)


class FormattingTest(unittest.TestCase):
    def test_float(self) -> None:
        self.assertEqual(fmt_float(2.16437e-05), "2.164e-05")
        self.assertEqual(fmt_float(-1234.56), "-1.235e+03")
        self.assertEqual(fmt_float(0.0), "0.000e+00")
        self.assertEqual(fmt_float(None), "")
        self.assertEqual(fmt_float(math.nan), "nan")
        self.assertEqual(fmt_float(math.inf), "inf")

    def test_count_and_order(self) -> None:
        self.assertEqual(fmt_count(400.0), "400")
        self.assertEqual(fmt_count(None), "")
        self.assertEqual(fmt_order(4.0123), "4.01")
        self.assertEqual(fmt_order(math.nan), "n/a")


class FitTest(unittest.TestCase):
    def test_intercept_of_exact_power_law(self) -> None:
        h = np.array(STEPS)
        self.assertAlmostEqual(fit_intercept(h, 2.0 * h ** 4, 4.0), math.log10(2.0), places=12)


class MatrixPageTest(unittest.TestCase):
    """The integrator x model matrix page: its cells judged against each promise."""

    @staticmethod
    def _cell(**values: object) -> dict:
        case = _case("m", "vi_implicit", "c", symplectic=1.0, stays_on_manifold=1.0,
                     momentum_rel_err_max=1e-13, energy_rel_err_max=1e-5,
                     manifold_defect_max=1e-15)
        case.update(values)
        return case

    def test_a_kept_promise_is_green_and_each_broken_one_is_named(self) -> None:
        self.assertEqual(matrix_verdict.judge([self._cell()], None), ("kept", []))
        self.assertEqual(matrix_verdict.judge([self._cell(manifold_defect_max=1e-9)], None),
                         ("broken", ["manifold"]))
        self.assertEqual(matrix_verdict.judge([self._cell(manifold_defect_max=math.nan)], None),
                         ("broken", ["manifold"]))
        self.assertEqual(matrix_verdict.judge([self._cell(momentum_rel_err_max=1e-6)], None),
                         ("broken", ["momentum"]))
        self.assertEqual(matrix_verdict.judge([self._cell(energy_rel_err_max=0.5)], None),
                         ("broken", ["bounded energy"]))
        order = {"fitted_order": 1.5, "nominal_order": 2.0, "abscissa": "h"}
        self.assertEqual(matrix_verdict.judge([self._cell()], order), ("broken", ["order"]))
        self.assertEqual(matrix_verdict.judge([self._cell(status="n/a")], None), ("na", []))
        self.assertEqual(matrix_verdict.judge([self._cell(), self._cell(status="NonFinite")], None),
                         ("failed", ["NonFinite"]))

    def test_the_report_writes_the_page_and_links_it(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_synthetic_results(results)
            manifest = read_manifest(results)
            manifest["kind"] = "matrix"
            write_manifest(results, manifest)
            name = manifest["experiments"][0]["name"]
            cases = [self._cell(experiment=name, case_id="k"),
                     self._cell(experiment=name, case_id="n", status="n/a", integrator="rkmk4",
                                status_detail="n/a: m has no LieGroupOde view")]
            _write_csv(results / "cases.csv", CASE_COLUMNS + list(matrix_verdict.PROMISE_COLUMNS),
                       cases)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            page = (report / "synthetic-matrix.html").read_text(encoding="utf-8")
            self.assertIn('class="kept"', page)
            self.assertIn("n/a: m has no LieGroupOde view", page)
            for linking in ("index.html", "synthetic.html"):
                self.assertIn('href="synthetic-matrix.html"',
                              (report / linking).read_text(encoding="utf-8"))


class _HeatMapCells(HTMLParser):
    """The heat map's headers and cells, as a reader sees them: text and title."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.current: tuple[str, str] | None = None  # the class and title being read
        self.text = ""
        self.found: dict[str, list[tuple[str, str, str]]] = {}  # class -> (class, text, title)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "table" and values.get("id") == "heatmap":
            self.inside = True
        elif self.inside and tag in ("td", "th"):
            self.current, self.text = (values.get("class") or "", values.get("title") or ""), ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag in ("td", "th") and self.current:
            css, title = self.current
            kind = "cell" if css.startswith("c ") else css
            self.found.setdefault(kind, []).append((css, self.text, title))
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.current:
            self.text += data


def heat_map_of(page: str) -> dict[str, list[tuple[str, str, str]]]:
    parser = _HeatMapCells()
    parser.feed(page)
    return parser.found


def write_matrix_results(path: Path, models: tuple[str, str] = ("spherical_pendulum",
                                                                 "free_rigid_body")) -> None:
    """A matrix of two models on different manifolds and three integrators of three families:
    vi_implicit kept on the first and n/a on the second, rkmk4 off its order on the first and
    failed on the second, rk4 kept on both."""
    (path / "series").mkdir(parents=True)
    experiments = [{"name": f"m{k}", "model": model, "preset": "p", "T": 1.0,
                    "plots": ["convergence"]} for k, model in enumerate(models)]
    manifest = {"study": "grid", "kind": "matrix", "title": "A matrix",
                "experiments": experiments}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    promises = {"symplectic": 0, "stays_on_manifold": 0, "momentum_rel_err_max": "",
                "energy_rel_err_max": 1e-6, "manifold_defect_max": 1e-9}
    cases = []
    for k, model in enumerate(models):
        for h in (0.1, 0.05, 0.025):
            cases.append(_case(f"m{k}", "rk4", f"rk4-{k}-{h}", h=h, model=model,
                               family="classical", nominal_order=4, global_err=h ** 4,
                               **promises))
            cases.append(_case(f"m{k}", "rkmk4", f"rkmk4-{k}-{h}", h=h, model=model,
                               nominal_order=4, global_err=h ** 2.5, **promises,
                               **({"status": "NonFinite", "fail_time": 0.5} if k else {})))
            cases.append(_case(f"m{k}", "vi_implicit", f"vi-{k}-{h}", h=h, model=model,
                               family="variational",
                               **{**promises, **({"status": "n/a", "status_detail":
                                                  "n/a: free_rigid_body has no "
                                                  "SphereLagrangian view"}
                                                 if k else {"symplectic": 1,
                                                            "stays_on_manifold": 1,
                                                            "manifold_defect_max": 1e-15,
                                                            "energy_rel_err_max": 1e-7})}))
    _write_csv(path / "cases.csv", CASE_COLUMNS + list(matrix_verdict.PROMISE_COLUMNS), cases)
    _write_csv(path / "orders.csv", ORDER_COLUMNS, [
        {"study": "grid", "experiment": "m0", "model": models[0], "integrator": integrator,
         "nominal_order": nominal, "fitted_order": fitted, "residual": 1e-3, "points_used": 3,
         "points_total": 3, "abscissa": "h"}
        for integrator, nominal, fitted in (("rk4", 4, 4.02), ("rkmk4", 4, 2.5),
                                            ("vi_implicit", 2, 2.0))])


class HeatMapTest(unittest.TestCase):
    """The matrix page's heat map and the verdict index.html draws from the matrix."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        write_matrix_results(root / "results")
        cls.report = root / "report"
        cls.status, cls.stdout, cls.stderr = _run_capturing(str(root / "results"), "--out",
                                                            str(cls.report))
        cls.page = (cls.report / "grid-matrix.html").read_text(encoding="utf-8")
        cls.found = heat_map_of(cls.page)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_one_line_on_stdout_names_the_index(self) -> None:
        self.assertEqual(self.status, 0, self.stderr)
        self.assertEqual(self.stdout, f"report: {self.report / 'index.html'}\n")

    def test_a_standard_output_that_cannot_be_written_is_status_4(self) -> None:
        class Full(io.StringIO):
            def write(self, text: str) -> int:
                raise OSError(28, "No space left on device")

        stderr = io.StringIO()
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_matrix_results(results)
            with contextlib.redirect_stdout(Full()), contextlib.redirect_stderr(stderr):
                status = make_report.main([str(results), "--out", str(report)])
        self.assertEqual(status, 4)
        self.assertEqual(stderr.getvalue(),
                         "report: cannot write to standard output: No space left on device\n")

    def test_rows_grouped_by_manifold_and_columns_by_family(self) -> None:
        self.assertEqual([text for _, text, _ in self.found["manifold"]], ["(S²)ⁿ", "so(3)*"])
        # Geometric families first, the peers last, whatever order cases.csv names them in.
        self.assertEqual([text for _, text, _ in self.found["family"]],
                         ["variational", "Lie group", "classical (peers)"])
        self.assertEqual([text for _, text, _ in self.found["integrator"]],
                         ["vi_implicit", "rkmk4", "rk4"])

    def test_each_cell_shows_its_verdict_and_fitted_order(self) -> None:
        cells = [(css, text) for css, text, _ in self.found["cell"]]
        self.assertEqual(cells, [("c kept", "✓2.0"), ("c broken", "✗2.5"), ("c kept", "✓4.0"),
                                 ("c na", "–"), ("c failed", "!"), ("c kept", "✓")])

    def test_a_cells_title_holds_its_numbers(self) -> None:
        titles = [title for _, _, title in self.found["cell"]]
        self.assertTrue(titles[1].startswith("spherical_pendulum × rkmk4 (Lie group): broke: "
                                             "order\np = 2.50 (4.00)\n"), titles[1])
        self.assertIn("h=0.025: ok, global error 9.882e-05, 1.230e-02 s", titles[1])
        self.assertIn("n/a: free_rigid_body has no SphereLagrangian view", titles[3])
        self.assertIn("3 failed: NonFinite", titles[4])

    def test_a_rows_header_links_its_section_and_figures(self) -> None:
        self.assertIn('<a href="grid.html#grid-m0" title="its cases and figures on the '
                      'study&#x27;s page">spherical_pendulum</a>', self.page)
        self.assertIn('<a href="figures/grid/m0-convergence.png">convergence</a>', self.page)
        self.assertTrue((self.report / "figures/grid/m0-convergence.png").is_file())
        self.assertIn('id="grid-m0"', (self.report / "grid.html").read_text(encoding="utf-8"))

    def test_the_legend_counts_each_verdict(self) -> None:
        self.assertIn("kept every promise that applies (3)", self.page)
        self.assertIn("broke a promise (named in the cell&#x27;s details) (1)", self.page)

    def test_the_index_names_the_promises_broken(self) -> None:
        index = (self.report / "index.html").read_text(encoding="utf-8")
        self.assertIn("<li><b>spherical_pendulum</b>: rkmk4 (order)</li>", index)
        self.assertIn("15 cases run, 3 failed, 3 n/a or skipped.", index)
        self.assertIn('<a href="grid-matrix.html">the matrix page</a>', index)
        self.assertNotIn("<h3>Cases</h3>", index)  # the cases are on the study's page

    def test_an_unknown_model_is_refused_by_name(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_matrix_results(Path(tmp) / "results", ("spherical_pendulum", "mystery"))
            status, stderr = _run(str(Path(tmp) / "results"), "--out", str(Path(tmp) / "r"))
        self.assertEqual(status, 2)
        self.assertIn("model 'mystery' is not in reports/manifolds.py's table", stderr)

    def test_every_registered_model_has_a_manifold(self) -> None:
        registry = Path(__file__).resolve().parent.parent / "models" / "registry.txt"
        models = {line.split()[0] for line in registry.read_text(encoding="utf-8").splitlines()
                  if line.strip() and not line.startswith("#")}
        self.assertEqual(set(manifolds.MODEL_MANIFOLDS), models)


class IndexTest(unittest.TestCase):
    """index.html: the verdict of each study; the rest on the study's page."""

    def test_a_deviating_order_is_named_and_linked(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_synthetic_results(results)
            with (results / "orders.csv").open(newline="", encoding="utf-8") as file:
                orders = list(csv.DictReader(file))
            orders[0]["fitted_order"] = 3.5
            _write_csv(results / "orders.csv", ORDER_COLUMNS, orders)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            index = (report / "index.html").read_text(encoding="utf-8")
            study = (report / "synthetic.html").read_text(encoding="utf-8")
        self.assertIn('<a href="synthetic.html#synthetic-conv">conv</a>: rk4 fitted 3.50 '
                      "(nominal 4)</li>", index)
        self.assertIn('id="synthetic-conv"', study)
        self.assertIn("<td>1 of 2 out of band</td>", index)
        self.assertIn("reproducing setting", index)  # the reproduction table
        self.assertNotIn("Fitted orders", index)
        self.assertIn("Fitted orders", study)
        self.assertIn('<a href="index.html">', study)  # the way back

    def test_a_study_named_index_gets_a_page_of_its_own(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_synthetic_results(results)
            manifest = read_manifest(results)
            manifest["study"] = "index"
            write_manifest(results, manifest)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            self.assertIn("At a glance", (report / "index.html").read_text(encoding="utf-8"))
            self.assertTrue((report / "index-2.html").is_file())


class PeerStyleTest(unittest.TestCase):
    """Convergence figures: fitted slopes written on the plot; peers apart from the geometric
    integrators."""

    def test_slopes_are_written_and_peers_drawn_in_grey(self) -> None:
        cases = [_case("conv", integrator, f"{integrator}-{h}", h=h, global_err=c * h ** p,
                       nominal_order=p, family=family)
                 for integrator, family, c, p in (("rk4", "classical", 2.0, 4),
                                                  ("rkmk2", "lie_group", 0.5, 2))
                 for h in STEPS]
        orders = [{"integrator": i, "nominal_order": p, "fitted_order": p + 0.01,
                   "abscissa": "h"} for i, p in (("rk4", 4), ("rkmk2", 2))]
        fig, _ = convergence_figure("conv", None, cases, orders)
        ax = fig.axes[0]
        labels = {text.get_text(): text.get_color() for text in ax.texts}
        self.assertEqual(set(labels), {"p=4.01", "p=2.01"})
        fitted = {line.get_linestyle(): line.get_color() for line in ax.lines
                  if len(line.get_xdata()) == 2 and line.get_linestyle() in ("-", "-.")}
        self.assertEqual(fitted["-."], labels["p=4.01"])  # rk4, a peer: dash-dot, its grey
        self.assertEqual(to_hex(fitted["-."]), "#000000")
        self.assertNotEqual(to_hex(fitted["-"]), to_hex(fitted["-."]))
        legend = ax.get_legend().get_texts()
        self.assertEqual([t.get_text() for t in legend[:4]],
                         ["geometric integrators:", "rkmk2: fitted p=2.01 (nominal 2)",
                          "peers (classical, reference solvers):",
                          "rk4: fitted p=4.01 (nominal 4)"])
        self.assertEqual([t.get_fontweight() for t in legend[:4]],
                         ["bold", "normal", "bold", "normal"])
        plt.close(fig)


def write_sweep_results(path: Path) -> None:
    """The synthetic results plus a parameter sweep (N = 5, 2, 10) with a study-level figure, and
    a work-precision plot on the convergence experiment."""
    write_synthetic_results(path)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    manifest["experiments"][0]["plots"].append("work_precision")
    cases = []
    with (path / "cases.csv").open(newline="", encoding="utf-8") as file:
        cases = list(csv.DictReader(file))
    for n in (5, 2, 10):
        name = f"sweep-celledoni2021_N{n}"
        manifest["experiments"].append({"name": name, "title": f"Sweep N = {n}",
                                        "parameters": {"N": n, "L": 1.0}, "plots": []})
        cases.append(_case(name, "rkmk54", f"a{n}", rtol=1e-6, atol=1e-9, global_err=1e-6 * n,
                           steps=10 * n))
        # A fixed-step method with its own h in each experiment (same_steps_as).
        cases.append(_case(name, "rkmk5", f"f{n}", h=3.0 / (10 * n), global_err=2e-6 * n))
    cases.append(_case("sweep-celledoni2021_N10", "rkmk4", "x10", h=0.1, status="NonFinite",
                       global_err="nan", fail_time=1.5))
    manifest["figures"] = [
        {"name": "accuracy", "title": "Accuracy at T against N", "kind": "metric_vs_parameter",
         "parameter": "N", "metric": "global_err",
         "experiments": [f"sweep-celledoni2021_N{n}" for n in (5, 2, 10)]},
        {"name": "odd", "title": "A kind nobody knows", "kind": "pie_chart"}]
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    _write_csv(path / "cases.csv", CASE_COLUMNS, cases)


class StudyFigureTest(unittest.TestCase):
    """Study-level metric_vs_parameter figures and the work_precision plot kind."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.results = root / "results"
        write_sweep_results(cls.results)
        cls.report = root / "report"
        cls.status, cls.stderr = _run(str(cls.results), "--out", str(cls.report))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_figures_exist(self) -> None:
        self.assertEqual(self.status, 0, self.stderr)
        for stem in ("conv-work_precision", "study-accuracy"):
            for suffix in ("png", "svg"):
                path = self.report / "figures" / "synthetic" / f"{stem}.{suffix}"
                self.assertTrue(path.is_file(), path)

    def test_lines_follow_the_parameter_across_experiments(self) -> None:
        study = load_study(self.results)
        lines, notes, footnotes = metric_vs_parameter_lines(study, study.figures()[0])
        self.assertEqual(footnotes, [])  # errors, not times: nothing to mark
        self.assertEqual(lines["rkmk54 rtol=1e-06 atol=1e-09"], [(float(n), 1e-6 * n) for n in (2, 5, 10)])
        # rkmk5's h differs in every experiment, yet it is one line.
        self.assertEqual(lines["rkmk5 (its own h for each N)"],
                         [(float(n), 2e-6 * n) for n in (2, 5, 10)])
        self.assertEqual(len(lines), 2)
        self.assertTrue(any("NonFinite" in note for note in notes), notes)

    def test_page_and_summary_show_the_numbers(self) -> None:
        page = (self.report / "synthetic.html").read_text(encoding="utf-8")
        summary = (self.report / "summary.md").read_text(encoding="utf-8")
        self.assertIn("Across experiments", page)
        self.assertIn("Accuracy at T against N", page)
        self.assertIn("Unknown figure kind &#x27;pie_chart&#x27;.", page)
        self.assertIn("| global_err at N = | 2 | 5 | 10 |", summary)
        self.assertIn("| rkmk5 (its own h for each N) | 4.000e-06 | 1.000e-05 | 2.000e-05 |",
                      summary)

    def test_missing_parameter_is_a_note(self) -> None:
        study = load_study(self.results)
        spec = dict(study.figures()[0], parameter="M")
        lines, notes, _ = metric_vs_parameter_lines(study, spec)
        self.assertEqual(lines, {})
        self.assertIn("Experiment sweep-celledoni2021_N5 records no parameter 'M'.", notes)

    def test_malformed_figures_are_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            write_synthetic_results(results)
            manifest = read_manifest(results)
            manifest["figures"] = [{"title": "no name"}]
            write_manifest(results, manifest)
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
        self.assertNotEqual(status, 0)
        self.assertIn("'figures' must be a list of objects with a 'name' and a 'kind'", stderr)


DEBIAN = {"version": "6.4.1", "build": "debian (unoptimised)", "optimised": False}
OPTIMISED = {"version": "6.4.1", "build": "source -O3 (/x/build/sundials-O3)", "optimised": True}


class UnoptimisedSundialsTest(unittest.TestCase):
    """CPU times of CVODE and ARKODE cases carry a dagger and one footnote wherever the report
    shows them, when the manifest says SUNDIALS was built without optimisation."""

    def test_which_manifests_mark(self) -> None:
        self.assertIsNotNone(timing_mark({"sundials": DEBIAN}).footnote)
        self.assertIsNone(timing_mark({"sundials": OPTIMISED}).footnote)
        # Written before "optimised" existed, when Debian's package was the only build.
        self.assertIsNotNone(timing_mark({"sundials": {"build": "debian"}}).footnote)
        self.assertIsNone(timing_mark({}).footnote)
        odd = timing_mark({"sundials": {"build": "libsundials_cvode loaded from /opt",
                                        "optimised": False}}).footnote
        self.assertIn("not optimised (libsundials_cvode loaded from /opt)", odd or "")

    def test_only_sundials_solvers_are_marked(self) -> None:
        mark = timing_mark({"sundials": DEBIAN})
        self.assertEqual([mark.of(i) for i in ("cvode_bdf", "arkode_erk_proj", "rk4",
                                               "odeint_dopri5")], ["†", "†", "", ""])
        self.assertEqual(mark.footnotes(["rk4", "cvode_bdf", "cvode_adams"]), [mark.footnote])
        self.assertEqual(mark.footnotes(["rk4"]), [])
        self.assertTrue(mark.footnote.startswith("† SUNDIALS from Debian's package, built "
                                                 "without optimisation"), mark.footnote)
        self.assertEqual(TimingMark(None).of("cvode_bdf"), "")

    def _report(self, sundials: dict) -> tuple[str, str]:
        """The study's page and the matrix page of the synthetic results (a cvode_bdf case among
        them) with this manifest "sundials"."""
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_synthetic_results(results)
            manifest = read_manifest(results)
            manifest.update(kind="matrix", sundials=sundials)
            write_manifest(results, manifest)
            with (results / "cases.csv").open(newline="", encoding="utf-8") as file:
                cases = list(csv.DictReader(file))
            _write_csv(results / "cases.csv", CASE_COLUMNS + list(matrix_verdict.PROMISE_COLUMNS),
                       cases)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            return ((report / "synthetic.html").read_text(encoding="utf-8"),
                    (report / "synthetic-matrix.html").read_text(encoding="utf-8"))

    def test_cases_table_and_matrix_cost(self) -> None:
        page, matrix = self._report(DEBIAN)
        self.assertIn("<dd>6.4.1, debian (unoptimised)</dd>", page)
        footnote = timing_mark({"sundials": DEBIAN}).footnote
        self.assertEqual(page.count("1.230e-02†"), 1)  # the cvode_bdf case only
        self.assertEqual(page.count(escape(footnote)), 1)
        self.assertIn("1.230e-02 s†, 400 evals", matrix)
        self.assertIn("1.230e-02 s, 400 evals", matrix)  # rk4's cell
        self.assertEqual(matrix.count(escape(footnote)), 1)
        page, matrix = self._report(OPTIMISED)
        self.assertNotIn("†", page + matrix)

    def test_work_precision_legend(self) -> None:
        cases = [_case("wp", integrator, f"{integrator}-{rtol}", rtol=rtol,
                       global_err=rtol, cpu_s=1e-3 / rtol ** 0.2, family=family)
                 for integrator, family in (("cvode_bdf", "reference"), ("rkmk54", "lie_group"))
                 for rtol in (1e-4, 1e-6)]
        geometric, peers = "geometric integrators:", "peers (classical, reference solvers):"
        for sundials, labels, notes in (
                (DEBIAN, [geometric, "rkmk54", peers, "cvode_bdf†",
                          "† CPU time of an unoptimised SUNDIALS"],
                 [timing_mark({"sundials": DEBIAN}).footnote]),
                (OPTIMISED, [geometric, "rkmk54", peers, "cvode_bdf"], [])):
            fig, drawn_notes = work_precision_figure("wp", cases,
                                                     timing_mark({"sundials": sundials}))
            legend = [t.get_text() for ax in fig.axes if ax.get_legend()
                      for t in ax.get_legend().get_texts()]
            plt.close(fig)
            self.assertEqual(legend, labels)
            self.assertEqual(drawn_notes, notes)

    def test_cpu_time_against_a_parameter(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_sweep_results(Path(tmp) / "results")
            study = load_study(Path(tmp) / "results")
        study.cases.append(_case("sweep-celledoni2021_N5", "cvode_bdf", "b5", h=None,
                                 rtol=1e-8, atol=1e-10, cpu_s=0.5))
        spec = dict(study.figures()[0], metric="cpu_s")
        lines, _, footnotes = metric_vs_parameter_lines(study, spec)
        self.assertEqual(lines["cvode_bdf rtol=1e-08 atol=1e-10†"], [(5.0, 0.5)])
        self.assertIn("rkmk54 rtol=1e-06 atol=1e-09", lines)
        self.assertEqual(footnotes, [timing_mark(study.manifest).footnote])


if __name__ == "__main__":
    unittest.main()
