"""<slug>.html: one study's page, a section per experiment with its figures, fitted orders and
cases, and the study's reproduction table and study-level figures.

All text from the result files goes through html.escape; figures are PNG files shown from the
report's figures/ folder, each linked to its SVG; nothing is linked outside the report.
"""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

import matrix_verdict
import page_shell
from evocation_section import CaseEvocation, evocation_html
from figures import ExperimentFigures, StudyFigure
from formatting import (TimingMark, fmt_count, fmt_float, fmt_order, manifest_facts,
                        order_deviates, ratio_out_of_band, timing_mark)
from page_shell import notes, num, row, table, td
from results import Row, Study, slug

CASE_COLUMNS = ("integrator", "h", "rtol", "atol", "status", "steps", "rejected", "f_evals",
                "cpu_s", "global_err", "energy_err_max", "energy_err_mean",
                "energy_drift_per_time", "momentum_err_max", "manifold_err_max",
                "tangency_err_max", "unit_length_err_mean")
COUNT_COLUMNS = {"steps", "rejected", "f_evals"}
TEXT_COLUMNS = ("integrator", "status")
# The cases table's numbers right-aligned by their column, not by a class on every cell.
CASES_CSS = ("table.cases td { text-align: right; font-family: monospace; }\n"
             + ", ".join(f"table.cases td:nth-child({CASE_COLUMNS.index(c) + 1})"
                         for c in TEXT_COLUMNS)
             + " { text-align: left; font-family: inherit; }\n")


def write_study_page(path: Path, study: Study, figures: dict[str, ExperimentFigures],
                     across: list[StudyFigure], evoked: dict[str, list[CaseEvocation]]) -> None:
    """figures: the study's experiments' figures by experiment name; across: its study-level
    figures; evoked: its experiments' pattern evocations by experiment name."""
    page_shell.write_page(path, study.title, _study(study, figures, across, evoked), CASES_CSS)


def _study(study: Study, figures: dict[str, ExperimentFigures],
           across: list[StudyFigure], evoked: dict[str, list[CaseEvocation]]) -> str:
    manifest = study.manifest
    facts = "".join(f"<dt>{escape(label)}</dt><dd>{escape(text)}</dd>"
                    for label, text in manifest_facts(manifest))
    parts = [f'<section id="{escape(study.slug)}">',
             f"<h1>{escape(study.title)} <small>({escape(study.name)})</small></h1>",
             f"<p>{escape(str(manifest.get('description', '')))}</p>",
             f'<dl class="facts">{facts}</dl>']
    if matrix_verdict.is_matrix(study):
        page = escape(page_shell.matrix_file(study))
        parts.append(f'<p><a href="{page}">The integrator &times; model matrix</a>: a heat map '
                     "with one cell per model and integrator, coloured by whether the "
                     "integrator kept what it promises, then every cell's numbers.</p>")
    contents = "".join(
        f'<li><a href="#{escape(page_shell.experiment_anchor(study, e["name"]))}">'
        f'{escape(str(e.get("title") or e["name"]))}</a></li>' for e in study.experiments())
    parts.append(f"<h2>Experiments</h2><ul>{contents}</ul>")
    if study.reproduction:
        parts += ["<h2>Reproduction</h2>", reproduction_table(study.reproduction)]
    if across:
        parts += ["<h2>Across experiments</h2>"] + [_study_figure(f) for f in across]
    for experiment in study.experiments():
        parts.append(_experiment(study, experiment, figures[experiment["name"]],
                                 evoked.get(experiment["name"], [])))
    parts.append("</section>")
    return "\n".join(parts)


def reproduction_table(rows: list[Row]) -> str:
    """The published numbers next to ours; a printed setting out of band is flagged."""
    lines = []
    for item in rows:
        reproducing = item["role"] == "reproducing"
        role = escape(item["role"])
        if reproducing:
            role += ' <span class="tag">reproducing setting</span>'
        ratio = num(fmt_float(item["ratio"]), "off" if ratio_out_of_band(item) else "")
        cells = [td(escape(item[c])) for c in ("example", "method", "setting")]
        cells += [td(role), td(escape(item["metric"])), num(fmt_float(item["published"])),
                  num(fmt_float(item["ours"])), ratio, td(escape(item["note"]))]
        lines.append(row(cells, "reproducing" if reproducing else ""))
    return table(("example", "method", "setting", "role", "metric", "published", "ours",
                  "ratio", "note"), lines)


def _experiment(study: Study, experiment: dict[str, Any], figures: ExperimentFigures,
                evocations: list[CaseEvocation]) -> str:
    name = experiment["name"]
    meta = " · ".join(f"{key}: {escape(str(experiment[key]))}"
                      for key in ("model", "preset", "T", "reference")
                      if experiment.get(key) not in (None, ""))
    parts = [f'<section id="{escape(page_shell.experiment_anchor(study, name))}">',
             f"<h2>{escape(str(experiment.get('title') or name))} "
             f"<small>({escape(name)})</small></h2>",
             f"<p>{escape(str(experiment.get('description', '')))}</p>",
             f'<p class="note">{meta}</p>']
    for figure in figures.figures:
        if figure.stem is not None:
            src = escape(figure.stem)
            parts.append(f'<figure><a href="{src}.svg"><img src="{src}.png" '
                         f'alt="{escape(figure.plot)} plot"></a></figure>')
    parts.append(notes(figures.notes + [f"{figure.plot}: {note}" for figure in figures.figures
                                        for note in figure.notes]))
    parts.append(evocation_html(experiment, evocations))
    orders = study.orders_of(name)
    parts.append("<h3>Fitted orders</h3>")
    parts.append(_orders_table(orders) if orders else
                 '<p class="note">No fitted orders for this experiment.</p>')
    cases = study.cases_of(name)
    ran = [c for c in cases if c["status"] != "n/a"]
    parts.append("<h3>Cases</h3>")
    parts.append(_cases_table(ran, timing_mark(study.manifest)) if ran else
                 '<p class="note">No cases in this experiment.</p>' if not cases else "")
    parts.append(_not_applicable([c for c in cases if c["status"] == "n/a"]))
    parts.append("</section>")
    return "\n".join(parts)


def _study_figure(figure: StudyFigure) -> str:
    """A study-level figure with the numbers it plots and its notes."""
    parts = [f'<h3 id="figure-{escape(slug(figure.name))}">{escape(figure.title)}</h3>']
    if figure.stem is not None:
        src = escape(figure.stem)
        parts.append(f'<figure><a href="{src}.svg"><img src="{src}.png" '
                     f'alt="{escape(figure.title)}"></a></figure>')
    if figure.table is not None:
        header, rows = figure.table
        parts.append(table(header, [row([td(escape(r[0]))] + [num(v) for v in r[1:]])
                                    for r in rows]))
    parts.append(notes(figure.footnotes + figure.notes))
    return "\n".join(parts)


def _orders_table(orders: list[Row]) -> str:
    lines = [row([td(escape(o["integrator"])), num(fmt_count(o["nominal_order"])),
                  num(fmt_order(o["fitted_order"]), "off" if order_deviates(o) else ""),
                  num(fmt_float(o["residual"])),
                  num(f"{fmt_count(o['points_used'])}/{fmt_count(o['points_total'])}"),
                  td(escape(o["note"]))])
             for o in orders]
    return table(("integrator", "nominal", "fitted", "residual (log10)", "points used/total",
                  "note"), lines)


def _cases_table(cases: list[Row], mark: TimingMark) -> str:
    """Failed cases are highlighted with their failure time and message under the status; CPU
    times that mark flags carry it, with its footnote under the table. Numbers are plain cells,
    right-aligned by the table's style (CASES_CSS): a matrix study has thousands of cases."""
    lines = []
    ordered = sorted(cases, key=lambda c: (c["integrator"], c["h"] is None,
                                           -(c["h"] or c["rtol"] or 0.0)))
    for case in ordered:
        cells = []
        for column in CASE_COLUMNS:
            value = case[column]
            if column == "integrator":
                cells.append(td(escape(value)))
            elif column == "status":
                cells.append(td(_status(case)))
            elif column in COUNT_COLUMNS:
                cells.append(td(escape(fmt_count(value))))
            elif column == "global_err" and case["below_reference"] == 1:
                cells.append('<td class="below" title="below 10 × the reference&#x27;s error: '
                             f'not meaningful">{escape(fmt_float(value))}</td>')
            elif column == "cpu_s":
                cells.append(td(escape(fmt_float(value) + mark.of(case["integrator"]))))
            else:
                cells.append(td(escape(fmt_float(value))))
        lines.append(row(cells, "" if case["status"] == "ok" else "failed"))
    footnotes = mark.footnotes([case["integrator"] for case in cases])
    return table(CASE_COLUMNS, lines, "cases") + notes(footnotes)


def _not_applicable(cases: list[Row]) -> str:
    """The n/a cases in a line per reason (the view the model lacks) rather than as rows of
    empty cells: a matrix study has hundreds."""
    by_reason: dict[str, list[str]] = {}
    for case in cases:
        integrators = by_reason.setdefault(case["status_detail"] or "n/a", [])
        if case["integrator"] not in integrators:
            integrators.append(case["integrator"])
    return notes([f"{reason}: {', '.join(integrators)}"
                  for reason, integrators in by_reason.items()])


def _status(case: Row) -> str:
    if case["status"] == "ok":
        return "ok"
    text = f"<strong>{escape(case['status'])}</strong>"
    if case["fail_time"] is not None:
        text += f" at t={escape(fmt_float(case['fail_time']))}"
    if case["status_detail"]:
        text += f'<br><span class="note">{escape(case["status_detail"])}</span>'
    return text
