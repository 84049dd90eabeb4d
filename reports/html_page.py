"""index.html: one self-contained static page with a section per study and experiment.

All text from the result files goes through html.escape; the page uses inline CSS
only and links nothing outside the report directory.
"""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any, Iterable

import matrix_page
from evocation_section import CaseEvocation, evocation_html
from figures import ExperimentFigures, StudyFigure
from formatting import (TimingMark, fmt_count, fmt_float, fmt_order, manifest_facts,
                        order_deviates, ratio_out_of_band, timing_mark)
from results import Row, Study, slug

CSS = """
body { font-family: sans-serif; margin: 2em; max-width: 110em; color: #222; }
h2 { border-bottom: 2px solid #444; margin-top: 2.5em; }
h3 { margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; }
th { background: #eee; }
td.num { text-align: right; font-family: monospace; }
.scroll { overflow-x: auto; }
tr.failed td { background: #fde2e2; }
tr.reproducing td { background: #e8f0fe; }
.tag { background: #1a56c4; color: #fff; border-radius: 3px; padding: 0 0.3em;
       font-size: 0.85em; }
.off { color: #c00; font-weight: bold; }
.below { color: #888; font-style: italic; }
.note { color: #555; font-size: 0.9em; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; }
figure { display: inline-block; margin: 0.5em 1em 0.5em 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
"""

CASE_COLUMNS = ("integrator", "h", "rtol", "atol", "status", "steps", "rejected", "f_evals",
                "cpu_s", "global_err", "energy_err_max", "energy_err_mean",
                "energy_drift_per_time", "momentum_err_max", "manifold_err_max",
                "tangency_err_max", "unit_length_err_mean")
COUNT_COLUMNS = {"steps", "rejected", "f_evals"}


def write_page(path: Path, studies: list[tuple[Study, dict[str, ExperimentFigures]]],
               across: dict[str, list[StudyFigure]] | None = None,
               evoked: dict[str, dict[str, list[CaseEvocation]]] | None = None) -> None:
    """Write the page; studies pairs each study with its figures by experiment name, across
    holds each study's study-level figures by its slug, evoked its experiments' pattern
    evocations by its slug and the experiment's name."""
    contents = "".join(f'<li><a href="#{escape(s.slug)}">{escape(s.title)}</a></li>'
                       for s, _ in studies)
    body = "".join(_study(study, figures, (across or {}).get(study.slug, []),
                          (evoked or {}).get(study.slug, {}))
                   for study, figures in studies)
    path.write_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>geomint report</title><style>{CSS}</style></head><body>"
        f"<h1>geomint report</h1><ul>{contents}</ul>{body}</body></html>\n",
        encoding="utf-8")


def _study(study: Study, figures: dict[str, ExperimentFigures],
           across: list[StudyFigure], evoked: dict[str, list[CaseEvocation]]) -> str:
    manifest = study.manifest
    facts = "".join(f"<dt>{escape(label)}</dt><dd>{escape(text)}</dd>"
                    for label, text in manifest_facts(manifest))
    parts = [f'<section id="{escape(study.slug)}">',
             f"<h2>{escape(study.title)} <small>({escape(study.name)})</small></h2>",
             f"<p>{escape(str(manifest.get('description', '')))}</p>",
             f'<dl class="facts">{facts}</dl>']
    if matrix_page.is_matrix(study):
        page = escape(matrix_page.page_name(study))
        parts.append(f'<p><a href="{page}">The integrator &times; model matrix</a>: one row per '
                     "model, one column per integrator, each cell coloured by whether the "
                     "integrator kept what it promises.</p>")
    if study.reproduction:
        parts += ["<h3>Reproduction</h3>", _reproduction_table(study.reproduction)]
    if across:
        parts += ["<h3>Across experiments</h3>"] + [_study_figure(f) for f in across]
    for experiment in study.experiments():
        parts.append(_experiment(study, experiment, figures[experiment["name"]],
                                 evoked.get(experiment["name"], [])))
    parts.append("</section>")
    return "\n".join(parts)


def _reproduction_table(rows: list[Row]) -> str:
    lines = []
    for row in rows:
        reproducing = row["role"] == "reproducing"
        role = escape(row["role"])
        if reproducing:
            role += ' <span class="tag">reproducing setting</span>'
        ratio = _num(fmt_float(row["ratio"]), "off" if ratio_out_of_band(row) else "")
        cells = [_td(escape(row[c])) for c in ("example", "method", "setting")]
        cells += [_td(role), _td(escape(row["metric"])), _num(fmt_float(row["published"])),
                  _num(fmt_float(row["ours"])), ratio, _td(escape(row["note"]))]
        lines.append(_row(cells, "reproducing" if reproducing else ""))
    return _table(("example", "method", "setting", "role", "metric", "published", "ours",
                   "ratio", "note"), lines)


def _experiment(study: Study, experiment: dict[str, Any], figures: ExperimentFigures,
                evocations: list[CaseEvocation]) -> str:
    name = experiment["name"]
    meta = " · ".join(f"{key}: {escape(str(experiment[key]))}"
                      for key in ("model", "preset", "T", "reference")
                      if experiment.get(key) not in (None, ""))
    parts = [f'<section id="{escape(study.slug)}-{escape(slug(name))}">',
             f"<h3>{escape(str(experiment.get('title') or name))} "
             f"<small>({escape(name)})</small></h3>",
             f"<p>{escape(str(experiment.get('description', '')))}</p>",
             f'<p class="note">{meta}</p>']
    for figure in figures.figures:
        if figure.stem is not None:
            src = escape(figure.stem)
            parts.append(f'<figure><a href="{src}.svg"><img src="{src}.png" '
                         f'alt="{escape(figure.plot)} plot"></a></figure>')
    parts.append(_notes(figures.notes + [f"{figure.plot}: {note}" for figure in figures.figures
                                         for note in figure.notes]))
    parts.append(evocation_html(experiment, evocations))
    orders = study.orders_of(name)
    parts.append("<h4>Fitted orders</h4>")
    parts.append(_orders_table(orders) if orders else
                 '<p class="note">No fitted orders for this experiment.</p>')
    cases = study.cases_of(name)
    parts.append("<h4>Cases</h4>")
    parts.append(_cases_table(cases, timing_mark(study.manifest)) if cases else
                 '<p class="note">No cases in this experiment.</p>')
    parts.append("</section>")
    return "\n".join(parts)


def _study_figure(figure: StudyFigure) -> str:
    """A study-level figure with the numbers it plots and its notes."""
    parts = [f'<h4 id="figure-{escape(slug(figure.name))}">{escape(figure.title)}</h4>']
    if figure.stem is not None:
        src = escape(figure.stem)
        parts.append(f'<figure><a href="{src}.svg"><img src="{src}.png" '
                     f'alt="{escape(figure.title)}"></a></figure>')
    if figure.table is not None:
        header, rows = figure.table
        parts.append(_table(header, [_row([_td(escape(row[0]))] + [_num(v) for v in row[1:]])
                                     for row in rows]))
    parts.append(_notes(figure.footnotes + figure.notes))
    return "\n".join(parts)


def _orders_table(orders: list[Row]) -> str:
    lines = [_row([_td(escape(o["integrator"])), _num(fmt_count(o["nominal_order"])),
                   _num(fmt_order(o["fitted_order"]), "off" if order_deviates(o) else ""),
                   _num(fmt_float(o["residual"])),
                   _num(f"{fmt_count(o['points_used'])}/{fmt_count(o['points_total'])}"),
                   _td(escape(o["note"]))])
             for o in orders]
    return _table(("integrator", "nominal", "fitted", "residual (log10)", "points used/total",
                   "note"), lines)


def _cases_table(cases: list[Row], mark: TimingMark) -> str:
    """Failed cases are highlighted with their failure time and message under the status; CPU
    times that mark flags carry it, with its footnote under the table."""
    lines = []
    ordered = sorted(cases, key=lambda c: (c["integrator"], c["h"] is None,
                                           -(c["h"] or c["rtol"] or 0.0)))
    for case in ordered:
        cells = []
        for column in CASE_COLUMNS:
            value = case[column]
            if column == "integrator":
                cells.append(_td(escape(value)))
            elif column == "status":
                cells.append(_td(_status(case)))
            elif column in COUNT_COLUMNS:
                cells.append(_num(fmt_count(value)))
            elif column == "global_err" and case["below_reference"] == 1:
                cells.append(_num(fmt_float(value), "below",
                                  "below 10 × the reference's error: not meaningful"))
            elif column == "cpu_s":
                cells.append(_num(fmt_float(value) + mark.of(case["integrator"])))
            else:
                cells.append(_num(fmt_float(value)))
        lines.append(_row(cells, "" if case["status"] == "ok" else "failed"))
    footnotes = mark.footnotes([case["integrator"] for case in cases])
    return _table(CASE_COLUMNS, lines) + _notes(footnotes)


def _status(case: Row) -> str:
    if case["status"] == "ok":
        return "ok"
    text = f"<strong>{escape(case['status'])}</strong>"
    if case["fail_time"] is not None:
        text += f" at t={escape(fmt_float(case['fail_time']))}"
    if case["status_detail"]:
        text += f'<br><span class="note">{escape(case["status_detail"])}</span>'
    return text


def _notes(notes: list[str]) -> str:
    if not notes:
        return ""
    return '<ul class="note">' + "".join(f"<li>{escape(n)}</li>" for n in notes) + "</ul>"


def _td(markup: str) -> str:
    return f"<td>{markup}</td>"


def _num(text: str, css_class: str = "", title: str = "") -> str:
    """A right-aligned numeric cell, optionally highlighted and with a tooltip."""
    attributes = f' title="{escape(title)}"' if title else ""
    return f'<td class="num {css_class}"{attributes}>{escape(text)}</td>'


def _row(cells: list[str], css_class: str = "") -> str:
    return f'<tr class="{css_class}">{"".join(cells)}</tr>'


def _table(headers: Iterable[str], rows: list[str]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    return f'<div class="scroll"><table><tr>{head}</tr>{"".join(rows)}</table></div>'
