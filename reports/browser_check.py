"""Checks a report folder as a reader sees it: every page in headless Chromium.

A page fails on
- a broken image: an <img> the browser could not decode (naturalWidth 0);
- a broken link: an <a href> (also one the page's script adds, e.g. the heat map's detail
  panel, opened on the first cell) that leaves the report folder, names a file that is not
  there, or a #fragment that is no id of its page;
- a JavaScript error: an uncaught error (window's error event, hooked before the page's own
  scripts run) or a SEVERE entry in the browser's console, which also names resources that
  did not load;
- an empty figure: an <img>, <svg> or <object> drawn with no width or height, a heat map
  without cells, or a matrix page (page_shell.matrix_file) without a heat map;
- a page of 1 MB or more;
- a page wider than the window (it scrolls sideways: wide content must scroll inside its own
  panel), at WINDOW's 1400 x 900;
- an index whose heat map (there is one when the results hold a matrix study) does not start
  on its first screen.

legend() reads a heat map's legend: per state the promises and cells it counts, for a test to
compare with the study's verdicts.csv.

Chromium and its driver are Debian's (packages chromium, chromium-driver), driven by Debian's
python3-selenium; nothing is fetched from the network. Only link_problem is needed without them.
"""
from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WINDOW = (1400, 900)  # the viewport; a fixed size: screenshots of one report compare across runs
PAGE_LIMIT = 1_000_000  # bytes

# Runs before any script of the page: keeps every uncaught error where the check can read it.
ERROR_HOOK = """
window.__pageErrors = [];
window.addEventListener("error", function (event) {
  if (event.target === window || !event.target) {
    window.__pageErrors.push(String(event.message));
  }
}, true);
"""

# What a page shows, read in one round trip after it loaded.
INSPECT = """
function size(e) {  // inside any border: a frame around nothing is still empty
  if (e.tagName.toLowerCase() !== "svg") return [e.clientWidth, e.clientHeight];
  var r = e.getBoundingClientRect();
  return [r.width, r.height];
}
return {
  images: Array.from(document.images).map(function (i) {
    return [i.getAttribute("src"), i.naturalWidth].concat(size(i)); }),
  drawings: Array.from(document.querySelectorAll("svg, object")).map(function (e) {
    return [e.tagName.toLowerCase()].concat(size(e)); }),
  heatMaps: Array.from(document.querySelectorAll("table.heatmap")).map(function (t) {
    return t.querySelectorAll("td.c").length; }),
  links: Array.from(document.querySelectorAll("a[href]")).map(function (a) {
    return a.getAttribute("href"); }),
  viewport: [document.documentElement.clientWidth, window.innerHeight],
  scrollWidth: document.documentElement.scrollWidth,
  heatMapTop: (function () {
    var map = document.querySelector("table.heatmap");
    return map ? map.getBoundingClientRect().top + window.scrollY : null; })()
};
"""

# The heat map legend's items: state, the counts it gives, and the text a reader sees.
LEGEND = """
return Array.from(document.querySelectorAll("ul.legend li[data-state]")).map(function (li) {
  return {state: li.dataset.state, promises: Number(li.dataset.promises),
          cells: Number(li.dataset.cells), text: li.textContent,
          shown: li.getBoundingClientRect().height > 0};
});
"""

# Opens the first heat map cell's detail panel and reads it back.
OPEN_CELL = """
var cell = document.querySelector("table.heatmap td.c");
cell.click();
var panel = document.getElementById("cell-detail");
if (!panel) return {shown: false, heading: "", lines: 0, links: []};
return {shown: !panel.hidden, heading: panel.querySelector("h3").textContent,
        lines: panel.querySelectorAll("li").length,
        links: Array.from(panel.querySelectorAll("a[href]")).map(function (a) {
          return a.getAttribute("href"); })};
"""


@dataclass(frozen=True)
class Problem:
    kind: str  # broken image, broken link, JavaScript error, empty figure, page too large,
    # page scrolls sideways, heat map below the first screen
    page: str  # the page's file name
    detail: str

    def __str__(self) -> str:
        return f"{self.page}: {self.kind}: {self.detail}"


class _Ids(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.update(value for name, value in attrs if name == "id" and value)


def _ids(path: Path, known: dict[Path, set[str]]) -> set[str]:
    if path not in known:
        parser = _Ids()
        parser.feed(path.read_text(encoding="utf-8", errors="replace"))
        known[path] = parser.ids
    return known[path]


def link_problem(report: Path, page: Path, href: str,
                 known: dict[Path, set[str]] | None = None) -> str | None:
    """Why href, on page in the report folder, does not resolve inside it; None when it does.
    known caches the ids of the pages read so far."""
    parts = urllib.parse.urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith("/"):
        return f"{href!r} points outside the report"
    target = (page.parent / urllib.parse.unquote(parts.path)).resolve() if parts.path else page
    root = report.resolve()
    if root not in target.parents:
        return f"{href!r} points outside the report"
    if not target.is_file():
        return f"{href!r}: no such file"
    fragment = urllib.parse.unquote(parts.fragment)
    if fragment and target.suffix == ".html" and \
            fragment not in _ids(target, {} if known is None else known):
        return f"{href!r}: no id {parts.fragment!r} in {target.name}"
    return None


class Browser:
    """Headless Chromium, one for every page checked; use it as a context manager."""

    def __init__(self) -> None:
        # Imported here: link_problem works without Selenium.
        from selenium import webdriver  # pylint: disable=import-outside-toplevel
        from selenium.webdriver.chrome import service  # pylint: disable=import-outside-toplevel

        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        # --no-sandbox: Chromium refuses to run as root with its sandbox (CI runs as root).
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", f"--window-size={WINDOW[0]},{WINDOW[1]}"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=service.Service(executable_path=CHROMEDRIVER),
                                       options=options)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                    {"source": ERROR_HOOK})
        # The viewport itself WINDOW, whatever the window's frame takes.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": WINDOW[0], "height": WINDOW[1],
                                     "deviceScaleFactor": 1, "mobile": False})

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: Any) -> None:
        self.driver.quit()

    def check_report(self, report: Path,
                     screenshots: dict[str, Path] | None = None) -> list[Problem]:
        """The problems of every page (*.html) in the report folder; screenshots: page file
        name -> where to save a screenshot of its first screen."""
        known: dict[Path, set[str]] = {}
        problems = []
        for page in sorted(report.glob("*.html")):
            problems += self.check_page(report, page, known)
            if screenshots and page.name in screenshots:
                screenshots[page.name].parent.mkdir(parents=True, exist_ok=True)
                self.driver.save_screenshot(str(screenshots[page.name]))
        return problems

    def legend(self, page: Path) -> list[dict[str, Any]]:
        """The heat map legend of a page: per item its state, promises, cells, its text and
        whether it is drawn."""
        self.driver.get(page.resolve().as_uri())
        return list(self.driver.execute_script(LEGEND))

    def check_page(self, report: Path, page: Path,
                   known: dict[Path, set[str]] | None = None) -> list[Problem]:
        def problem(kind: str, detail: str) -> Problem:
            return Problem(kind, page.name, detail)

        problems = []
        size = page.stat().st_size
        if size >= PAGE_LIMIT:
            problems.append(problem("page too large", f"{size} bytes"))
        self.driver.get(page.resolve().as_uri())
        seen = self.driver.execute_script(INSPECT)
        links = list(seen["links"])
        if seen["heatMaps"] and all(seen["heatMaps"]):
            opened = self.driver.execute_script(OPEN_CELL)
            if not (opened["shown"] and opened["heading"] and opened["lines"]):
                problems.append(problem("empty figure", f"the heat map's detail panel shows "
                                                        f"nothing: {opened}"))
            links += opened["links"]
        for src, natural_width, width, height in seen["images"]:
            if natural_width == 0:
                problems.append(problem("broken image", f"{src!r} did not load"))
            elif width == 0 or height == 0:
                problems.append(problem("empty figure", f"{src!r} is drawn {width} x {height}"))
        for tag, width, height in seen["drawings"]:
            if width == 0 or height == 0:
                problems.append(problem("empty figure", f"an <{tag}> is drawn {width} x {height}"))
        if any(count == 0 for count in seen["heatMaps"]):
            problems.append(problem("empty figure", "a heat map has no cells"))
        if page.name.endswith("-matrix.html") and not seen["heatMaps"]:
            problems.append(problem("empty figure", "the matrix page has no heat map"))
        width, height = seen["viewport"]
        if seen["scrollWidth"] > width:
            problems.append(problem("page scrolls sideways", f"{seen['scrollWidth']} px wide, "
                                                             f"the window shows {width} px"))
        if page.name == "index.html" and seen["heatMapTop"] is not None \
                and seen["heatMapTop"] >= height:
            problems.append(problem("heat map below the first screen",
                                    f"it starts {seen['heatMapTop']:.0f} px down, the window is "
                                    f"{height} px high"))
        for href in links:
            why = link_problem(report, page, href, known)
            if why:
                problems.append(problem("broken link", why))
        errors = list(self.driver.execute_script("return window.__pageErrors || [];"))
        # The console repeats each uncaught error, after its place: once is enough.
        errors += [entry["message"] for entry in self.driver.get_log("browser")
                   if entry["level"] == "SEVERE"
                   and not any(entry["message"].endswith(error) for error in errors)]
        problems += [problem("JavaScript error", error) for error in errors]
        return problems
