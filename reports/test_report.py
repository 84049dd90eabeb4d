"""Tests of the report generator on a small synthetic result directory.

Run from this directory: /usr/bin/python3 -B -m unittest -v test_report
Everything is written into temporary directories, never into the source tree.
"""
from __future__ import annotations

import contextlib
import csv
import io
import itertools
import json
import math
import re
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
import long_time
import long_time_figures
import long_time_page
import make_report
import matrix_verdict
import sphere_mesh
from figures import (FLOOR, FLOOR_NOTE, UNRELIABLE_NOTE, convergence_figure, fit_intercept,
                     formation_figure, metric_vs_parameter_lines, outputs_figure,
                     work_precision_figure)
from formatting import TimingMark, fmt_count, fmt_float, fmt_order, timing_mark
from integrator_style import HUES, Styles
from results import load_study, read_csv, read_long_time
from trajectory_figures import components_figure, paths_figure

CASE_COLUMNS = [
    "study", "model", "integrator", "h", "rtol", "atol", "T", "status", "steps", "rejected",
    "f_evals", "cpu_s", "global_err", "energy_err_max", "energy_err_mean",
    "energy_drift_per_time", "momentum_err_max", "manifold_err_max", "tangency_err_max",
    "experiment", "case_id", "preset", "family", "nominal_order", "mean_step",
    "unit_length_err_mean", "energy_rel_err_max", "nonlinear_iterations", "exponentials",
    "output_points", "fail_time", "status_detail", "reference_err", "below_reference"]
ORDER_COLUMNS = ["study", "experiment", "model", "integrator", "nominal_order", "fitted_order",
                 "residual", "points_used", "points_total", "abscissa", "note", "local_slopes",
                 "window_largest", "window_smallest", "window_first", "fit_deviation", "correlation",
                 "slope_vs_mean_step", "added_steps"]
REPRODUCTION_COLUMNS = ["study", "experiment", "example", "method", "setting", "role",
                        "metric", "published", "ours", "ratio", "case_id", "note", "round_off",
                        "in_band"]
VERDICT_COLUMNS = ["study", "experiment", "model", "integrator", "family", "promise", "state",
                   "why", "value", "bound", "relation", "reason"]
CLAIM_COLUMNS = ["study", "experiment", "claim", "where", "metric", "integrators", "relation",
                 "bound", "measured", "state", "reason"]
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


def _verdict(experiment: str, integrator: str, promise: str, state: str, why: str = "",
             **values: object) -> dict:
    """A row of verdicts.csv (docs/result-files.md)."""
    row = {"study": "synthetic", "experiment": experiment, "model": "spherical_pendulum",
           "integrator": integrator, "family": "lie_group", "promise": promise, "state": state,
           "why": why, "value": "", "bound": "", "relation": "", "reason": ""}
    row.update(values)
    return row


def _order_verdict(experiment: str, integrator: str, nominal: float, fitted: float,
                   **values: object) -> dict:
    """An order kept at its nominal value (state and why may be overridden)."""
    row = {"state": "kept", "why": "nominal", "value": fitted, "bound": nominal - 0.2,
           "relation": ">=", "reason": f"fitted {fitted:.2f} over h = 0.1 .. 0.0125"}
    row.update(values)
    return _verdict(experiment, integrator, "order", **row)


def _write_verdicts(path: Path, rows: list[dict]) -> None:
    _write_csv(path / "verdicts.csv", VERDICT_COLUMNS, rows)


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
         "points_used": 4, "points_total": 5 if integrator == "rk4" else 4, "abscissa": "h",
         "local_slopes": f"{p};{p};{p}", "window_largest": 0.1, "window_smallest": 0.0125,
         "window_first": 0,
         "fit_deviation": 0, "correlation": 1, "added_steps": 0}
        for integrator, (_, p) in CONVERGENCE.items()])
    _write_verdicts(path, [_order_verdict("conv", integrator, p, p)
                           for integrator, (_, p) in CONVERGENCE.items()]
                    + [_order_verdict("long", "rattle", 2, 0, state="not_checked",
                                      why="no_reference", value="", reason="the experiment has "
                                      "no reference to measure the global error against"),
                       _verdict("long", "rattle", "manifold", "kept", value=1e-15, bound=1e-12,
                                relation="<=", reason="the largest manifold defect 1e-15 <= "
                                "1e-12")])
    _write_csv(path / "reproduction.csv", REPRODUCTION_COLUMNS, [
        {"study": "synthetic", "experiment": "long", "example": "Ex. 1", "method": "rattle",
         "setting": "h=0.01", "role": "printed", "metric": "energy_err_mean",
         "published": 5e-7, "ours": 5.1e-7, "ratio": 1.02, "case_id": "rattle-long",
         "round_off": 0, "in_band": 1},
        {"study": "synthetic", "experiment": "long", "example": "Ex. 2", "method": "rattle",
         "setting": "h=0.02", "role": "printed", "metric": "energy_err_mean",
         "published": 1e-6, "ours": 1.6e-6, "ratio": 1.6, "case_id": "rattle-long",
         "round_off": 0, "in_band": 0},
        {"study": "synthetic", "experiment": "long", "example": "Ex. 2", "method": "rattle",
         "setting": "h=0.02", "role": "printed", "metric": "unit_length_err_mean",
         "published": 1e-16, "ours": 4e-16, "ratio": 4.0, "case_id": "rattle-long",
         "round_off": 1, "in_band": ""},
        {"study": "synthetic", "experiment": "long", "example": "Ex. 2", "method": "rattle",
         "setting": "h=0.005", "role": "reproducing", "metric": "energy_err_mean",
         "published": 1e-6, "ours": 0.98e-6, "ratio": 0.98, "case_id": "rattle-long",
         "note": "the printed h does not reproduce Fig. 3", "round_off": 0, "in_band": 1},
        {"study": "synthetic", "experiment": "long", "example": "Ex. 3", "method": "rattle",
         "setting": "h=0.004", "role": "reproducing", "metric": "energy_err_mean",
         "published": 1e-6, "ours": 3e-6, "ratio": 3.0, "case_id": "rattle-long",
         "note": "meant to reproduce Fig. 4", "round_off": 0, "in_band": 0}])


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

    def test_summary_has_verdicts_reproduction_and_orders(self) -> None:
        summary = (self.report / "summary.md").read_text(encoding="utf-8")
        self.assertIn("Verdicts (verdicts.csv): ✓ 3 kept, ✗ 0 broken, ? 1 not checked, "
                      "≈ 0 explained.", summary)
        self.assertIn("| example | method | setting | role | metric | published | ours | "
                      "ratio | band | note |", summary)
        self.assertIn("Band: printed: 1 of 2 out of band; reproducing: 1 of 2 out of band; "
                      "1 at round-off level (not counted).", summary)
        self.assertIn("| **1.600e+00** | **out of band** |", summary)
        self.assertIn("| 4.000e+00 | round-off level |", summary)
        self.assertIn("| **3.000e+00** | **reproducing setting, out of band** |", summary)
        self.assertIn("reproducing (reproducing setting)", summary)
        self.assertIn("| 1.020e+00 | in band |", summary)
        self.assertIn("| conv | rk4 | 4 | 4.00 |  | h = 0.1 .. 0.0125 | 4/5 |", summary)

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
    _write_verdicts(path, [])
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
        _write_verdicts(path, [])
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
        _write_verdicts(path, [])
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
        self.assertEqual([ax.get_ylabel() for ax in fig.axes],
                         ["|load error| [model units]", "|link error| [model units]"])
        y = fig.axes[1].lines[0].get_ydata()
        self.assertTrue(math.isnan(y[3]))
        self.assertEqual(y[5], FLOOR)  # an exact 0
        self.assertAlmostEqual(y[10], 0.25)  # |-t|
        self.assertTrue(notes[0].startswith("|output| against t"), notes)
        self.assertEqual(sum(note.startswith("No outputs file") for note in notes), 4, notes)
        self.assertIn(FLOOR_NOTE, notes)
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


class TrajectoryFiguresTest(unittest.TestCase):
    """The components plot (chosen columns against t, a zoom window beside each) and the paths
    plot (a configuration's chain at the path times, or S^2 blocks on the unit sphere)."""

    def _results(self, path: Path, paths_kind: str = "configuration") -> None:
        (path / "series").mkdir(parents=True)
        experiment = {"name": "e", "title": "Chain", "model": "pendulum_chain",
                      "preset": "celledoni2021_N2", "T": 1.0, "plots": ["components", "paths"],
                      "components": ["w1_y", "energy"], "zoom": [0.5, 0.75],
                      "paths": paths_kind, "path_times": [0.0, 1.0]}
        (path / "manifest.json").write_text(json.dumps({"study": "ch", "title": "Ch",
                                                        "experiments": [experiment]}),
                                            encoding="utf-8")
        _write_csv(path / "cases.csv", CASE_COLUMNS, [
            _case("e", "rk4", "coarse", h=0.02, model="pendulum_chain"),
            _case("e", "rk4", "fine", h=0.01, model="pendulum_chain"),
            _case("e", "rkmk4", "lie", h=0.01, model="pendulum_chain", family="lie_group"),
            _case("e", "rk2", "none", h=0.01, model="pendulum_chain")])
        _write_csv(path / "orders.csv", ORDER_COLUMNS, [])
        _write_verdicts(path, [])
        t = np.linspace(0.0, 1.0, 41)
        for case, scale in (("coarse", 1.0), ("fine", 2.0), ("lie", 3.0)):
            _write_csv(path / "series" / f"{case}-components.csv", ["t", "w1_y", "energy"],
                       [{"t": x, "w1_y": scale * x, "energy": 5.0} for x in t])
            # The support at the origin, point1 at (x, 0, -1), point2 at (x, 0, -2) * scale.
            header = ["t"] + [f"{n}_{a}" for n in ("support", "point1", "point2") for a in "xyz"]
            _write_csv(path / "series" / f"{case}-paths.csv", header,
                       [dict(zip(header, (x, 0, 0, 0, x, 0, -1, scale * x, 0, -2))) for x in t])

    def test_each_component_has_its_panel_and_its_zoom(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results)
            study = load_study(results)
            fig, notes = components_figure("Chain", study.experiments()[0],
                                           study.cases_of("e"), study)
        self.assertEqual([ax.get_ylabel() for ax in fig.axes],
                         ["w1_y [model units]", "w1_y (zoom) [model units]",
                          "energy [model units]", "energy (zoom) [model units]"])
        full, zoom = fig.axes[0], fig.axes[1]
        self.assertEqual(len(full.lines), 3)  # three cases with a file, one line each
        self.assertEqual(zoom.get_xlim(), (0.5, 0.75))
        inside = zoom.lines[0].get_xdata()
        self.assertTrue(((inside >= 0.5) & (inside <= 0.75)).all())
        self.assertIn("No components file for rk2 h=0.01 (none).", notes)
        self.assertTrue(notes[0].startswith("Each component at the first output point"), notes)
        plt.close(fig)

    def test_the_chain_is_drawn_at_each_path_time_once_per_integrator(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results)
            study = load_study(results)
            fig, notes = paths_figure("Chain", study.experiments()[0], study.cases_of("e"),
                                      study)
        self.assertEqual([ax.get_title() for ax in fig.axes], ["rk4 h=0.01", "rkmk4 h=0.01"])
        chains = [line for line in fig.axes[0].lines if line.get_linewidth() == 2.5]
        drawn = [np.round(np.array(line.get_data_3d()).T, 12).tolist() for line in chains]
        self.assertEqual(drawn, [[[0, 0, 0], [0, 0, -1], [0, 0, -2]],
                                 [[0, 0, 0], [1, 0, -1], [2, 0, -2]]])  # fine: scale 2
        self.assertTrue(notes[0].startswith("Per integrator, its case of smallest h"), notes)
        plt.close(fig)

    def test_sphere_paths_draw_the_unit_sphere(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results, paths_kind="sphere")
            study = load_study(results)
            fig, notes = paths_figure("Chain", study.experiments()[0], study.cases_of("e"),
                                      study)
        self.assertEqual(len(fig.axes[0].collections) - 3, 1)  # the wireframe; 3 start dots
        self.assertFalse([line for line in fig.axes[0].lines if line.get_linewidth() == 2.5])
        self.assertIn("S^2 blocks on the unit sphere", notes[0])
        plt.close(fig)

    def test_a_components_header_with_a_column_twice_is_refused(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            self._results(results)
            _write_csv(results / "series" / "lie-components.csv", ["t", "w1_y", "w1_y"],
                       [{"t": 0.0, "w1_y": 1.0}])
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
        self.assertNotEqual(status, 0)
        self.assertIn("lie-components.csv: the header is not t, then one named column per "
                      "component", stderr)


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
    _write_verdicts(path, [])
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
    """The integrator x model matrix page: a cell's state combined from its verdict rows, never
    judged again in Python."""

    @staticmethod
    def _rows(*states: tuple[str, str]) -> list[dict]:
        return [_verdict("m", "vi_implicit", f"p{k}", state, why)
                for k, (state, why) in enumerate(states)]

    def test_a_cell_is_broken_then_not_checked_then_explained_then_kept(self) -> None:
        kept, above = ("kept", "nominal"), ("kept", "from_above")
        broken, explained = ("broken", "below_nominal"), ("explained", "")
        unchecked, na = ("not_checked", "no_window"), ("not_checked", "n/a")
        for rows, state in (((kept, above), "kept"), ((kept, explained), "explained"),
                            ((explained, unchecked), "not_checked"),
                            ((unchecked, broken, explained), "broken"), ((na, na), "na"),
                            ((na, kept), "not_checked"), ((), "not_checked")):
            self.assertEqual(matrix_verdict.cell_state(self._rows(*rows)), state, rows)

    def test_a_cell_without_promises_that_ran_is_no_promise_not_not_checked(self) -> None:
        """A long run of a method that promises nothing there (RK4's energy): measured and shown,
        nothing judged; a pair with no row and no finished case stays not checked."""
        def cell(*statuses: str) -> matrix_verdict.Cell:
            cases = [_case("e", "rk4", f"c{k}", status=s) for k, s in enumerate(statuses)]
            return matrix_verdict.Cell({"name": "e"}, "rk4", cases, None, [])
        self.assertEqual(cell("ok").state, "no_promise")
        self.assertEqual(cell("NonFinite", "ok").state, "no_promise")
        self.assertEqual(cell("NonFinite").state, "not_checked")
        self.assertEqual(cell().state, "not_checked")
        with_rows = matrix_verdict.Cell({"name": "e"}, "rk4", [_case("e", "rk4", "c")], None,
                                        self._rows(("kept", "nominal")))
        self.assertEqual(with_rows.state, "kept")

    def test_no_python_threshold_is_left(self) -> None:
        """The bounds are verdicts.csv's: the module holds no tolerance of its own."""
        for name in ("MANIFOLD_TOLERANCE", "MOMENTUM_TOLERANCE", "ENERGY_BOUND", "PROMISES",
                     "judge"):
            self.assertFalse(hasattr(matrix_verdict, name), name)

    def test_the_report_writes_the_page_and_links_it(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_synthetic_results(results)
            manifest = read_manifest(results)
            manifest["kind"] = "matrix"
            write_manifest(results, manifest)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            page = (report / "synthetic-matrix.html").read_text(encoding="utf-8")
            self.assertIn('class="c v-kept"', page)
            self.assertNotIn("Every cell in detail", page)
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


def legend_of(page: str) -> dict[str, tuple[int, int, str]]:
    """The heat map legend's items: state -> (promises, cells, the item's text)."""
    found = {}
    for state, promises, cells, inner in re.findall(
            r'<li data-state="([a-z_]+)" data-promises="(\d+)" data-cells="(\d+)">(.*?)</li>',
            page[page.index('<ul class="legend">'):]):
        found[state] = (int(promises), int(cells), re.sub(r"<[^>]+>", "", inner))
    return found


MATRIX_NA = "n/a: free_rigid_body has no SphereLagrangian view"


# The state spaces geomint records for the fixtures' models (studies/study_manifest.cpp).
STATE_SPACES = {"spherical_pendulum": {"signature": "(TS2)^n", "block_manifolds": ["S2", "T_qS2"]},
                "free_rigid_body": {"signature": "so3*", "block_manifolds": ["so3*"]}}


def write_matrix_results(path: Path, models: tuple[str, str] = ("spherical_pendulum",
                                                                 "free_rigid_body"),
                         described: tuple[str, ...] | None = None) -> None:
    """A matrix of two models on different manifolds and three integrators of three families,
    whose verdicts are: vi_implicit kept on the first and n/a on the second; rkmk4 below its
    order on the first (broken) and failed on the second (not checked); rk4 kept on the first
    and explained on the second."""
    (path / "series").mkdir(parents=True)
    experiments = [{"name": f"m{k}", "model": model, "preset": "p", "T": 1.0,
                    "plots": ["convergence"]} for k, model in enumerate(models)]
    for experiment in experiments:
        if experiment["model"] in (models if described is None else described):
            experiment["state_space"] = STATE_SPACES[experiment["model"]]
    manifest = {"study": "grid", "kind": "matrix", "title": "A matrix",
                "experiments": experiments}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    cases = []
    for k, model in enumerate(models):
        for h in (0.1, 0.05, 0.025):
            cases.append(_case(f"m{k}", "rk4", f"rk4-{k}-{h}", h=h, model=model,
                               family="classical", nominal_order=4, global_err=h ** 4))
            cases.append(_case(f"m{k}", "rkmk4", f"rkmk4-{k}-{h}", h=h, model=model,
                               nominal_order=4, global_err=h ** 2.5,
                               **({"status": "NonFinite", "fail_time": 0.5} if k else {})))
            cases.append(_case(f"m{k}", "vi_implicit", f"vi-{k}-{h}", h=h, model=model,
                               family="variational",
                               **({"status": "n/a", "status_detail": MATRIX_NA} if k else {})))
    _write_csv(path / "cases.csv", CASE_COLUMNS, cases)
    _write_csv(path / "orders.csv", ORDER_COLUMNS, [
        {"study": "grid", "experiment": "m0", "model": models[0], "integrator": integrator,
         "nominal_order": nominal, "fitted_order": fitted, "residual": 1e-3, "points_used": 3,
         "points_total": 3, "abscissa": "h", "local_slopes": f"{fitted};{fitted}",
         "window_largest": 0.1, "window_smallest": 0.025, "window_first": 0,
         "fit_deviation": abs(fitted / nominal - 1),
         "correlation": 1, "added_steps": 0}
        for integrator, nominal, fitted in (("rk4", 4, 4.02), ("rkmk4", 4, 2.5),
                                            ("vi_implicit", 2, 2.0))])
    m0 = {"study": "grid", "model": models[0]}
    m1 = {"study": "grid", "model": models[1]}
    _write_verdicts(path, [
        _order_verdict("m0", "vi_implicit", 2, 2.0, family="variational", **m0),
        _verdict("m0", "vi_implicit", "manifold", "kept", family="variational", value=1e-15,
                 bound=1e-12, relation="<=", reason="the largest manifold defect 1e-15 <= 1e-12",
                 **m0),
        _verdict("m0", "vi_implicit", "energy", "kept", family="variational", value=1e-7,
                 bound=1e-2, relation="<=", reason="the largest relative change of the energy "
                 "1e-07 <= 0.01", **m0),
        _order_verdict("m0", "rkmk4", 4, 2.5, state="broken", why="below_nominal",
                       reason="fitted 2.50 over h = 0.1 .. 0.025: lost order", **m0),
        _order_verdict("m0", "rk4", 4, 4.02, family="classical", **m0),
        *(_verdict("m1", "vi_implicit", promise, "not_checked", "n/a", family="variational",
                   reason=MATRIX_NA, **m1) for promise in ("order", "manifold", "energy")),
        _order_verdict("m1", "rkmk4", 4, 0, state="not_checked", why="failed", value="",
                       reason="no case finished", **m1),
        _order_verdict("m1", "rk4", 4, 3.0, state="explained", why="below_nominal",
                       family="classical", reason="known deviation: the rigid body's reference "
                       "is too coarse; fitted 3.00", **m1)])


class HeatMapTest(unittest.TestCase):
    """The matrix page's heat map and the verdict index.html draws from the matrix."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.results = root / "results"
        write_matrix_results(cls.results)
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
        self.assertEqual([text for _, text, _ in self.found["manifold"]], ["(TS²)ⁿ", "so(3)*"])
        # Geometric families first, the peers last, whatever order cases.csv names them in.
        self.assertEqual([text for _, text, _ in self.found["family"]],
                         ["variational", "Lie group", "classical (peers)"])
        self.assertEqual([text for _, text, _ in self.found["integrator"]],
                         ["vi_implicit", "rkmk4", "rk4"])

    def test_each_cell_shows_its_state_and_fitted_order(self) -> None:
        cells = [(css, text) for css, text, _ in self.found["cell"]]
        self.assertEqual(cells, [("c v-kept", "✓2.0"), ("c v-broken", "✗2.5"),
                                 ("c v-kept", "✓4.0"), ("c v-na", "–"),
                                 ("c v-not_checked", "?"), ("c v-explained", "≈3.0")])

    def test_a_cells_title_holds_each_promise(self) -> None:
        titles = [title for _, _, title in self.found["cell"]]
        self.assertTrue(titles[1].startswith(
            "spherical_pendulum × rkmk4 (Lie group): broken\n"
            "order: ✗ broken: below nominal — 2.50, bound ≥ 3.8: fitted 2.50 over h = 0.1 .. "
            "0.025: lost order\n"), titles[1])
        self.assertIn("h=0.025: ok, global error 9.882e-05, 1.230e-02 s", titles[1])
        self.assertIn("manifold: ✓ kept — 1.000e-15, bound ≤ 1e-12: the largest manifold defect",
                      titles[0])
        self.assertEqual(titles[3].split("\n")[1:], [MATRIX_NA])
        self.assertIn("order: ? not checked: no case finished", titles[4])
        self.assertIn("3 failed: NonFinite", titles[4])
        self.assertIn("order: ≈ explained: below nominal — 3.00, bound ≥ 3.8: known deviation",
                      titles[5])

    def test_a_check_mark_only_where_every_promise_was_kept(self) -> None:
        for css, text, title in self.found["cell"]:
            self.assertEqual("✓" in text, css == "c v-kept", (css, text))
            if css != "c v-kept":
                self.assertNotIn(": kept", title.split("\n")[0])

    def test_a_rows_header_links_its_section_and_figures(self) -> None:
        self.assertIn('<a href="grid.html#grid-m0" title="its cases and figures on the '
                      'study&#x27;s page">spherical_pendulum</a>', self.page)
        self.assertIn('<a href="figures/grid/m0-convergence.png">convergence</a>', self.page)
        self.assertTrue((self.report / "figures/grid/m0-convergence.png").is_file())
        self.assertIn('id="grid-m0"', (self.report / "grid.html").read_text(encoding="utf-8"))

    def test_the_legend_counts_equal_verdicts_csv(self) -> None:
        with (self.results / "verdicts.csv").open(newline="", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        expected = {state: sum(r["state"] == state for r in rows)
                    for state in ("kept", "broken", "not_checked", "explained")}
        expected["na"] = sum(r["why"] == "n/a" for r in rows)
        cells = {"kept": 2, "broken": 1, "not_checked": 1, "explained": 1, "na": 1}
        for page in (self.page, (self.report / "index.html").read_text(encoding="utf-8")):
            legend = legend_of(page)
            self.assertEqual({state: promises for state, (promises, _, _) in legend.items()},
                             expected)
            self.assertEqual({state: count for state, (_, count, _) in legend.items()}, cells)
            for state, (promises, count, text) in legend.items():
                self.assertIn(f"{promises} ", text)
                self.assertIn(f"{count} cell", text)
        self.assertEqual(expected, {"kept": 4, "broken": 1, "not_checked": 4, "explained": 1,
                                    "na": 3})

    def test_the_heat_map_opens_the_index(self) -> None:
        index = (self.report / "index.html").read_text(encoding="utf-8")
        self.assertLess(index.index('id="heatmap"'), index.index("At a glance"))
        self.assertLess(index.index('class="summary"'), index.index('id="heatmap"'))
        self.assertEqual(heat_map_of(index)["cell"], self.found["cell"])
        self.assertIn('<div class="heatmap-panel"><table class="heatmap"', index)

    def test_the_matrix_page_is_compact(self) -> None:
        self.assertNotIn("Every cell in detail", self.page)
        self.assertEqual(self.page.count(MATRIX_NA), 1)  # the n/a cell's title
        self.assertIn("<b>no SphereLagrangian view</b> (1 pair): models free_rigid_body × "
                      "integrators vi_implicit", self.page)
        broken = self.page[self.page.index('id="broken"'):self.page.index('id="not-checked"')]
        self.assertIn("lost order", broken)
        self.assertNotIn("known deviation", broken)
        unchecked = self.page[self.page.index('id="not-checked"'):self.page.index('id="explained"')]
        self.assertIn("no case finished", unchecked)
        self.assertNotIn(MATRIX_NA, unchecked)  # n/a pairs are listed apart
        explained = self.page[self.page.index('id="explained"'):]
        self.assertIn("known deviation", explained)
        # The promises' bounds as verdicts.csv gives them.
        self.assertIn("kept when ≥ 1.8, ≥ 3.8 (6 rows)", self.page)
        self.assertIn("kept when ≤ 1e-12 (2 rows)", self.page)

    def test_the_index_names_the_promises_broken(self) -> None:
        index = (self.report / "index.html").read_text(encoding="utf-8")
        self.assertIn('<li><a href="grid.html#grid-m0-verdicts">m0</a>: <b>rkmk4</b> order '
                      '<span class="v v-broken">✗ broken: below nominal</span> 2.50 (bound ≥ 3.8): '
                      "fitted 2.50 over h = 0.1 .. 0.025: lost order</li>", index)
        self.assertIn('id="grid-m0-verdicts"', (self.report / "grid.html").read_text("utf-8"))
        self.assertIn("15 cases run, 3 failed, 3 n/a or skipped.", index)
        self.assertIn('<a href="grid-matrix.html">the matrix page</a>', index)
        self.assertNotIn("<h3>Cases</h3>", index)  # the cases are on the study's page

    def test_a_model_without_a_recorded_state_space_is_refused_by_name(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_matrix_results(Path(tmp) / "results", ("spherical_pendulum", "mystery"),
                                 described=("spherical_pendulum",))
            status, stderr = _run(str(Path(tmp) / "results"), "--out", str(Path(tmp) / "r"))
        self.assertEqual(status, 2)
        self.assertIn("model 'mystery': no study manifest records its state space", stderr)


# ---- A long-time matrix: the α heat map and each model's envelopes (long_time_page.py,
# long_time_figures.py), on the matrix above with long-time statistics for its cases.

LONG_T1 = 0.01  # the first output time: ten bins a decade from there, over four decades
# The energy's growth exponent of each integrator's case at the finest h (0.025) on m0; its
# coarser cases grow faster (0.1 at h = 0.05, 0.3 at 0.1), so that a cell shown at another
# setting would be seen.
LONG_GROWTH = {"rk4": 1.0, "rkmk4": 0.5, "vi_implicit": 0.0}


def _long_quantity(name: str, kind: str, growth: float, scale: float,
                   signed: bool = False) -> dict[str, Any]:
    """One quantity of series/<case_id>-long-time.json whose envelope is scale (t/t1)^growth
    at each bin's upper edge: its max there, or (signed) its min, the max a third of it."""
    t_lo = [LONG_T1 * 10 ** (k / 10) for k in range(40)]
    t_hi = [t * 10 ** 0.1 for t in t_lo]
    top = [scale * (t / LONG_T1) ** growth for t in t_hi]
    low = [-v if signed else v / 2 for v in top]
    high = [v / 3 if signed else v for v in top]
    return {"name": name, "kind": kind, "initial": 1.0, "abs_max": max(top), "alpha": growth,
            "alpha_se": 0.01, "alpha_note": "", "fit_from": 100 * LONG_T1, "fit_to": t_hi[-1],
            "fit_bins": 20, "drift": 0.0, "drift_se": 1e-3, "correlation": 0.5,
            "bins": {"t_lo": t_lo, "t_hi": t_hi, "count": [10] * 40, "min": low, "max": high,
                     "mean": [(a + b) / 2 for a, b in zip(low, high)]}}


def _write_long_time(results: Path, case_id: str, quantities: list[dict[str, Any]]) -> None:
    (results / "series" / f"{case_id}-long-time.json").write_text(
        json.dumps({"points": 100001, "quantities": quantities}), encoding="utf-8")


def write_long_time_matrix(path: Path) -> None:
    """write_matrix_results' matrix run long: every case that ran has long-time statistics. On
    m0 (spherical_pendulum) an energy growing as LONG_GROWTH says, a momentum map and two
    manifold defects, tangency_1 the larger (signed: its envelope is |min|); on m1
    (free_rigid_body) no energy, a Casimir and a defect, rkmk4 failing (a NaN in its last
    bin). vi_implicit keeps its long_energy promise on m0."""
    write_matrix_results(path)
    manifest = read_manifest(path)
    manifest["spec"] = {"every_model": {"long_time": True, "series": False}}
    write_manifest(path, manifest)
    for case in read_csv(path / "cases.csv", ("case_id", "integrator", "experiment", "status"),
                         ("h",)):
        if case["status"] == "n/a":
            continue
        if case["experiment"] == "m0":
            growth = LONG_GROWTH[case["integrator"]] + 4 * (case["h"] - 0.025)
            quantities = [_long_quantity("energy", "energy", growth, 1e-8),
                          _long_quantity("Lz", "momentum", 0.5, 1e-15),
                          _long_quantity("unit_1", "manifold_defect", 0.5, 1e-16),
                          _long_quantity("tangency_1", "manifold_defect", 0.6, 1e-15, True)]
        else:
            quantities = [_long_quantity("C", "casimir", 0.5, 1e-15),
                          _long_quantity("orbit", "manifold_defect", 0.5, 1e-15)]
            if case["status"] != "ok":
                for quantity in quantities:
                    quantity["bins"]["max"][-1] = None
                    quantity["alpha"] = None
                    quantity["alpha_note"] = "a NaN error"
        _write_long_time(path, case["case_id"], quantities)
    with (path / "verdicts.csv").open("a", newline="", encoding="utf-8") as file:
        csv.DictWriter(file, VERDICT_COLUMNS).writerow(_verdict(
            "m0", "vi_implicit", "long_energy", "kept", family="variational", value=0.0,
            bound=0.6, relation="<=", reason="the energy error's envelope: alpha 0 <= 0.6"))


class _AlphaCells(HTMLParser):
    """The α heat map's cells: class, style, text and title."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.current, self.text = False, None, ""
        self.cells: list[tuple[str, str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "table" and values.get("id") == "alpha-map":
            self.inside = True
        elif self.inside and tag == "td":
            self.current = (values.get("class") or "", values.get("style") or "",
                            values.get("title") or "")
            self.text = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag == "td" and self.current:
            css, style, title = self.current
            self.cells.append((css, style, self.text, title))
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.current:
            self.text += data


class LongTimeMatrixTest(unittest.TestCase):
    """A long-time matrix's page: the heat map coloured by the energy's α, each model's figure
    of envelopes, and what α is; none of it on a matrix without long-time statistics."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.results, cls.report = root / "results", root / "report"
        write_long_time_matrix(cls.results)
        cls.status, cls.stderr = _run(str(cls.results), "--out", str(cls.report))
        cls.page = (cls.report / "grid-matrix.html").read_text(encoding="utf-8")
        parser = _AlphaCells()
        parser.feed(cls.page)
        cls.cells = parser.cells  # m0's row, then m1's: vi_implicit, rkmk4, rk4

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_succeeds(self) -> None:
        self.assertEqual(self.status, 0, self.stderr)

    def test_recognised_by_its_statistics(self) -> None:
        self.assertTrue(long_time.is_long_time(load_study(self.results)))
        with tempfile.TemporaryDirectory() as tmp:
            write_matrix_results(Path(tmp) / "plain")
            self.assertFalse(long_time.is_long_time(load_study(Path(tmp) / "plain")))
            write_long_time_matrix(Path(tmp) / "study")
            manifest = read_manifest(Path(tmp) / "study")
            manifest["kind"] = "study"
            write_manifest(Path(tmp) / "study", manifest)
            self.assertFalse(long_time.is_long_time(load_study(Path(tmp) / "study")))

    def test_the_index_shows_the_plain_matrix_when_there_are_both(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_long_time_matrix(Path(tmp) / "results" / "a_long")
            write_matrix_results(Path(tmp) / "results" / "b_plain")
            status, stderr = _run(str(Path(tmp) / "results"), "--out", str(Path(tmp) / "report"))
            self.assertEqual(status, 0, stderr)
            index = (Path(tmp) / "report" / "index.html").read_text(encoding="utf-8")
            self.assertIn('id="heat-map"', index)
            self.assertNotIn("long-time</a>", index)  # the long-time matrix's cells link these
        self.assertIn("long-time</a>", self.page)

    def test_a_cell_per_pair_coloured_by_the_energy_alpha_at_the_finest_step(self) -> None:
        self.assertEqual(len(self.cells), 6)
        self.assertEqual(self.cells, [c for c in self.cells if c[0].startswith("c")])
        for (css, style, text, _), integrator in zip(self.cells, ("vi_implicit", "rkmk4", "rk4")):
            alpha = LONG_GROWTH[integrator]
            background, ink = long_time_page.alpha_colour(alpha)
            self.assertEqual((css, style), ("c", f"background: {background}; color: {ink}"))
            self.assertEqual(text[1:], f"{alpha:.1f}")
        # the symbol is the verdict state, as in the first heat map
        self.assertEqual([text[0] for _, _, text, _ in self.cells[:3]], ["✓", "✗", "✓"])
        self.assertNotEqual(*(long_time_page.alpha_colour(a)[0] for a in (0.0, 1.0)))

    def test_grey_where_not_measured_and_na_as_on_every_page(self) -> None:
        (na, _, na_text, _), (failed, _, _, failed_title), (no_energy, _, _, title) = \
            self.cells[3:]
        self.assertEqual((na, na_text), ("c v-na", "–"))
        self.assertEqual((failed, no_energy), ("c a-none", "c a-none"))
        self.assertIn("energy: none, the exact flow conserves none", title)
        self.assertIn("rkmk4 h=0.025: NonFinite at t = 5.000e-01", failed_title)
        self.assertIn("α not measured (a NaN error)", failed_title)

    def test_the_hover_gives_alpha_and_its_error_and_the_verdicts(self) -> None:
        title = self.cells[0][3]
        self.assertTrue(title.startswith("spherical_pendulum × vi_implicit (variational): kept\n"
                                         "vi_implicit h=0.025: ok\n"), title)
        self.assertIn("energy: α = 0 ± 0.01 over t in [1, 100], max |err| 1.000e-08", title)
        self.assertIn("largest manifold defect (tangency_1): α = 0.6 ± 0.01", title)
        self.assertIn("long_energy: ✓ kept", title)
        self.assertIn("order: ✓ kept", title)

    def test_the_legend_says_what_alpha_means(self) -> None:
        page = self.page
        legend = page[page.index('class="alpha-legend"'):page.index('id="alpha-map"')]
        for words in ("bounded", "a random walk", "a drift", "α not measured", "n/a"):
            self.assertIn(words, legend)
        # the first heat map's legend is the only one with data-state items (legend_of, the
        # browser check count them against verdicts.csv)
        self.assertNotIn("data-state", legend)

    def test_the_explanation_names_the_judged_promises(self) -> None:
        page = self.page
        text = _text(page[page.index('id="long-run"'):page.index('class="alpha-legend"')])
        for words in ("growth exponent", "last two decades", "after the first 100 steps",
                      "long_energy", "long_momentum", "long_manifold", "reversibility",
                      "without a promise"):
            self.assertIn(words, text)

    def test_each_model_has_its_envelope_figure_on_the_page(self) -> None:
        for model in ("m0", "m1"):
            png = self.report / f"figures/grid/{model}-long_time.png"
            self.assertIn(f'<img src="figures/grid/{model}-long_time.png"', self.page)
            image = plt.imread(png)
            self.assertGreater(min(image.shape[:2]), 300)
            self.assertGreater(float(image[..., :3].std()), 0.05, png)  # not blank
            self.assertTrue(png.with_suffix(".svg").is_file())
        self.assertLess(self.page.index('id="alpha-map"'), self.page.index('id="envelopes"'))
        self.assertLess(self.page.index('id="envelopes"'), self.page.index("<h2>Promises</h2>"))
        # linked from the rows of both heat maps, and on the study's page
        link = '<a href="figures/grid/m0-long_time.png">long-time</a>'
        self.assertEqual(self.page.count(link), 2)
        self.assertIn('src="figures/grid/m0-long_time.png"',
                      (self.report / "grid.html").read_text(encoding="utf-8"))

    def test_a_matrix_without_long_runs_has_none_of_it(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_matrix_results(Path(tmp) / "results")
            status, stderr = _run(str(Path(tmp) / "results"), "--out", str(Path(tmp) / "r"))
            self.assertEqual(status, 0, stderr)
            page = (Path(tmp) / "r" / "grid-matrix.html").read_text(encoding="utf-8")
            self.assertFalse(list((Path(tmp) / "r" / "figures" / "grid").glob("*long_time*")))
        self.assertIn('id="heatmap"', page)
        for absent in ('id="alpha-map"', 'id="long-run"', 'id="envelopes"'):
            self.assertNotIn(absent, page)

    def test_a_malformed_statistics_file_is_refused_by_name(self) -> None:
        def shorter(energy: dict[str, Any]) -> None:
            energy["bins"]["max"].pop()

        def no_alpha(energy: dict[str, Any]) -> None:
            del energy["alpha"]

        for breaking, message in ((shorter, "its bins' lists differ in length"),
                                  (no_alpha, "no 'alpha'")):
            with tempfile.TemporaryDirectory() as tmp:
                results = Path(tmp) / "results"
                write_long_time_matrix(results)
                bad = results / "series" / "rk4-0-0.1-long-time.json"
                data = json.loads(bad.read_text(encoding="utf-8"))
                breaking(data["quantities"][0])
                bad.write_text(json.dumps(data), encoding="utf-8")
                status, stderr = _run(str(results), "--out", str(Path(tmp) / "r"))
                self.assertFalse((Path(tmp) / "r").exists())  # refused before writing
            self.assertEqual(status, 2)
            self.assertIn(f"{bad}: quantity 'energy': {message}", stderr)


class EnvelopeFigureTest(unittest.TestCase):
    """A model's figure of envelopes: three rows, a column per family, log-log axes, each
    case's envelope at its bins' upper edges, the reference slopes, "none" where nothing is."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        write_long_time_matrix(Path(cls.tmp.name))
        cls.study = load_study(Path(cls.tmp.name))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def figure(self, experiment: str) -> Any:
        runs = [(case, self.study.long_time(case["case_id"]))
                for case in self.study.cases_of(experiment)
                if self.study.long_time(case["case_id"]) is not None]
        fig, notes = long_time_figures.envelope_figure(
            "a model", runs, Styles(self.study.manifest, self.study.cases))
        self.addCleanup(plt.close, fig)
        return fig, notes

    @staticmethod
    def panels(fig: Any) -> list[list[Any]]:
        """The figure's panels by row (its legend axes, drawn without a frame, left out)."""
        axes = [ax for ax in fig.axes if ax.axison]
        columns = len(axes) // len(long_time_figures.ROWS)
        return [axes[r::len(long_time_figures.ROWS)][:columns]
                for r in range(len(long_time_figures.ROWS))]

    def test_three_rows_a_column_per_family_log_log(self) -> None:
        fig, _ = self.figure("m0")
        panels = self.panels(fig)
        self.assertEqual([len(row) for row in panels], [3, 3, 3])
        self.assertEqual([ax.get_title() for ax in panels[0]],
                         ["variational", "Lie group", "classical (peers)"])
        for ax in (ax for row in panels for ax in row):
            self.assertEqual((ax.get_xscale(), ax.get_yscale()), ("log", "log"))
        self.assertIn("energy", panels[0][0].get_ylabel())
        self.assertIn("momentum map, Casimir", panels[1][0].get_ylabel())
        self.assertIn("manifold defect", panels[2][0].get_ylabel())
        legends = [ax.get_legend() for ax in fig.axes if not ax.axison]
        self.assertEqual([[t.get_text() for t in legend.get_texts()] for legend in legends],
                         [["vi_implicit h=0.1", "vi_implicit h=0.05", "vi_implicit h=0.025"],
                          ["rkmk4 h=0.1", "rkmk4 h=0.05", "rkmk4 h=0.025"],
                          ["rk4 h=0.1", "rk4 h=0.05", "rk4 h=0.025"]])

    def test_labels_and_legends_stay_apart(self) -> None:
        fig, _ = self.figure("m0")
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        boxes = [ax.yaxis.label.get_window_extent(renderer) for ax in
                 (row[0] for row in self.panels(fig))]
        boxes += [ax.get_legend().get_window_extent(renderer) for ax in fig.axes
                  if not ax.axison]
        for a, b in itertools.combinations(boxes, 2):
            self.assertFalse(a.overlaps(b), (a, b))

    def test_each_envelope_is_the_largest_error_at_the_bins_upper_edge(self) -> None:
        fig, _ = self.figure("m0")
        energy, defect = self.panels(fig)[0][2], self.panels(fig)[2][2]
        finest = [line for line in energy.get_lines()
                  if line.get_color() != long_time_figures.SLOPE_STYLE["color"]][-1]
        t, y = finest.get_data()
        self.assertAlmostEqual(t[0], LONG_T1 * 10 ** 0.1)
        np.testing.assert_allclose(y, 1e-8 * (np.asarray(t) / LONG_T1) ** 1.0, rtol=1e-12)
        # the larger of the two defects, from |min| of the signed one
        t, y = [line for line in defect.get_lines()
                if line.get_color() != long_time_figures.SLOPE_STYLE["color"]][-1].get_data()
        np.testing.assert_allclose(y, 1e-15 * (np.asarray(t) / LONG_T1) ** 0.6, rtol=1e-12)

    def test_reference_slopes_from_the_start_of_the_fit(self) -> None:
        fig, notes = self.figure("m0")
        for ax in (ax for row in self.panels(fig) for ax in row):
            slopes = [line for line in ax.get_lines()
                      if line.get_color() == long_time_figures.SLOPE_STYLE["color"]]
            self.assertEqual(len(slopes), 3)
            growth = [np.log10(s.get_ydata()[1] / s.get_ydata()[0])
                      / np.log10(s.get_xdata()[1] / s.get_xdata()[0]) for s in slopes]
            np.testing.assert_allclose(growth, [0.0, 0.5, 1.0], atol=1e-12)
            self.assertEqual({s.get_xdata()[0] for s in slopes}, {100 * LONG_T1})
            self.assertEqual(sorted(t.get_text() for t in ax.texts),
                             sorted(text for _, text in long_time_figures.SLOPES))
        self.assertIn(long_time_figures.ENVELOPE_NOTE, notes)

    def test_exact_zeros_are_drawn_at_the_floor_without_slopes(self) -> None:
        zeros = LongTimeStatisticsTest.stats(_long_quantity("energy", "energy", 0.0, 0.0))
        fig, notes = long_time_figures.envelope_figure(
            "a model", [(case, zeros) for case in self.study.cases_of("m0")],
            Styles(self.study.manifest, self.study.cases))
        self.addCleanup(plt.close, fig)
        for ax in self.panels(fig)[0]:
            self.assertEqual({line.get_color() for line in ax.get_lines()}
                             & {long_time_figures.SLOPE_STYLE["color"]}, set())
            self.assertEqual({y for line in ax.get_lines() for y in line.get_ydata()}, {FLOOR})
        self.assertIn(FLOOR_NOTE, notes)

    def test_an_empty_panel_says_none(self) -> None:
        fig, notes = self.figure("m1")  # no energy; rkmk4 failed
        panels = self.panels(fig)
        for ax in panels[0]:
            self.assertEqual([t.get_text() for t in ax.texts], ["none", "no conserved energy"])
        for ax in panels[1] + panels[2]:
            self.assertNotIn("none", [t.get_text() for t in ax.texts])
        self.assertIn(long_time_figures.FAILED_NOTE, notes)
        legend = [t.get_text() for ax in fig.axes if not ax.axison
                  for t in ax.get_legend().get_texts()]
        self.assertIn("rkmk4 h=0.025 (NonFinite)", legend)

    def test_nothing_to_draw_is_a_note(self) -> None:
        fig, notes = long_time_figures.envelope_figure("a model", [], Styles({}, []))
        self.assertIsNone(fig)
        self.assertEqual(notes, ["No case has long-time statistics."])


class LongTimeStatisticsTest(unittest.TestCase):
    """What the report takes from a case's statistics (long_time.py)."""

    @staticmethod
    def stats(*quantities: dict[str, Any]) -> Any:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "x-long-time.json"
            path.write_text(json.dumps({"points": 10, "quantities": list(quantities)}),
                            encoding="utf-8")
            return read_long_time(path)

    def test_the_envelope_is_the_largest_over_the_kinds_and_nan_stays_nan(self) -> None:
        a = _long_quantity("a", "momentum", 0.0, 1.0)
        b = _long_quantity("b", "casimir", 0.0, 2.0, signed=True)
        b["bins"]["min"][3] = None
        t, y = long_time.envelope(self.stats(a, b), ("momentum", "casimir"))
        self.assertEqual(len(t), 40)
        self.assertEqual(y[0], 2.0)
        self.assertTrue(math.isnan(y[3]))
        self.assertIsNone(long_time.envelope(self.stats(a), ("energy",)))

    def test_the_largest_defect_is_chosen_as_cases_csv_chooses_it(self) -> None:
        first = _long_quantity("first", "manifold_defect", 0.5, 1.0)
        second = _long_quantity("second", "manifold_defect", 0.1, 1.0)
        second["abs_max"] = first["abs_max"]  # a tie: the first stays
        smaller = _long_quantity("smaller", "manifold_defect", 0.2, 1e-3)
        self.assertEqual(long_time.largest_defect(self.stats(first, second, smaller)).name,
                         "first")
        unknown = dict(smaller, name="unknown", abs_max=None)  # NaN: replaces, is replaced
        self.assertEqual(long_time.largest_defect(self.stats(first, unknown)).name, "unknown")
        self.assertEqual(long_time.largest_defect(self.stats(first, unknown, smaller)).name,
                         "smaller")
        self.assertIsNone(long_time.largest_defect(self.stats(
            _long_quantity("E", "energy", 0.0, 1.0))))


class IndexTest(unittest.TestCase):
    """index.html: the verdict of each study; the rest on the study's page."""

    def test_a_broken_promise_is_named_and_linked(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_synthetic_results(results)
            with (results / "verdicts.csv").open(newline="", encoding="utf-8") as file:
                verdicts = list(csv.DictReader(file))
            verdicts[0].update(state="broken", why="below_nominal", value=3.5,
                               reason="fitted 3.50: lost order")
            _write_verdicts(results, verdicts)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            index = (report / "index.html").read_text(encoding="utf-8")
            study = (report / "synthetic.html").read_text(encoding="utf-8")
        self.assertIn('<a href="synthetic.html#synthetic-conv-verdicts">conv</a>: <b>rk4</b> '
                      'order <span class="v v-broken">✗ broken: below nominal</span> 3.50 '
                      "(bound ≥ 3.8): fitted 3.50: lost order</li>", index)
        self.assertIn('id="synthetic-conv-verdicts"', study)
        # The glance: verdicts by state; reproduction rows out of band by role, round-off
        # rows apart.
        self.assertIn('<td class="num">2</td><td class="num off">1</td><td class="num">1</td>'
                      '<td class="num">0</td><td class="num off">1 of 2</td>'
                      '<td class="num off">1 of 2</td><td class="num">1</td>', index)
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


def _planted_errors(slopes: list[float], steps: list[float], first: float = 1e-2) -> list[float]:
    """Global errors at steps (decreasing) whose local slopes are the given ones."""
    errors = [first]
    for (h0, h1), slope in zip(zip(steps, steps[1:]), slopes):
        errors.append(errors[-1] * (h1 / h0) ** slope)
    return errors


# The planted verdicts: integrator -> (family, the order verdict's state, why, value, reason).
PLANTED_STEPS = [0.1, 0.05, 0.025, 0.0125]
PLANTED = {
    "ok": ("lie_group", "kept", "nominal", 4.01,
           "fitted 4.01 over h = 0.1 .. 0.0125 (4 points; local slopes 4, 4.01, 4.02)"),
    "above": ("lie_group", "kept", "from_above", 4.45,
              "fitted 4.45 over h = 0.05 .. 0.0125 (3 points; local slopes 4.6, 4.3; "
              "|p/4 - 1| = 0.11, correlation 0.999): converging from above"),
    "below": ("lie_group", "broken", "below_nominal", 3.1,
              "fitted 3.10 over h = 0.1 .. 0.0125: below the nominal 4 by more than 0.2"),
    "nowin": ("lie_group", "not_checked", "no_window", "",
              "no asymptotic window: no three consecutive points whose local slopes agree "
              "(1.20, 5.30, 0.40)"),
    "floor": ("lie_group", "not_checked", "no_window", "",
              "no asymptotic window: 0 of 4 points, 4 at the reference's error floor: fewer "
              "than three to fit"),
    "known": ("variational", "explained", "below_nominal", 1.5,
              "known deviation: first order in the multiplier (the paper, Sec. 5); fitted 1.50"),
    "adapt": ("classical", "not_checked", "adaptive", "",
              "adaptive: step control ties the error to the tolerance, not to a step; the slope "
              "of the error against the mean step is 5.91, not an order"),
    "vi_explicit": ("variational", "not_checked", "n/a", "",
                    "n/a: spherical_pendulum has no diagonal-inertia SphereLagrangian view"),
    "drift": ("symplectic_lie_group", "kept", "nominal", 2.0, "fitted 2.00 over h = 0.1 .. 0.0125"),
}
PLANTED_SLOPES = {"ok": [4.0, 4.01, 4.02], "above": [5.0, 4.6, 4.3], "below": [3.1, 3.1, 3.1],
                  "nowin": [1.2, 5.3, 0.4], "known": [1.5, 1.5, 1.5], "drift": [2.0, 2.0, 2.0]}


def write_planted_results(path: Path) -> None:
    """A study whose verdicts.csv holds one verdict of each kind: kept at the nominal order and
    from above, below nominal (broken), no window (errors that do not converge, and errors all
    at the reference's floor), explained, adaptive, n/a; a broken energy promise; claims
    held, not held and not checked."""
    (path / "series").mkdir(parents=True)
    manifest = {"study": "planted", "title": "Planted verdicts", "experiments": [
        {"name": "conv", "title": "Convergence", "model": "spherical_pendulum", "preset": "swing",
         "T": 1.0, "reference": "odeint_rkf78 rtol=1e-13", "plots": []}]}
    (path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    cases, orders, verdicts = [], [], []
    for integrator, (family, state, why, value, reason) in PLANTED.items():
        nominal = 2 if family in ("variational", "symplectic_lie_group") else 4
        slopes = PLANTED_SLOPES.get(integrator)
        errors = (_planted_errors(slopes, PLANTED_STEPS) if slopes else
                  [1e-15] * 4 if integrator == "floor" else [1e-3] * 4)
        for h, err in zip(PLANTED_STEPS, errors):
            values = ({"rtol": h * 1e-4, "atol": 1e-12, "h": ""} if integrator == "adapt" else
                      {"status": "n/a", "status_detail": reason} if why == "n/a" else {"h": h})
            cases.append(_case("conv", integrator, f"{integrator}-{h}", family=family,
                               nominal_order=nominal, global_err=err, **values))
        verdicts.append(_verdict("conv", integrator, "order", state, why, family=family,
                                 value=value, bound=nominal - 0.2, relation=">=", reason=reason,
                                 study="planted"))
        if why == "n/a":
            verdicts.append(_verdict("conv", integrator, "manifold", state, why, family=family,
                                     reason=reason, study="planted"))
            continue
        window = {"above": (0.05, 0.0125, 3), "nowin": (None, None, 0),
                  "floor": (None, None, 0), "adapt": (None, None, 0)}.get(
                      integrator, (0.1, 0.0125, 4))
        orders.append({
            "study": "planted", "experiment": "conv", "model": "spherical_pendulum",
            "integrator": integrator, "nominal_order": nominal,
            "fitted_order": "nan" if value == "" else value, "residual": 1e-3,
            "points_used": window[2], "points_total": 4,
            "abscissa": "mean_step" if integrator == "adapt" else "h",
            "note": {"floor": "4 at the reference's error floor",
                     "adapt": "adaptive: the slope against the mean step is not an order"}.get(
                         integrator, ""),
            "local_slopes": ";".join(str(x) for x in slopes or []),
            "window_largest": window[0] or "", "window_smallest": window[1] or "",
            "window_first": {"above": 1}.get(integrator, 0) if window[0] else "",
            "fit_deviation": "" if value == "" else abs(value / nominal - 1),
            "correlation": "" if value == "" else 0.999,
            "slope_vs_mean_step": 5.91 if integrator == "adapt" else "", "added_steps": 0})
    verdicts.append(_verdict("conv", "drift", "energy", "broken", family="symplectic_lie_group",
                             value=0.0304, bound=0.01, relation="<=", study="planted",
                             reason="the largest relative change of the energy over the run "
                             "0.0304 > 0.01"))
    verdicts.append(_verdict("conv", "ok", "manifold", "kept", value=2.7e-15, bound=1e-12,
                             relation="<=", study="planted",
                             reason="the largest manifold defect 2.7e-15 <= 1e-12"))
    _write_csv(path / "cases.csv", CASE_COLUMNS, cases)
    _write_csv(path / "orders.csv", ORDER_COLUMNS, orders)
    _write_verdicts(path, verdicts)
    claim = {"study": "planted", "experiment": "conv", "metric": "energy_rel_err_max",
             "relation": "<=", "bound": 1e-3}
    _write_csv(path / "claims.csv", CLAIM_COLUMNS, [
        {**claim, "claim": "the energy error stays below 1e-3", "where": "Sec. 5, Fig. 6",
         "integrators": "ok;drift", "measured": 2e-4, "state": "held",
         "reason": "over 8 finished cases"},
        {**claim, "claim": "the momentum is exact", "where": "Thm. 2",
         "metric": "momentum_rel_err_max", "integrators": "drift", "bound": 1e-14,
         "measured": 3e-12, "state": "not_held", "reason": "over 4 finished cases"},
        {**claim, "claim": "the adaptive run keeps the energy", "where": "Sec. 6",
         "integrators": "vi_explicit", "measured": "", "state": "not_checked",
         "reason": "no selected case finished"}])


def _rows_of(page: str, css_class: str) -> list[list[str]]:
    """The cells (HTML) of each body row of the page's tables of this class."""
    rows = []
    for found in re.findall(rf'<table class="{css_class}">(.*?)</table>', page, re.S):
        for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", found, re.S):
            cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
            if cells:
                rows.append(cells)
    return rows


def _text(markup: str) -> str:
    """What a reader sees of a cell's markup (its tags stripped, entities kept escaped)."""
    return re.sub(r"<[^>]+>", "", markup)


class VerdictTest(unittest.TestCase):
    """One planted verdict of each kind: every page shows its state (symbol, colour, words)
    and its reason, never a check mark where the promise was not measured and held."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        cls.results = root / "results"
        write_planted_results(cls.results)
        cls.report = root / "report"
        cls.status, cls.stderr = _run(str(cls.results), "--out", str(cls.report))
        cls.page = (cls.report / "planted.html").read_text(encoding="utf-8")
        cls.index = (cls.report / "index.html").read_text(encoding="utf-8")
        cls.summary = (cls.report / "summary.md").read_text(encoding="utf-8")
        with (cls.results / "verdicts.csv").open(newline="", encoding="utf-8") as file:
            cls.verdicts = list(csv.DictReader(file))

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def verdict_rows(self) -> dict[tuple[str, str], list[str]]:
        """The study page's verdicts table by (integrator, promise)."""
        return {(_text(r[0]), _text(r[1])): r for r in _rows_of(self.page, "verdicts")}

    def test_succeeds(self) -> None:
        self.assertEqual(self.status, 0, self.stderr)

    def test_each_kind_of_verdict_is_shown_with_its_state_and_reason(self) -> None:
        shown = self.verdict_rows()
        expected = {
            "ok": ("kept", "✓ kept"), "above": ("kept", "✓ kept, converging from above"),
            "below": ("broken", "✗ broken: below nominal"),
            "nowin": ("not_checked", "? not checked: no asymptotic window"),
            "floor": ("not_checked", "? not checked: no asymptotic window"),
            "known": ("explained", "≈ explained: below nominal"),
            "adapt": ("not_checked", "? not checked: adaptive")}
        for integrator, (state, words) in expected.items():
            row = shown[(integrator, "order")]
            self.assertEqual(row[2], f'<span class="v v-{state}">{words}</span>', integrator)
            self.assertEqual(_text(row[5]), escape(PLANTED[integrator][4]), integrator)
        self.assertEqual(_text(shown[("drift", "energy")][2]), "✗ broken")
        self.assertEqual(_text(shown[("drift", "energy")][3]), "3.040e-02")
        self.assertEqual(_text(shown[("drift", "energy")][4]), "≤ 0.01")
        self.assertEqual(_text(shown[("above", "order")][3]), "4.45")
        self.assertEqual(_text(shown[("above", "order")][4]), "≥ 3.8")
        # n/a: not a row of the table, but a line naming the integrator and the missing view.
        self.assertNotIn(("vi_explicit", "order"), shown)
        self.assertIn("– not checked, n/a: spherical_pendulum has no diagonal-inertia "
                      "SphereLagrangian view: vi_explicit", self.page)
        self.assertEqual(len(shown), len(self.verdicts) - 2)

    def test_no_check_mark_where_a_promise_was_not_kept(self) -> None:
        states = {(v["integrator"], v["promise"]): v["state"] for v in self.verdicts}
        for (integrator, promise), row in self.verdict_rows().items():
            kept = states[(integrator, promise)] == "kept"
            self.assertEqual("✓" in "".join(row), kept, (integrator, promise))
        for row in _rows_of(self.page, "orders"):
            self.assertEqual("✓" in "".join(row), _text(row[0]) in ("ok", "above", "drift"),
                             _text(row[0]))
        self.assertNotIn("✓", self.index[self.index.index("Promises broken"):])

    def test_the_orders_table_shows_the_window_and_the_fit(self) -> None:
        orders = {_text(r[0]): r for r in _rows_of(self.page, "orders")}
        above = orders["above"]
        self.assertEqual(_text(above[2]), "4.45")  # the fitted order
        self.assertEqual(_text(above[5]), "h = 0.05 .. 0.0125")  # the window
        self.assertEqual(_text(above[6]), "3/4")
        # The local slopes, the window's two highlighted, the pre-asymptotic one not.
        self.assertEqual(above[7], '5.00 <span class="window">4.60</span> '
                                   '<span class="window">4.30</span>')
        self.assertEqual(_text(above[8]), "1.125e-01")  # |p/p_nominal - 1|
        self.assertEqual(_text(above[9]), "0.999000")  # the correlation
        nowin = orders["nowin"]
        self.assertEqual((_text(nowin[2]), _text(nowin[5]), _text(nowin[6])), ("nan", "", "0/4"))
        self.assertNotIn("window", nowin[7])  # no window: nothing highlighted
        self.assertEqual(_text(orders["floor"][12]), "4 at the reference&#x27;s error floor")
        # An adaptive method: no fitted order; its slope against the mean step apart.
        adapt = orders["adapt"]
        self.assertEqual((_text(adapt[2]), _text(adapt[4])), ("", "5.91"))
        self.assertIn("slope vs mean step (adaptive)", self.page)
        self.assertNotIn("vi_explicit", orders)  # n/a: nothing ran

    def test_a_kept_order_on_fewer_than_three_points_is_flagged(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_planted_results(results)
            with (results / "orders.csv").open(newline="", encoding="utf-8") as file:
                orders = list(csv.DictReader(file))
            next(o for o in orders if o["integrator"] == "ok")["points_used"] = 2
            _write_csv(results / "orders.csv", ORDER_COLUMNS, orders)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            page = (report / "planted.html").read_text(encoding="utf-8")
        row = {_text(r[0]): r for r in _rows_of(page, "orders")}["ok"]
        self.assertEqual(row[6].count("2/4"), 1)
        self.assertIn('<td class="off" title="a kept order needs a window of at least three '
                      'points">2/4</td>', page)

    def test_the_index_lists_only_the_broken_promises(self) -> None:
        broken = self.index[self.index.index("<h3>Promises broken</h3>"):]
        items = re.findall(r"<li>(.*?)</li>", broken)
        self.assertEqual(len(items), 2)
        self.assertIn('<b>below</b> order <span class="v v-broken">✗ broken: below nominal'
                      "</span> 3.10 (bound ≥ 3.8): fitted 3.10", items[0])
        self.assertIn('<b>drift</b> energy <span class="v v-broken">✗ broken</span> 3.040e-02 '
                      "(bound ≤ 0.01): the largest relative change", items[1])
        for item in items:
            self.assertIn('href="planted.html#planted-conv-verdicts"', item)

    def test_the_counts_are_verdicts_csv(self) -> None:
        counts = {state: sum(v["state"] == state for v in self.verdicts)
                  for state in ("kept", "broken", "not_checked", "explained")}
        self.assertEqual(counts, {"kept": 4, "broken": 2, "not_checked": 5, "explained": 1})
        self.assertIn('<td class="num">4</td><td class="num off">2</td><td class="num">5</td>'
                      '<td class="num">1</td>', self.index)
        self.assertIn("Promises: 4 kept, 2 broken, 5 not checked, 1 explained.", self.index)
        self.assertIn("Not checked: 2 no asymptotic window, 2 n/a, 1 adaptive.", self.index)
        self.assertIn("Verdicts (verdicts.csv): ✓ 4 kept, ✗ 2 broken, ? 5 not checked, "
                      "≈ 1 explained.", self.summary)
        self.assertIn("| conv | below | order | ✗ broken: below nominal | 3.10 | ≥ 3.8 |",
                      self.summary)
        self.assertIn("| conv | drift | energy | ✗ broken | 3.040e-02 | ≤ 0.01 |", self.summary)
        self.assertNotIn("| conv | known |", self.summary.split("### Reproduction")[0])

    def test_the_claims_are_shown_held_or_not(self) -> None:
        claims = _rows_of(self.page, "claims")
        self.assertEqual([(_text(c[0]), _text(c[7])) for c in claims],
                         [("the energy error stays below 1e-3", "✓ held"),
                          ("the momentum is exact", "✗ not held"),
                          ("the adaptive run keeps the energy", "? not checked")])
        self.assertEqual([_text(c[1]) for c in claims], ["Sec. 5, Fig. 6", "Thm. 2", "Sec. 6"])
        self.assertEqual((_text(claims[1][5]), _text(claims[1][6])), ("3.000e-12", "≤ 1e-14"))
        self.assertIn('<td class="num off">1 / 1 / 1</td>', self.index)
        self.assertIn("| the momentum is exact | Thm. 2 | conv | momentum_rel_err_max | "
                      "3.000e-12 | ≤ 1e-14 | ✗ not held |", self.summary)


class MalformedVerdictsTest(unittest.TestCase):
    """verdicts.csv is required, and its states, claims.csv's and reproduction.csv's band
    columns are checked: a bad one is refused in one line naming the file and line."""

    def _refused(self, change: Any) -> tuple[int, str, Path]:
        with tempfile.TemporaryDirectory() as tmp:
            results = Path(tmp) / "results"
            write_planted_results(results)
            write_synthetic_results(Path(tmp) / "other")
            change(results)
            status, stderr = _run(str(results), "--out", str(Path(tmp) / "report"))
        return status, stderr, results

    def test_a_folder_without_verdicts_is_refused(self) -> None:
        status, stderr, results = self._refused(lambda r: (r / "verdicts.csv").unlink())
        self.assertEqual(status, 2)
        self.assertEqual(stderr, f"report: {results}: no verdicts.csv (written by a geomint older "
                                 "than this report: rerun the study)\n")

    def _rewrite(self, name: str, columns: list[str], line: int, **values: object) -> Any:
        def change(results: Path) -> None:
            with (results / name).open(newline="", encoding="utf-8") as file:
                rows = list(csv.DictReader(file))
            rows[line - 2].update(values)
            _write_csv(results / name, columns, rows)
        return change

    def test_bad_values_are_refused_by_file_and_line(self) -> None:
        for name, columns, values, message in (
                ("verdicts.csv", VERDICT_COLUMNS, {"state": "passed"},
                 "column 'state' is 'passed', not one of 'kept', 'broken', 'not_checked', "
                 "'explained'"),
                ("verdicts.csv", VERDICT_COLUMNS, {"value": "big"},
                 "column 'value' is not a number: 'big'"),
                ("claims.csv", CLAIM_COLUMNS, {"state": "kept"},
                 "column 'state' is 'kept', not one of 'held', 'not_held', 'not_checked'"),
                ("orders.csv", ORDER_COLUMNS, {"local_slopes": "4;x"},
                 "column 'local_slopes' is not a number: 'x'")):
            status, stderr, results = self._refused(self._rewrite(name, columns, 3, **values))
            self.assertEqual(status, 2)
            self.assertEqual(stderr, f"report: {results / name}:3: {message}\n")

    def test_a_band_on_a_round_off_row_is_refused(self) -> None:
        def change(results: Path) -> None:
            _write_csv(results / "reproduction.csv", REPRODUCTION_COLUMNS, [
                {"study": "planted", "experiment": "conv", "example": "Ex", "method": "VI",
                 "setting": "h", "role": "printed", "metric": "unit_length_err_mean",
                 "published": 1e-16, "ours": 2e-16, "ratio": 2, "round_off": 1, "in_band": 0}])
        status, stderr, results = self._refused(change)
        self.assertEqual(status, 2)
        self.assertEqual(stderr, f"report: {results / 'reproduction.csv'}:2: column 'in_band' "
                                 "is not empty on a round-off row\n")


class ReproductionBandTest(unittest.TestCase):
    """A round-off row is "round-off level" and in no band count; a reproducing row out of
    band is flagged as such."""

    def test_rows_and_counts(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            results, report = Path(tmp) / "results", Path(tmp) / "report"
            write_synthetic_results(results)
            status, stderr = _run(str(results), "--out", str(report))
            self.assertEqual(status, 0, stderr)
            page = (report / "synthetic.html").read_text(encoding="utf-8")
            index = (report / "index.html").read_text(encoding="utf-8")
        for text in (page, index):
            rows = [[_text(c) for c in r] for r in _rows_of(text, "reproduction")]
            self.assertEqual([r[8] for r in rows], [
                "in band", "out of band", "round-off level", "in band",
                "reproducing setting, out of band"])
        self.assertIn('<td class="num below" title="a ratio of two round-off numbers: it means '
                      'nothing">4.000e+00</td><td><span class="below">round-off level</span>',
                      page)
        self.assertIn('<td class="num off">3.000e+00</td><td><span class="off">reproducing '
                      "setting, out of band</span>", page)
        # 2 printed rows with a band (1 out), 2 reproducing (1 out), 1 round-off apart.
        self.assertIn('<td class="num off">1 of 2</td><td class="num off">1 of 2</td>'
                      '<td class="num">1</td>', index)


class PeerStyleTest(unittest.TestCase):
    """Convergence figures: fitted slopes written on the plot; peers apart from the geometric
    integrators, in their families' hues and dash-dotted; the legend grouped by family."""

    def test_slopes_are_written_and_peers_drawn_apart(self) -> None:
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
        self.assertEqual(fitted["-."], labels["p=4.01"])  # rk4, a peer: dash-dot, in its colour
        self.assertIn(to_hex(fitted["-."]), HUES["classical"])
        self.assertIn(to_hex(fitted["-"]), HUES["lie_group"])
        legend = fig.legends[0].get_texts()
        self.assertEqual([t.get_text() for t in legend[:4]],
                         ["Lie group:", "rkmk2: fitted p=2.01 (nominal 2)",
                          "classical (peers):", "rk4: fitted p=4.01 (nominal 4)"])
        self.assertEqual([t.get_fontweight() for t in legend[:4]],
                         ["bold", "normal", "bold", "normal"])
        plt.close(fig)

    def test_an_adaptive_slope_is_not_called_an_order(self) -> None:
        cases = [_case("conv", "rkmk54", f"a{rtol}", h=None, rtol=rtol, mean_step=rtol ** 0.2,
                       global_err=rtol, nominal_order=5) for rtol in (1e-4, 1e-6, 1e-8)]
        orders = [{"integrator": "rkmk54", "nominal_order": 5, "fitted_order": math.nan,
                   "slope_vs_mean_step": 5.0, "abscissa": "mean_step"}]
        fig, _ = convergence_figure("conv", None, cases, orders)
        legend = [t.get_text() for t in fig.legends[0].get_texts()]
        plt.close(fig)
        self.assertIn("rkmk54: slope vs mean step 5.00", legend)
        self.assertEqual(len(fig.axes[0].texts), 0)  # no "p=" on the plot
        self.assertFalse(any("order" in text or "p=" in text for text in legend[:2]), legend)


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
        self.assertEqual(lines["rkmk54 rtol=1e-06 atol=1e-09"].points,
                         [(float(n), 1e-6 * n) for n in (2, 5, 10)])
        # rkmk5's h differs in every experiment, yet it is one line.
        self.assertEqual(lines["rkmk5 (its own h for each N)"].points,
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
        lie, peers = "Lie group:", "reference solvers (peers):"
        # The cases have no cpu_repetitions: every CPU time is marked unreliable.
        unreliable = "CPU time unreliable (< 10 ms timed)"
        for sundials, labels, notes in (
                (DEBIAN, [lie, "rkmk54", peers, "cvode_bdf†", unreliable,
                          "† CPU time of an unoptimised SUNDIALS"],
                 [timing_mark({"sundials": DEBIAN}).footnote, UNRELIABLE_NOTE]),
                (OPTIMISED, [lie, "rkmk54", peers, "cvode_bdf", unreliable],
                 [UNRELIABLE_NOTE])):
            fig, drawn_notes = work_precision_figure("wp", cases,
                                                     timing_mark({"sundials": sundials}))
            legend = [t.get_text() for t in fig.legends[0].get_texts()]
            plt.close(fig)
            self.assertEqual(legend, labels)
            self.assertEqual(drawn_notes[:-1], notes)  # then the global error's note

    def test_cpu_time_against_a_parameter(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            write_sweep_results(Path(tmp) / "results")
            study = load_study(Path(tmp) / "results")
        study.cases.append(_case("sweep-celledoni2021_N5", "cvode_bdf", "b5", h=None,
                                 rtol=1e-8, atol=1e-10, cpu_s=0.5))
        spec = dict(study.figures()[0], metric="cpu_s")
        lines, _, footnotes = metric_vs_parameter_lines(study, spec)
        self.assertEqual(lines["cvode_bdf rtol=1e-08 atol=1e-10†"].points, [(5.0, 0.5)])
        self.assertIn("rkmk54 rtol=1e-06 atol=1e-09", lines)
        self.assertEqual(footnotes, [timing_mark(study.manifest).footnote])


if __name__ == "__main__":
    unittest.main()
