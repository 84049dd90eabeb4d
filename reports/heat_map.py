"""The heat map: one coloured cell per model x integrator of a matrix study, on the matrix page
and on the index's first screen.

Rows are the models, grouped by the manifold their state lives on (manifolds.py); columns are
the integrators, grouped by family (cases.csv's `family`, geometric families first:
formatting.FAMILIES). A cell's colour and symbol give its state, combined from its rows of
verdicts.csv (matrix_verdict.cell_state): ✓ kept, ✗ broken, ? not checked, ≈ explained, and –
n/a (not checked: the model lacks the view the integrator needs), in the colours every page
uses for them (page_shell.CSS). Its label is the fitted order when the order was measured. The
legend counts each state's verdict rows (promises) and cells. Hovering a cell shows each
promise's state, value, bound and reason (its title); a click, Enter or Space opens them in a
detail panel with links to the model's figures, copied from its row header by a few lines of
inline JavaScript (no library, nothing fetched). The colours are from Okabe and Ito's palette,
which stays distinguishable under the common colour-vision deficiencies; the symbols tell the
states apart without colour. The map scrolls inside its own panel, never the page.
"""
from __future__ import annotations

import math
from html import escape
from typing import Callable

import manifolds
import page_shell
from figures import ExperimentFigures
from formatting import (FAMILIES, STATES, TimingMark, case_label, family_rank, fmt_float,
                        timing_mark, verdict_counts, verdict_state)
from matrix_verdict import CELL_STATES, Cell, Grid, cell_lines
from results import Row, Study

# What a cell of each state means, for the legend.
MEANINGS = {
    "kept": "every promise that applies measured and held",
    "broken": "a promise measured and not held",
    "not_checked": "a promise that could not be measured",
    "explained": "a known deviation, with its reason",
    "na": "the model lacks the view the integrator needs",
    "no_promise": "it ran, and no promise of its applies here (a long run's α and drift are "
                  "measured and shown, not judged)",
}

STYLE = """
.heatmap-panel { overflow: auto; max-width: 100%; max-height: 80vh; border: 1px solid #ccc;
                 margin: 0.5em 0; }
table.heatmap { border-collapse: separate; border-spacing: 2px; font-size: 0.72em; margin: 0; }
table.heatmap th { background: none; border: none; padding: 0.1em 0.3em; font-weight: normal; }
table.heatmap th.family { text-align: center; font-weight: bold; border-bottom: 2px solid #444; }
table.heatmap th.integrator { writing-mode: vertical-rl; transform: rotate(180deg);
                              white-space: nowrap; text-align: left; }
table.heatmap th.manifold { font-weight: bold; vertical-align: top; border-top: 2px solid #444; }
table.heatmap th.manifold, table.heatmap th.s0 { position: sticky; left: 0; z-index: 1;
                                                 background: #fff; width: 7em; min-width: 7em;
                                                 max-width: 7em; }
table.heatmap th.model, table.heatmap th.s1 { position: sticky; left: calc(7.6em + 2px);
                                              z-index: 1; background: #fff; white-space: nowrap; }
table.heatmap th.model small { color: #555; }
table.heatmap td.c { min-width: 2.2em; height: 1.8em; text-align: center; font-family: monospace;
                     border: 1px solid #888; cursor: pointer; padding: 0 0.15em;
                     white-space: nowrap; }
.c i { font-style: normal; font-weight: bold; margin-right: 0.1em; }
td.selected { outline: 3px solid #000; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3em 1.5em;
            margin: 0.5em 0; }
#cell-detail { position: fixed; right: 1em; bottom: 1em; max-width: 40em; max-height: 70vh;
               overflow: auto; background: #fff; border: 2px solid #444; padding: 0.5em 1em;
               box-shadow: 0 2px 8px rgba(0, 0, 0, 0.3); font-size: 0.9em; }
#cell-detail h3 { margin: 0.3em 2em 0.3em 0; font-size: 1em; }
#cell-detail ul { padding-left: 1.2em; margin: 0.3em 0; }
#cell-detail button { position: absolute; top: 0.3em; right: 0.3em; }
"""

# Fills the detail panel from a cell of any heat map on the page: its title's first line is the
# heading, the others the numbers; the links are the cell's row header's (the model's section
# and figures).
SCRIPT = """
(function () {
  var maps = document.querySelectorAll("table.heatmap");
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
  maps.forEach(function (map) {
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
    """The legend, the heat map in its scrolling panel and its (hidden) detail panel; figures:
    the study's, by experiment name."""
    mark = timing_mark(study.manifest)
    footnotes = "".join(f'<p class="note">{escape(f)}</p>'
                        for f in mark.footnotes(cells.integrators))
    return (legend(cells)
            + grid_table(study, cells, figures, lambda cell, family: _cell(cell, mark, family))
            + '<p class="note">Rows: models grouped by the manifold their state lives on; '
            "columns: integrators grouped by family, the peers (classical methods, reference "
            "solvers) last. A cell is broken if any of its promises is, else not checked if any "
            "is, else explained if any is, else kept (verdicts.csv). The label is the fitted "
            "order, where one was measured. Hover a cell for each promise's value, bound and "
            "reason; click it (or Enter) for them and the links to the model's figures.</p>"
            f"{footnotes}{DETAIL_PANEL}")


def grid_table(study: Study, cells: Grid, figures: dict[str, ExperimentFigures],
               draw: Callable[[Cell, str], str], table_id: str = "heatmap") -> str:
    """The grid of cells in its scrolling panel: rows the models grouped by manifold, columns
    the integrators grouped by family; draw(cell, its integrator's family) gives each cell's
    <td class="c ..." tabindex="0" title="...">, its first title line the detail panel's
    heading. A page can show more than one grid of the same cells (each its own table_id):
    the script opens the detail panel from any of them."""
    integrators = sorted(cells.integrators, key=lambda i: family_rank(cells.families[i]))
    groups: list[tuple[str, int]] = []  # (family, number of integrators), in column order
    for integrator in integrators:
        family = cells.families[integrator]
        if groups and groups[-1][0] == family:
            groups[-1] = (family, groups[-1][1] + 1)
        else:
            groups.append((family, 1))
    head = ('<tr><th class="s0"></th><th class="s1"></th>'
            + "".join(f'<th class="family" colspan="{n}">{escape(FAMILIES.get(f, f))}</th>'
                      for f, n in groups)
            + '</tr><tr><th class="s0" scope="col">manifold</th>'
            '<th class="s1" scope="col">model</th>'
            + "".join(f'<th class="integrator" scope="col">{escape(i)}</th>'
                      for i in integrators) + "</tr>")
    rows = []
    for manifold, experiments in _by_manifold(cells.rows):
        for index, experiment in enumerate(experiments):
            first = "" if index else (
                f'<th class="manifold" rowspan="{len(experiments)}" '
                f'title="{escape(manifold.blocks)}">{escape(manifold.label)}</th>')
            row = "".join(draw(cells.cell(experiment, i), cells.families[i])
                          for i in integrators)
            rows.append(f"<tr>{first}{_model_header(study, experiment, figures)}{row}</tr>")
    return (f'<div class="heatmap-panel"><table class="heatmap" id="{escape(table_id)}">{head}'
            f'{"".join(rows)}</table></div>')


def _by_manifold(experiments: list[dict]) -> list[tuple[manifolds.Manifold, list[dict]]]:
    """The experiments grouped by their model's manifold, in the order of each manifold's first
    experiment (the matrix runs the registry's order: the spheres first)."""
    groups: dict[manifolds.Manifold, list[dict]] = {}
    for experiment in experiments:
        model = str(experiment.get("model") or experiment["name"])
        groups.setdefault(manifolds.manifold_of(model), []).append(experiment)
    return list(groups.items())


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
    state = cell.state
    heading = (f"{cell.model} × {cell.integrator} ({FAMILIES.get(family, family)}): "
               f"{STATES[state][1]}")
    lines = [heading] + cell_lines(cell, mark)
    if state != "na":
        lines += [_case_line(case, mark) for case in cell.cases]
    return (f'<td class="c v-{state}" tabindex="0" title="{title_attribute(lines)}">'
            f"<i>{STATES[state][0]}</i>{escape(_label(cell))}</td>")


def title_attribute(lines: list[str]) -> str:
    """A cell's lines as its title attribute's value: the hover text, one line each, and what
    the script splits into the detail panel's heading and list."""
    return escape("\n".join(lines)).replace("\n", "&#10;")


def _label(cell: Cell) -> str:
    """The fitted order, to one decimal, where the order was measured (kept, broken or
    explained, with a finite value); "" for anything else."""
    order = cell.order_verdict()
    if order is None or order["state"] == "not_checked" or order["value"] is None \
            or not math.isfinite(order["value"]):
        return ""
    return f"{order['value']:.1f}"


def _case_line(case: Row, mark: TimingMark) -> str:
    """One case of the cell: its setting, status, global error and CPU time."""
    setting = case_label(case)[len(case["integrator"]) + 1:] or "case"
    return (f"{setting}: {case['status']}, global error {fmt_float(case['global_err'])}, "
            f"{fmt_float(case['cpu_s'])} s{mark.of(case['integrator'])}")


def legend_counts(cells: Grid) -> dict[str, tuple[int, int]]:
    """Per state: the verdict rows (promises) of verdicts.csv in it, and the cells. The n/a
    rows are not-checked ones (their why is n/a): "not_checked" counts them, "na" again."""
    promises = verdict_counts(cells.verdicts)
    promises["na"] = sum(verdict_state(row) == "na" for row in cells.verdicts)
    promises["no_promise"] = 0
    states = [cell.state for cell in cells.cells.values()]
    return {state: (promises[state], states.count(state)) for state in CELL_STATES}


def legend(cells: Grid) -> str:
    """A state per item, its symbol in its colours, what it means and how many promises and
    cells are in it (data-promises, data-cells: what the browser test compares with
    verdicts.csv)."""
    items = []
    for state, (promises, count) in legend_counts(cells).items():
        if state == "no_promise" and count == 0:
            continue  # only a long run's grid has such cells
        symbol, words = STATES[state]
        rows = (f"{promises} of the not-checked promises" if state == "na"
                else f"{promises} promise{'s' if promises != 1 else ''}")
        items.append(f'<li data-state="{state}" data-promises="{promises}" data-cells="{count}">'
                     f'<span class="v v-{state}">{symbol} {escape(words)}</span> '
                     f"{escape(MEANINGS[state])}: {rows}, {count} cell{'s' if count != 1 else ''}"
                     "</li>")
    return f'<ul class="legend">{"".join(items)}</ul>'
