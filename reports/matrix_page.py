"""The matrix page of a `geomint matrix` result directory: the heat map (heat_map.py), then
every cell in detail.

One row per model (experiment), one column per integrator. A cell shows the observed order
(fixed-step methods), the relative energy error, the energy drift (least-squares slope of
E(t) - E(0)) and the largest manifold defect at the finest setting, and the cost there (CPU
time, evaluations). Its colour says whether the integrator kept what it declares
(matrix_verdict.py), in lighter shades of the heat map's: blue, every promise that applies is
kept; vermilion, one is broken (named in the cell); yellow, a case failed (its failure kind is
shown); grey, n/a, the model lacks the view the integrator needs (named).
"""
from __future__ import annotations

from html import escape
from pathlib import Path

import heat_map
import matrix_verdict
import page_shell
from figures import ExperimentFigures
from formatting import TimingMark, timing_mark
from matrix_verdict import Cell, Grid
from results import Study

STYLE = """
table.matrix { font-size: 0.8em; }
table.matrix th, table.matrix td { border: 1px solid #bbb; padding: 0.3em 0.5em;
                                   vertical-align: top; }
table.matrix td.kept { background: #d4e6f4; } table.matrix td.broken { background: #f7d7c4; }
table.matrix td.failed { background: #f9f4c4; }
table.matrix td.na { background: #ececec; color: #666; }
table.matrix td.unjudged { background: #fff; }
.why { color: #a33c00; font-weight: bold; }
"""


def _table_cell(cell: Cell, mark: TimingMark) -> str:
    lines = [escape(line) for line in matrix_verdict.cell_lines(cell, mark)]
    if cell.kind == "na":
        return f'<td class="na" title="{lines[0]}">{lines[0]}</td>'
    if cell.kind == "broken":
        lines[-1] = f'<span class="why">{lines[-1]}</span>'
    return f'<td class="{cell.kind}">' + "<br>".join(lines) + "</td>"


def matrix_table(study: Study, cells: Grid) -> str:
    """The detailed table: one row per model, one column per integrator, each cell with its
    numbers, coloured as its verdict in the heat map but lighter."""
    head = "<tr><th>model</th>" + "".join(f"<th>{escape(i)}</th>"
                                          for i in cells.integrators) + "</tr>"
    mark = timing_mark(study.manifest)
    rows = []
    for experiment in cells.rows:
        row = "".join(_table_cell(cells.cell(experiment, i), mark) for i in cells.integrators)
        model = escape(str(experiment.get("model", experiment["name"])))
        rows.append(f"<tr><th>{model}<br><small>{escape(str(experiment.get('preset', '')))}"
                    "</small></th>" + row + "</tr>")
    footnotes = "".join(f"<p>{escape(f)}</p>" for f in mark.footnotes(cells.integrators))
    return (f'<div class="scroll"><table class="matrix">{head}{"".join(rows)}</table></div>'
            f"{footnotes}")


def write_matrix_page(path: Path, study: Study, cells: Grid,
                      figures: dict[str, ExperimentFigures]) -> None:
    """The heat map, then the detailed table; cells: the study's, judged; figures: the
    study's, by experiment name (the heat map links each model's)."""
    body = (f"<h1>{escape(study.title)}</h1>"
            + heat_map.heat_map_html(study, cells, figures)
            + "<h2>Every cell in detail</h2>" + matrix_table(study, cells))
    page_shell.write_page(path, study.title, body, STYLE + heat_map.STYLE, heat_map.SCRIPT)
