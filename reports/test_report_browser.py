"""Label `report`: a report as a reader sees it, in headless Chromium (browser_check.py).

Usage: test_report_browser.py PATH_TO_GEOMINT SCREENSHOT_DIR

Runs a small study and a tiny long-time matrix (every model of catalogue/model_registry.txt at
its first preset, a few integrators, a short horizon) with the geomint executable, writes their
report with `geomint report`, and loads every page at 1400 x 900: no broken image or link, no
JavaScript error, no empty figure, no page of 1 MB or more, no page that scrolls sideways, and
the index's heat map on its first screen, its legend's counts those of the matrix's
verdicts.csv; the matrix page's long run, a heat map of growth exponents and a figure of
envelopes per model.
Screenshots of the index and the matrix page are kept in SCREENSHOT_DIR. The checker is shown
to fail on copies of the report broken on purpose, one kind of breakage each.
"""
from __future__ import annotations

import csv
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

from browser_check import Browser, Problem

GEOMINT = ""
SCREENSHOTS = Path()
REGISTRY = Path(__file__).resolve().parent.parent / "catalogue" / "model_registry.txt"

STUDY = textwrap.dedent("""\
    name: small
    title: A small study
    description: A geometric integrator and its peers on the spherical pendulum.
    experiments:
      - name: pendulum
        title: The spherical pendulum
        model: spherical_pendulum
        preset: swing
        T: 0.5
        reference: {rtol: 1e-10, atol: 1e-12}
        plots: [energy, convergence, work_precision]
        runs:
          - integrators: [rk4, vi_explicit, rkmk4]
            h: [0.05, 0.025, 0.0125]
          - integrators: [odeint_dopri5]
            rtol: [1e-6, 1e-8]
        published:
          - {example: made up, method: VI, integrator: vi_explicit, h: 0.05, role: printed,
             energy_err_mean: 1.0e-3}
    """)

# A matrix needs an experiment for every model of the registry; each of these runs a
# geometric integrator of each family and a classical one for 20 steps or fewer, streaming its
# long-time statistics: a long-time matrix, whose page has the growth exponents' heat map and
# each model's figure of envelopes (too short a run to measure an exponent).
MATRIX_EXPERIMENT = textwrap.dedent("""\
      - name: {model}
        model: {model}
        preset: {preset}
        T: 0.01
        reference: {{integrator: odeint_rkf78, rtol: 1e-12, atol: 1e-14}}
        plots: [convergence, work_precision]
        series: false
        long_time: true
        runs:
          - integrators: [rk4, rkmk4, vi_explicit, slgi_theta_half]
            h: [0.002, 0.001, 0.0005]
    """)


def geomint(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([GEOMINT, *args], capture_output=True, text=True, timeout=900,
                          check=False)


def first_presets() -> dict[str, str]:
    """Every model of the registry with its first preset, as `geomint list models` prints them
    (the model's name alone on a line, later "  presets:" and the first one on the next)."""
    models = [line.split()[0] for line in REGISTRY.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    lines = geomint("list", "models").stdout.splitlines()
    presets = {}
    for model in models:
        start = lines.index(model)
        listed = lines.index("  presets:", start)
        presets[model] = lines[listed + 1].split(":")[0].strip()
    return presets


def matrix_spec() -> str:
    return ("name: tiny_matrix\nkind: matrix\ntitle: A tiny matrix\nexperiments:\n"
            + "".join(MATRIX_EXPERIMENT.format(model=model, preset=preset)
                      for model, preset in first_presets().items()))


def replace_in(page: Path, old: str, new: str, count: int = -1) -> None:
    """Breaks a page of a report copy: its text with old replaced by new."""
    page.write_text(page.read_text(encoding="utf-8").replace(old, new, count), encoding="utf-8")


class ReportInBrowser(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        root = Path(cls.tmp.name)
        (root / "small.yaml").write_text(STUDY, encoding="utf-8")
        (root / "matrix.yaml").write_text(matrix_spec(), encoding="utf-8")
        for command in (("study", str(root / "small.yaml"), "--out", str(root / "results/small")),
                        ("matrix", "--spec", str(root / "matrix.yaml"), "--out",
                         str(root / "results/matrix"))):
            ran = geomint(*command)
            if ran.returncode != 0:
                raise RuntimeError(f"geomint {' '.join(command)}: {ran.stderr}")
        cls.results = root / "results"
        cls.report = root / "report"
        cls.reported = geomint("report", str(root / "results"), "--out", str(cls.report))
        cls.browser = Browser()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.browser.driver.quit()
        cls.tmp.cleanup()

    def broken_copy(self) -> Path:
        """A copy of the report to break."""
        copy = Path(self.tmp.name) / f"broken-{self.id().rsplit('.', 1)[-1]}"
        shutil.copytree(self.report, copy)
        return copy

    def problems(self, report: Path, page: str) -> list[Problem]:
        return self.browser.check_page(report, report / page)

    def assert_found(self, problems: list[Problem], kind: str, detail: str) -> None:
        self.assertTrue(any(p.kind == kind and detail in p.detail for p in problems),
                        f"no {kind} naming {detail!r} among {[str(p) for p in problems]}")

    def test_the_report_names_its_index_on_one_line(self) -> None:
        self.assertEqual(self.reported.returncode, 0, self.reported.stderr)
        self.assertEqual(self.reported.stdout, f"report: {self.report / 'index.html'}\n")

    def test_every_page_loads_whole(self) -> None:
        pages = sorted(p.name for p in self.report.glob("*.html"))
        self.assertEqual(pages, ["index.html", "small.html", "tiny_matrix-matrix.html",
                                 "tiny_matrix.html"])
        shots = {page: SCREENSHOTS / f"{Path(page).stem}.png"
                 for page in ("index.html", "tiny_matrix-matrix.html")}
        problems = self.browser.check_report(self.report, shots)
        self.assertEqual([str(p) for p in problems], [])
        for shot in shots.values():
            self.assertGreater(shot.stat().st_size, 10_000, shot)
            print(f"screenshot: {shot}", file=sys.stderr)

    def test_the_heat_map_has_a_cell_per_model_and_integrator(self) -> None:
        page = (self.report / "tiny_matrix-matrix.html").read_text(encoding="utf-8")
        start = page.index('id="heatmap"')
        heat_map = page[start:page.index("</table>", start)]
        self.assertEqual(heat_map.count('<td class="c '), len(first_presets()) * 4)

    def test_the_long_run_has_its_heat_map_and_a_figure_per_model(self) -> None:
        page = self.report / "tiny_matrix-matrix.html"
        self.browser.driver.get(page.resolve().as_uri())
        cells, images = self.browser.driver.execute_script(
            "return [document.querySelectorAll('#alpha-map td.c').length,"
            " Array.from(document.querySelectorAll('figure.envelopes img')).map(function (i) {"
            "   return [i.getAttribute('src'), i.naturalWidth, i.clientHeight]; })];")
        self.assertEqual(cells, len(first_presets()) * 4)
        self.assertEqual(len(images), len(first_presets()))
        for src, width, height in images:
            self.assertTrue(src.endswith("-long_time.png"), src)
            self.assertGreater(min(width, height), 100, src)
        self.assertEqual(self.problems(self.report, page.name), [])

    def test_the_legend_counts_are_verdicts_csv(self) -> None:
        with (self.results / "matrix" / "verdicts.csv").open(newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        expected = {state: sum(r["state"] == state for r in rows)
                    for state in ("kept", "broken", "not_checked", "explained")}
        expected["na"] = sum(r["state"] == "not_checked" and r["why"] == "n/a" for r in rows)
        self.assertGreater(expected["kept"], 0)
        self.assertGreater(expected["na"], 0)
        for page in ("index.html", "tiny_matrix-matrix.html"):
            legend = self.browser.legend(self.report / page)
            self.assertEqual({item["state"]: item["promises"] for item in legend}, expected, page)
            for item in legend:
                self.assertTrue(item["shown"], item)
                self.assertIn(f"{item['promises']} ", item["text"])
                self.assertIn(f"{item['cells']} cell", item["text"])

    def test_the_index_opens_on_the_heat_map(self) -> None:
        """At 1400 x 900 the heat map starts on the first screen and the page does not scroll
        sideways (check_page finds either, on every page; here on the index as it is)."""
        self.browser.driver.get((self.report / "index.html").resolve().as_uri())
        seen = self.browser.driver.execute_script(
            "var r = document.querySelector('table.heatmap').getBoundingClientRect();"
            "return [r.top, window.innerHeight, document.documentElement.scrollWidth,"
            " document.documentElement.clientWidth];")
        top, height, scroll_width, width = seen
        self.assertEqual((width <= 1400, height), (True, 900))
        self.assertLess(top, height)
        self.assertLessEqual(scroll_width, width)
        self.assertEqual(self.problems(self.report, "index.html"), [])

    # The checker itself, on copies broken one way each: it must name what is broken.

    def test_a_heat_map_below_the_first_screen_is_found(self) -> None:
        copy = self.broken_copy()
        replace_in(copy / "index.html", '<h2 class="first"',
                   '<div style="height: 1000px"></div><h2 class="first"', 1)
        self.assert_found(self.problems(copy, "index.html"), "heat map below the first screen",
                          "the window is 900 px high")

    def test_a_page_that_scrolls_sideways_is_found(self) -> None:
        copy = self.broken_copy()
        replace_in(copy / "small.html", "</body>", '<div style="width: 3000px">x</div></body>')
        self.assert_found(self.problems(copy, "small.html"), "page scrolls sideways",
                          "the window shows")

    def test_a_broken_image_is_found(self) -> None:
        copy = self.broken_copy()
        page = (copy / "small.html").read_text(encoding="utf-8")
        image = re.search(r'<img src="([^"]+)"', page).group(1)
        (copy / image).unlink()
        self.assert_found(self.problems(copy, "small.html"), "broken image", image)

    def test_a_broken_link_is_found(self) -> None:
        copy = self.broken_copy()
        index = copy / "index.html"
        replace_in(index, "</body>",
                   '<a href="gone.html">a</a><a href="small.html#no-such-section">b</a>'
                   '<a href="https://example.org/">c</a><a href="../x.html">d</a></body>')
        problems = self.problems(copy, "index.html")
        for detail in ("'gone.html': no such file", "no id 'no-such-section' in small.html",
                       "'https://example.org/' points outside", "'../x.html' points outside"):
            self.assert_found(problems, "broken link", detail)

    def test_a_javascript_error_is_found(self) -> None:
        copy = self.broken_copy()
        matrix = copy / "tiny_matrix-matrix.html"
        # The heat map's script, asked for a panel that is not there, fails on its first line.
        replace_in(matrix, 'getElementById("cell-detail")', 'getElementById("no-panel")')
        self.assert_found(self.problems(copy, "tiny_matrix-matrix.html"), "JavaScript error",
                          "null")
        # An error a script reports without throwing reaches only the console.
        index = copy / "index.html"
        replace_in(index, "</body>",
                   '<script>console.error("reported, not thrown")</script></body>')
        self.assert_found(self.problems(copy, "index.html"), "JavaScript error",
                          "reported, not thrown")

    def test_an_empty_figure_is_found(self) -> None:
        copy = self.broken_copy()
        small = copy / "small.html"
        replace_in(small, "<img ", '<img style="width: 0" ', 1)
        self.assert_found(self.problems(copy, "small.html"), "empty figure", "is drawn 0 x")
        matrix = copy / "tiny_matrix-matrix.html"
        matrix.write_text(re.sub(r'<td class="c [^"]*"[^>]*>.*?</td>', "",
                                 matrix.read_text(encoding="utf-8")), encoding="utf-8")
        self.assert_found(self.problems(copy, "tiny_matrix-matrix.html"), "empty figure",
                          "a heat map has no cells")

    def test_a_page_too_large_is_found(self) -> None:
        copy = self.broken_copy()
        index = copy / "index.html"
        replace_in(index, "</body>", "<!--" + "x" * 1_000_000 + "--></body>")
        self.assert_found(self.problems(copy, "index.html"), "page too large", "bytes")


if __name__ == "__main__":
    GEOMINT, SCREENSHOTS = sys.argv[1], Path(sys.argv[2])
    del sys.argv[1:3]
    unittest.main(verbosity=2)
