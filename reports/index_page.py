"""index.html: the verdict at a glance, and the way to every study's page.

First a table with a row per study: the cases run and failed, the printed settings whose
reproduction is out of band, the promises broken. Then a section per study: the cases that
failed, its reproduction table (published, ours, the ratio, the setting) and the promises
broken, which for a matrix study are the cells matrix_verdict.judge finds broken and for any
other the fitted orders off their nominal ones (formatting.order_deviates). Everything else is
on the study's page.
"""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path

import matrix_verdict
import page_shell
from formatting import (ORDER_TOLERANCE, RATIO_BAND, case_label, fmt_count, fmt_order,
                        order_deviates, ratio_out_of_band, status_text)
from matrix_verdict import Grid
from page_shell import notes, num, row, table, td
from results import Row, Study
from study_page import reproduction_table

FAILED_SHOWN = 10  # failed cases named on the index, per study; the rest on its page

CSS = """
section h3 { margin-top: 1em; }
table.glance td, table.glance th { padding: 0.3em 0.7em; }
.clean { color: #0072b2; }
ul.broken li { margin: 0.2em 0; }
"""


@dataclass(frozen=True)
class Verdict:
    """What index.html says of one study."""

    run: int  # cases that ran (not n/a, not skipped)
    failed: int  # of those, the ones that did not finish
    not_run: int  # n/a and skipped cases
    out_of_band: int  # printed reproduction settings whose ratio is out of band
    broken: int  # matrix cells that broke a promise, or fitted orders off their nominal ones
    lines: list[str]  # what broke, in HTML lines (escaped): per model, or per fitted order


def write_index(path: Path, studies: list[Study], grids: dict[str, Grid]) -> None:
    """grids: the matrix studies' judged cells, by slug."""
    verdicts = [(study, verdict(study, grids.get(study.slug))) for study in studies]
    body = ("<h1>geomint report</h1>"
            '<p class="note">Every study has a page of its own, with its figures, fitted orders '
            "and cases; summary.md has the tables in Markdown.</p>"
            + _glance(verdicts)
            + "".join(_section(study, v) for study, v in verdicts))
    page_shell.write_page(path, "geomint report", body, CSS)


def verdict(study: Study, cells: Grid | None) -> Verdict:
    """cells: a matrix study's judged cells; None for any other study."""
    statuses = [c["status"] for c in study.cases]
    not_run = sum(s in ("n/a", "skipped") for s in statuses)
    failed = sum(s not in ("ok", "n/a", "skipped") for s in statuses)
    out_of_band = sum(ratio_out_of_band(r) for r in study.reproduction)
    if cells is not None:
        broken = sum(cell.kind == "broken" for cell in cells.cells.values())
        lines = _broken_cells(cells)
    else:
        deviating = [o for o in study.orders if order_deviates(o)]
        broken, lines = len(deviating), _deviating(study, deviating)
    return Verdict(len(statuses) - not_run, failed, not_run, out_of_band, broken, lines)


def _broken_cells(cells: Grid) -> list[str]:
    """Per model, the integrators that broke a promise, and which."""
    lines = []
    for experiment in cells.rows:
        broken = [cells.cell(experiment, i) for i in cells.integrators
                  if cells.cell(experiment, i).kind == "broken"]
        if broken:
            model = escape(broken[0].model)
            lines += [f"<b>{model}</b>: " + "; ".join(
                f"{escape(c.integrator)} ({escape(', '.join(c.notes))})" for c in broken)]
    return lines


def _deviating(study: Study, orders: list[Row]) -> list[str]:
    """Per experiment, linked to its section on the study's page, the fitted orders off their
    nominal ones."""
    by_experiment: dict[str, list[Row]] = {}
    for order in orders:
        by_experiment.setdefault(order["experiment"], []).append(order)
    lines = []
    for experiment, off in by_experiment.items():
        anchor = page_shell.experiment_anchor(study, experiment)
        lines.append(f'<a href="{escape(page_shell.study_file(study))}#{escape(anchor)}">'
                     f"{escape(experiment)}</a>: " + "; ".join(
                         f"{escape(o['integrator'])} fitted {escape(fmt_order(o['fitted_order']))}"
                         f" (nominal {escape(fmt_count(o['nominal_order']))})" for o in off))
    return lines


def _glance(verdicts: list[tuple[Study, Verdict]]) -> str:
    lines = []
    for study, v in verdicts:
        link = (f'<a href="#{escape(study.slug)}">{escape(study.title)}</a> '
                f"<small>({escape(study.name)})</small>")
        printed = sum(r["role"] == "printed" for r in study.reproduction)
        reproduction = f"{v.out_of_band} of {printed} out of band" if printed else "none"
        lines.append(row([td(link), num(str(v.run)), num(str(v.failed), "off" if v.failed else ""),
                          num(str(v.not_run)), td(escape(reproduction)),
                          num(str(v.broken), "off" if v.broken else "")]))
    low, high = RATIO_BAND
    return ("<h2>At a glance</h2>"
            + table(("study", "cases run", "failed", "n/a or skipped",
                     "printed reproduction settings", "promises broken"), lines, "glance")
            + '<p class="note">Promises broken: for the matrix, the cells that broke a promise; '
            f"for the other studies, the fitted orders more than {ORDER_TOLERANCE:g} off their "
            f"nominal ones. A reproduction ratio (ours / published) is out of band outside {low:g} "
            f"to {high:g}.</p>")


def _section(study: Study, v: Verdict) -> str:
    page = escape(page_shell.study_file(study))
    links = f'<a href="{page}">the study\'s page</a>'
    if matrix_verdict.is_matrix(study):
        links += f' · <a href="{escape(page_shell.matrix_file(study))}">the matrix page</a>'
    parts = [f'<section id="{escape(study.slug)}">',
             f'<h2><a href="{page}">{escape(study.title)}</a> '
             f"<small>({escape(study.name)})</small></h2>",
             f"<p>{v.run} cases run, {v.failed} failed"
             + (f", {v.not_run} n/a or skipped" if v.not_run else "") + f". {links}</p>"]
    failed = [c for c in study.cases if c["status"] not in ("ok", "n/a", "skipped")]
    if failed:
        parts.append(notes([f"Failed: {case['experiment']}, {case_label(case)}: "
                            f"{status_text(case)}" for case in failed[:FAILED_SHOWN]]
                           + ([f"and {len(failed) - FAILED_SHOWN} more on the study's page"]
                              if len(failed) > FAILED_SHOWN else [])))
    if study.reproduction:
        parts += ["<h3>Reproduction</h3>", reproduction_table(study.reproduction)]
    parts.append("<h3>Promises broken</h3>")
    if v.lines:
        parts.append('<ul class="broken">' + "".join(f"<li>{line}</li>" for line in v.lines)
                     + "</ul>")
    else:
        parts.append('<p class="clean">None: ' + (
            "no cell broke a promise (the matrix page shows the failed and n/a ones).</p>"
            if matrix_verdict.is_matrix(study) else
            f"every fitted order is within {ORDER_TOLERANCE:g} of its nominal one.</p>"))
    parts.append("</section>")
    return "\n".join(parts)
