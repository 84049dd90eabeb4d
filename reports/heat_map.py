"""The heat map at the top of the matrix page: one coloured cell per model x integrator.

Rows are the models, grouped by the manifold their state lives on (manifolds.py); columns are
the integrators, grouped by family (cases.csv's `family`, geometric families first:
formatting.FAMILIES). A cell's colour and symbol give its verdict (matrix_verdict.judge), its
label the fitted order of a fixed-step method. Hovering a cell shows its numbers (its title); a
click, Enter or Space opens them in a detail panel with links to the model's figures, copied
from its row header by a few lines of inline JavaScript (no library, nothing fetched). The
colours are from Okabe and Ito's palette, which stays distinguishable under the common
colour-vision deficiencies; the symbols tell the verdicts apart without colour.
"""
from __future__ import annotations

import math
from html import escape

import manifolds
import page_shell
from figures import ExperimentFigures
from formatting import (FAMILIES, TimingMark, case_label, family_rank, fmt_float,
                        timing_mark)
from matrix_verdict import PROMISES, Cell, Grid, cell_lines
from results import Row, Study

# verdict -> (symbol, what it means): the cells' classes and the legend, in the legend's order.
KINDS = {
    "kept": ("✓", "kept every promise that applies"),
    "broken": ("✗", "broke a promise (named in the cell's details)"),
    "failed": ("!", "a case failed (its failure kind named)"),
    "na": ("–", "n/a: the model lacks the view the integrator needs"),
    "unjudged": ("?", "no finished case to judge"),
}

STYLE = """
table.heatmap { border-collapse: separate; border-spacing: 2px; font-size: 0.75em; }
table.heatmap th { background: none; border: none; padding: 0.1em 0.3em; font-weight: normal; }
table.heatmap th.family { text-align: center; font-weight: bold; border-bottom: 2px solid #444; }
table.heatmap th.integrator { writing-mode: vertical-rl; transform: rotate(180deg);
                              white-space: nowrap; text-align: left; }
table.heatmap th.manifold { font-weight: bold; vertical-align: top; max-width: 10em;
                            border-top: 2px solid #444; }
table.heatmap th.model { white-space: nowrap; }
table.heatmap th.model small { color: #555; }
.c { min-width: 2.4em; height: 1.9em; text-align: center; font-family: monospace;
     border: 1px solid #888; cursor: pointer; padding: 0 0.2em; }
.c i { font-style: normal; font-weight: bold; margin-right: 0.15em; }
.c.kept { background: #0072b2; color: #fff; }
.c.broken { background: #d55e00; color: #fff; }
.c.failed { background: #f0e442; color: #000; }
.c.na { background: #e4e4e4; color: #555; }
.c.unjudged { background: #fff; color: #000; }
td.selected { outline: 3px solid #000; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4em 1.5em; }
ul.legend .c { display: inline-block; min-width: 1.8em; height: auto; cursor: default; }
#cell-detail { position: fixed; right: 1em; bottom: 1em; max-width: 30em; max-height: 70vh;
               overflow: auto; background: #fff; border: 2px solid #444; padding: 0.5em 1em;
               box-shadow: 0 2px 8px rgba(0, 0, 0, 0.3); font-size: 0.9em; }
#cell-detail h3 { margin: 0.3em 2em 0.3em 0; font-size: 1em; }
#cell-detail ul { padding-left: 1.2em; margin: 0.3em 0; }
#cell-detail button { position: absolute; top: 0.3em; right: 0.3em; }
"""

# Fills the detail panel from a cell: its title's first line is the heading, the others the
# numbers; the links are the cell's row header's (the model's section and figures).
SCRIPT = """
(function () {
  var map = document.getElementById("heatmap");
  var panel = document.getElementById("cell-detail");
  var selected = null;
  function open(cell) {
    var lines = cell.title.split("\\n");
    panel.querySelector("h3").textContent = lines[0];
    var list = panel.querySelector("ul");
    list.textContent = "";
    lines.slice(1).forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
    var links = panel.querySelector("p");
    links.textContent = "The model's cases and figures: ";
    cell.parentNode.querySelectorAll("th.model a").forEach(function (a) {
      links.appendChild(a.cloneNode(true));
      links.appendChild(document.createTextNode(" "));
    });
    if (selected) selected.classList.remove("selected");
    selected = cell;
    cell.classList.add("selected");
    panel.hidden = false;
  }
  function close() {
    panel.hidden = true;
    if (selected) selected.classList.remove("selected");
    selected = null;
  }
  map.addEventListener("click", function (event) {
    var cell = event.target.closest("td.c");
    if (cell) open(cell);
  });
  map.addEventListener("keydown", function (event) {
    var cell = event.target.closest("td.c");
    if (cell && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      open(cell);
    }
  });
  panel.querySelector("button").addEventListener("click", close);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") close();
  });
})();
"""

DETAIL_PANEL = ('<aside id="cell-detail" hidden aria-live="polite"><button type="button" '
                'aria-label="close">&times;</button><h3></h3><ul></ul><p></p></aside>')


def heat_map_html(study: Study, cells: Grid, figures: dict[str, ExperimentFigures]) -> str:
    """The legend, the heat map and its (hidden) detail panel; figures: the study's, by
    experiment name."""
    integrators = sorted(cells.integrators, key=lambda i: family_rank(cells.families[i]))
    groups: list[tuple[str, int]] = []  # (family, number of integrators), in column order
    for integrator in integrators:
        family = cells.families[integrator]
        if groups and groups[-1][0] == family:
            groups[-1] = (family, groups[-1][1] + 1)
        else:
            groups.append((family, 1))
    head = ('<tr><th colspan="2"></th>'
            + "".join(f'<th class="family" colspan="{n}">{escape(FAMILIES.get(f, f))}</th>'
                      for f, n in groups)
            + '</tr><tr><th scope="col">manifold</th><th scope="col">model</th>'
            + "".join(f'<th class="integrator" scope="col">{escape(i)}</th>'
                      for i in integrators) + "</tr>")
    mark = timing_mark(study.manifest)
    rows = []
    for manifold, experiments in _by_manifold(cells.rows):
        for index, experiment in enumerate(experiments):
            first = "" if index else (
                f'<th class="manifold" rowspan="{len(experiments)}" '
                f'title="{escape(manifold.blocks)}">{escape(manifold.label)}</th>')
            row = "".join(_cell(cells.cell(experiment, i), mark, cells.families[i])
                          for i in integrators)
            rows.append(f"<tr>{first}{_model_header(study, experiment, figures)}{row}</tr>")
    promises = "".join(f"<li>{escape(p)}</li>" for p in PROMISES)
    return ("<h2>Heat map</h2>" + _legend(cells)
            + f"<p>What each integrator declares, and is held to:</p><ul>{promises}</ul>"
            + '<p class="note">Rows: models grouped by the manifold their state lives on; '
            "columns: integrators grouped by family, the peers (classical methods, reference "
            "solvers) last. The label is the fitted order of a fixed-step method. Hover a cell "
            "for its numbers; click it (or Enter) for them and the links to the model's "
            "figures.</p>"
            f'<div class="scroll"><table class="heatmap" id="heatmap">{head}{"".join(rows)}'
            f"</table></div>{DETAIL_PANEL}")


def _by_manifold(experiments: list[dict]) -> list[tuple[manifolds.Manifold, list[dict]]]:
    """The experiments grouped by their model's manifold, in manifolds.MANIFOLDS' order."""
    groups: dict[manifolds.Manifold, list[dict]] = {}
    for experiment in experiments:
        model = str(experiment.get("model") or experiment["name"])
        groups.setdefault(manifolds.manifold_of(model), []).append(experiment)
    return sorted(groups.items(), key=lambda item: manifolds.MANIFOLDS.index(item[0]))


def _model_header(study: Study, experiment: dict, figures: dict[str, ExperimentFigures]) -> str:
    """The row's header: the model, linked to its section on the study's page, its preset,
    and links to the experiment's figures."""
    name = experiment["name"]
    section = f"{page_shell.study_file(study)}#{page_shell.experiment_anchor(study, name)}"
    drawn = figures[name].figures if name in figures else []
    links = " ".join(f'<a href="{escape(f.stem)}.png">{escape(f.plot.replace("_", "-"))}</a>'
                     for f in drawn if f.stem is not None)
    model = escape(str(experiment.get("model") or name))
    preset = escape(str(experiment.get("preset") or ""))
    return (f'<th class="model" scope="row"><a href="{escape(section)}" '
            f'title="its cases and figures on the study&#x27;s page">{model}</a> '
            f"<small>{preset}</small>" + (f"<br><small>{links}</small>" if links else "")
            + "</th>")


def _cell(cell: Cell, mark: TimingMark, family: str) -> str:
    symbol, meaning = KINDS[cell.kind]
    verdict = meaning if cell.kind != "broken" else "broke: " + ", ".join(cell.notes)
    heading = (f"{cell.model} × {cell.integrator} ({FAMILIES.get(family, family)}): "
               f"{verdict}")
    lines = [heading] + cell_lines(cell, mark)
    if cell.kind != "na":
        lines += [_case_line(case, mark) for case in cell.cases]
    title = escape("\n".join(lines)).replace("\n", "&#10;")
    return (f'<td class="c {cell.kind}" tabindex="0" title="{title}"><i>{symbol}</i>'
            f"{escape(_label(cell))}</td>")


def _label(cell: Cell) -> str:
    """The fitted order of a fixed-step method, to one decimal; "" for anything else."""
    order = cell.order
    if order is None or order["abscissa"] != "h" or order["fitted_order"] is None \
            or not math.isfinite(order["fitted_order"]):
        return ""
    return f"{order['fitted_order']:.1f}"


def _case_line(case: Row, mark: TimingMark) -> str:
    """One case of the cell: its setting, status, global error and CPU time."""
    setting = case_label(case)[len(case["integrator"]) + 1:] or "case"
    return (f"{setting}: {case['status']}, global error {fmt_float(case['global_err'])}, "
            f"{fmt_float(case['cpu_s'])} s{mark.of(case['integrator'])}")


def _legend(cells: Grid) -> str:
    counts = {kind: 0 for kind in KINDS}
    for cell in cells.cells.values():
        counts[cell.kind] += 1
    items = "".join(f'<li><span class="c {kind}"><i>{symbol}</i></span> {escape(meaning)} '
                    f"({counts[kind]})</li>"
                    for kind, (symbol, meaning) in KINDS.items())
    return f'<ul class="legend">{items}</ul>'
