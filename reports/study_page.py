"""<slug>.html: one study's page, a section per experiment with its figures, its verdicts
(verdicts.csv), its fitted orders in their windows (orders.csv) and its cases, and the study's
reproduction and claims tables and study-level figures.

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
from formatting import (RATIO_BAND, STATES, TimingMark, band, band_text, fmt_bound,
                        fmt_correlation, fmt_count, fmt_float, fmt_ratio, fmt_value,
                        manifest_facts, timing_mark, verdict_counts, verdict_state)
from page_shell import badge, claim_badge, notes, num, row, table, td, verdict_badge
from results import Row, Study, slug

CASE_COLUMNS = ("integrator", "h", "rtol", "atol", "status", "steps", "rejected", "f_evals",
                "cpu_s", "global_err", "energy_err_max", "energy_err_mean",
                "energy_drift_per_time", "momentum_err_max", "manifold_err_max",
                "tangency_err_max", "unit_length_err_mean")
COUNT_COLUMNS = {"steps", "rejected", "f_evals"}
TEXT_COLUMNS = ("integrator", "status")
# The cases table's numbers right-aligned by their column, not by a class on every cell.
VERDICT_COLUMNS = ("integrator", "promise", "state", "value", "bound", "reason")
ORDER_COLUMNS = ("integrator", "nominal", "fitted order", "verdict",
                 "slope vs mean step (adaptive)", "window", "points used/total",
                 "local slopes (largest h first; window highlighted)", "|p/p_nominal − 1|",
                 "correlation", "residual (log10)", "steps added", "note")


def _numbers_right(table_class: str, columns: tuple[str, ...], numbers: tuple[str, ...]) -> str:
    """CSS right-aligning a table's number columns, by position."""
    return (", ".join(f"table.{table_class} td:nth-child({columns.index(c) + 1})"
                      for c in numbers) + " { text-align: right; font-family: monospace; "
            "white-space: nowrap; }\n")


CASES_CSS = ("table.cases td { text-align: right; font-family: monospace; }\n"
             + ", ".join(f"table.cases td:nth-child({CASE_COLUMNS.index(c) + 1})"
                         for c in TEXT_COLUMNS)
             + " { text-align: left; font-family: inherit; }\n"
             + "span.window { background: #d4e6f4; font-weight: bold; padding: 0 0.15em; }\n"
             + _numbers_right("verdicts", VERDICT_COLUMNS, ("value", "bound"))
             + _numbers_right("orders", ORDER_COLUMNS, (
                 "nominal", "fitted order", "slope vs mean step (adaptive)", "window",
                 "points used/total", "local slopes (largest h first; window highlighted)",
                 "|p/p_nominal − 1|", "correlation", "residual (log10)", "steps added")))


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
    counts = verdict_counts(study.verdicts)
    parts = [f'<section id="{escape(study.slug)}">',
             f"<h1>{escape(study.title)} <small>({escape(study.name)})</small></h1>",
             "<p>Promises (verdicts.csv): " + ", ".join(
                 badge(state, f"{counts[state]} {STATES[state][1]}") for state in counts)
             + ".</p>",
             _broken_list(study),
             f"<p>{escape(str(manifest.get('description', '')))}</p>",
             f'<dl class="facts">{facts}</dl>']
    if matrix_verdict.is_matrix(study):
        page = escape(page_shell.matrix_file(study))
        parts.append(f'<p><a href="{page}">The integrator &times; model matrix</a>: a heat map '
                     "with one cell per model and integrator in the state of its promises "
                     "(verdicts.csv), and every verdict that is not kept.</p>")
    contents = "".join(
        f'<li><a href="#{escape(page_shell.experiment_anchor(study, e["name"]))}">'
        f'{escape(str(e.get("title") or e["name"]))}</a> '
        + _state_counts(study.verdicts_of(e["name"])) + "</li>" for e in study.experiments())
    parts.append(f"<h2>Experiments</h2><ul>{contents}</ul>")
    if study.reproduction:
        parts += ["<h2>Reproduction</h2>", reproduction_table(study.reproduction)]
    if study.claims:
        parts += ['<h2 id="claims">Claims</h2>', claims_table(study.claims)]
    if across:
        parts += ["<h2>Across experiments</h2>"] + [_study_figure(f) for f in across]
    for experiment in study.experiments():
        parts.append(_experiment(study, experiment, figures[experiment["name"]],
                                 evoked.get(experiment["name"], [])))
    parts.append("</section>")
    return "\n".join(parts)


def _state_counts(verdicts: list[Row]) -> str:
    """The states that occur among these verdicts, each a badge with its count."""
    counts = verdict_counts(verdicts)
    return " ".join(badge(state, str(count)) for state, count in counts.items() if count)


def _broken_list(study: Study) -> str:
    """The promises broken, each linked to its experiment's verdicts; "" when none is."""
    broken = [v for v in study.verdicts if v["state"] == "broken"]
    if not broken:
        return ""
    items = "".join(
        f'<li><a href="#{escape(verdicts_anchor(study, v["experiment"]))}">'
        f'{escape(v["experiment"])}</a>: <b>{escape(v["integrator"])}</b> '
        f'{escape(v["promise"])} {verdict_badge(v)} {escape(fmt_value(v))} '
        f'(bound {escape(fmt_bound(v))}): {escape(v["reason"])}</li>' for v in broken)
    return f"<p>Broken:</p><ul>{items}</ul>"


def verdicts_anchor(study: Study, experiment: str) -> str:
    """The id of an experiment's verdicts table on its study's page."""
    return f"{page_shell.experiment_anchor(study, experiment)}-verdicts"


def reproduction_table(rows: list[Row]) -> str:
    """The published numbers next to ours and each row's band, as reproduction.csv gives it: a
    round-off row is "round-off level" (no band verdict); a row out of band is flagged, a
    reproducing one as "reproducing setting, out of band"."""
    lines = []
    for item in rows:
        reproducing = item["role"] == "reproducing"
        role = '<span class="tag">reproducing setting</span>' if reproducing else \
            escape(item["role"])
        kind = band(item)
        if kind == "round_off":
            ratio = ('<td class="num below" title="a ratio of two round-off numbers: it means '
                     f'nothing">{escape(fmt_ratio(item["ratio"]))}</td>')
            verdict = td(f'<span class="below">{escape(band_text(item))}</span>')
        else:
            ratio = num(fmt_ratio(item["ratio"]), "off" if kind == "out" else "")
            verdict = (td(f'<span class="off">{escape(band_text(item))}</span>') if kind == "out"
                       else td(escape(band_text(item))))
        cells = [td(escape(item[c])) for c in ("example", "method", "setting")]
        cells += [td(role), td(escape(item["metric"])), num(fmt_float(item["published"])),
                  num(fmt_float(item["ours"])), ratio, verdict, td(escape(item["note"]))]
        lines.append(row(cells, "reproducing" if reproducing else ""))
    low, high = RATIO_BAND
    return (table(("example", "method", "setting", "role", "metric", "published", "ours",
                   "ratio", "band", "note"), lines, "reproduction")
            + f'<p class="note">In band: the ratio ours / published lies in [{low:g}, {high:g}] '
            "(reproduction.csv's in_band). Round-off level: ours and the published figure are "
            "both round-off, so their ratio means nothing; such a row is in no band count.</p>")


def claims_table(rows: list[Row]) -> str:
    """The papers' checkable claims (claims.csv): the claim, where the paper makes it, what we
    measured against what bound, held or not, and on which cases."""
    lines = [row([td(escape(c["claim"])), td(escape(c["where"])), td(escape(c["experiment"])),
                  td(escape(c["metric"])), td(escape(c["integrators"].replace(";", ", ")
                                                     or "every case")),
                  num(fmt_float(c["measured"])), num(fmt_bound(c)), td(claim_badge(c)),
                  td(escape(c["reason"]))]) for c in rows]
    return table(("claim", "where", "experiment", "metric", "integrators", "measured", "bound",
                  "state", "reason"), lines, "claims")


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
    verdicts = study.verdicts_of(name)
    parts.append(f'<h3 id="{escape(verdicts_anchor(study, name))}">Verdicts</h3>')
    parts.append(_verdicts_table(verdicts, page_shell.matrix_file(study)
                                 if matrix_verdict.is_matrix(study) else None) if verdicts else
                 '<p class="note">No verdicts for this experiment.</p>')
    orders = study.orders_of(name)
    cases = study.cases_of(name)
    parts.append("<h3>Fitted orders</h3>")
    parts.append(_orders_table(orders, verdicts) if orders else
                 '<p class="note">No fitted orders for this experiment.</p>')
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


def _verdicts_table(verdicts: list[Row], heat_map: str | None = None) -> str:
    """A row per integrator and promise: its state, value, bound and reason. The n/a rows (the
    model lacks the view the integrator needs) are a line per reason under the table. Plain
    cells, aligned by the table's style. heat_map: for a matrix study, its matrix page, where
    the kept promises' numbers are (its heat map); they are then a line here, to keep a page
    of a thousand verdicts and two thousand cases under the size limit."""
    shown = [v for v in verdicts if verdict_state(v) != "na"]
    kept_line = ""
    if heat_map is not None:
        kept: dict[str, list[str]] = {}
        for v in shown:
            if v["state"] == "kept":
                kept.setdefault(v["promise"], []).append(v["integrator"])
        shown = [v for v in shown if v["state"] != "kept"]
        if kept:
            kept_line = (f'<p>{badge("kept", "kept")} ' + "; ".join(
                f"{escape(promise)}: {escape(', '.join(integrators))}"
                for promise, integrators in kept.items())
                + f'. Their values, bounds and reasons are in <a href="{escape(heat_map)}">the '
                "heat map</a>'s cells.</p>")
    lines = [row([td(escape(v["integrator"])), td(escape(v["promise"])), td(verdict_badge(v)),
                  td(escape(fmt_value(v))), td(escape(fmt_bound(v))), td(escape(v["reason"]))])
             for v in shown]
    by_reason: dict[str, list[str]] = {}
    for v in verdicts:
        if verdict_state(v) == "na":
            found = by_reason.setdefault(v["reason"] or "n/a", [])
            if v["integrator"] not in found:
                found.append(v["integrator"])
    na = [f"– not checked, {reason}: {', '.join(integrators)}"
          for reason, integrators in by_reason.items()]
    return (kept_line + (table(VERDICT_COLUMNS, lines, "verdicts") if lines else "")
            + notes(na))


def window_slopes(order: Row) -> range | None:
    """Which of the order's local slopes lie in its window (orders.csv: window_first and the
    points_used - 1 slopes from there); None when there is no window."""
    first, used = order["window_first"], int(order["points_used"] or 0)
    if first is None or used < 2:
        return None
    return range(int(first), int(first) + used - 1)


def _slopes_html(order: Row) -> str:
    """The local slopes, largest h first, the window's highlighted."""
    window = window_slopes(order) or range(0)
    return " ".join(f'<span class="window">{s:.2f}</span>' if i in window else f"{s:.2f}"
                    for i, s in enumerate(order["local_slopes"]))


def _window(order: Row) -> str:
    if order["window_largest"] is None or order["window_smallest"] is None:
        return ""
    return f"h = {order['window_largest']:.4g} .. {order['window_smallest']:.4g}"


def _orders_table(orders: list[Row], verdicts: list[Row]) -> str:
    """Fixed-step methods: the fitted order over the window, its local slopes (the window's
    highlighted) and the fit's quality. Adaptive ones: the slope of the error against the mean
    step, in a column of its own, never called an order. A kept order whose window has fewer
    than three points contradicts orders.csv's definition: it is flagged. The pairs whose order
    is n/a (nothing ran) are left out: the verdicts name them. Plain cells, aligned by the
    table's style (ORDERS_CSS)."""
    states = {v["integrator"]: v for v in verdicts if v["promise"] == "order"}
    lines = []
    for o in orders:
        adaptive = o["abscissa"] != "h"
        verdict = states.get(o["integrator"])
        if verdict is not None and verdict_state(verdict) == "na":
            continue
        used = int(o["points_used"] or 0)
        if verdict is not None and verdict["state"] == "kept" and used < 3:
            points = ('<td class="off" title="a kept order needs a window of at least three '
                      f'points">{used}/{escape(fmt_count(o["points_total"]))}</td>')
        else:
            points = td(f"{used}/{escape(fmt_count(o['points_total']))}")
        order = {"promise": "order", "value": o["fitted_order"]}
        slope = {"promise": "order", "value": o["slope_vs_mean_step"]}
        lines.append(row([
            td(escape(o["integrator"])), td(escape(fmt_count(o["nominal_order"]))),
            td("" if adaptive else escape(fmt_value(order))),
            td(verdict_badge(verdict) if verdict else ""),
            td(escape(fmt_value(slope)) if adaptive else ""), td(escape(_window(o))), points,
            td(_slopes_html(o)), td(escape(fmt_float(o["fit_deviation"]))),
            td(escape(fmt_correlation(o["correlation"]))), td(escape(fmt_float(o["residual"]))),
            td(escape(fmt_count(o["added_steps"]))), td(escape(o["note"]))]))
    if not lines:
        return '<p class="note">No fitted orders: no integrator that ran.</p>'
    return (table(ORDER_COLUMNS, lines, "orders")
            + '<p class="note">The window: the run of at least three consecutive step sizes '
            "whose local slopes agree, reaching the smallest step, between the reference's "
            "error floor and the errors with no accuracy (orders.csv). An adaptive method's "
            "slope of the error against the mean step is not an order: step control ties the "
            "error to the tolerance.</p>")


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
